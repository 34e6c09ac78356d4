import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse, type PlainRequest, type PlainResponse } from '../../core/http/plain-http.ts'
import { clientRuleIds, type ClientRuleId } from '../../core/grading/client-rules.ts'
import { clientReportJUnit } from '../../core/grading/client-junit.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import type { ClientIgnore } from '../../core/grading/client-report-options.ts'
import { parseJournalFilter } from '../../core/journal/journal-filter.ts'
import type { ControlRoute } from './control-route.ts'
import { anyObject, arrayOf, integer, journalFilterQuery, object, string } from './control-doc.ts'

const callerSchema = object(
  {
    caller: string,
    plan: string,
    requests: integer,
    verdict: { enum: ['pass', 'fail'] },
    findings: arrayOf(anyObject),
    planAdvice: anyObject,
  },
  ['caller', 'plan', 'requests', 'verdict', 'findings'],
)
const reportSchema = object(
  { verdict: { enum: ['pass', 'fail'] }, violations: integer, advice: integer, forgottenCallers: integer, callers: arrayOf(callerSchema) },
  ['verdict', 'violations', 'advice', 'callers'],
)

/**
 * The client report over HTTP (docs/grading-clients.md):
 *
 * - `GET /__sim/clients`: `simulator.clientReport()` as JSON; `?format=junit` (or `Accept: application/xml`) as
 *   JUnit XML for CI; `?ignore=<rule>,<rule>` leaves rules' findings out; the journal's filters (`operation=`,
 *   `query.limit=500`…) name the requests to leave out (of those rules, or of every rule). Per sandbox under
 *   `/sandboxes/<name>/__sim/clients`, like every control route.
 */
export function clientRoutes(simulator: SimulatorCore): ControlRoute[] {
  return [
    {
      method: 'GET',
      path: '/clients',
      name: 'clients',
      doc: {
        summary: "The client report: each caller graded against the spec's rules for clients (docs/grading-clients.md)",
        query: [
          {
            name: 'format',
            description: '`json` (the default) or `junit` (also `Accept: application/xml`)',
            schema: { enum: ['json', 'junit'] },
          },
          {
            name: 'ignore',
            description: `Rules whose findings are left out, comma-separated: ${clientRuleIds.join(', ')}`,
            schema: string,
          },
          ...journalFilterQuery,
        ],
        responses: {
          '200': {
            description: 'The report, as JSON, or as JUnit XML with format=junit',
            schema: reportSchema,
            alternatives: { 'application/xml': string },
          },
        },
      },
      resolve: (request) => clientReportResponse(simulator, request),
    },
  ]
}

function clientReportResponse(simulator: SimulatorCore, request: PlainRequest): PlainResponse {
  // The journal's filters, as GET /__sim/requests reads them: the requests to leave out (of `ignore`'s rules, or all).
  const { filter, extra } = parseJournalFilter(request.query, simulator.basePath, ['format', 'ignore'])
  const rules = (extra.ignore ?? '').split(',').filter((rule) => rule !== '')
  for (const rule of rules) {
    if (!(clientRuleIds as readonly string[]).includes(rule)) {
      throw new ApiError(
        'invalid_query_parameter',
        `Unknown client rule ${JSON.stringify(rule.slice(0, 40))}: use ${clientRuleIds.join(', ')}`,
      )
    }
  }
  const format = extra.format ?? (/\b(application|text)\/xml\b/.test(request.header('accept') ?? '') ? 'junit' : 'json')
  if (format !== 'json' && format !== 'junit') {
    throw new ApiError('invalid_query_parameter', `format must be json or junit (got ${JSON.stringify(format.slice(0, 40))})`)
  }
  const filtered = Object.keys(filter).length > 0
  const ignore: ClientIgnore[] = filtered
    ? rules.length === 0
      ? [{ filter }]
      : rules.map((rule) => ({ rule: rule as ClientRuleId, filter }))
    : rules.map((rule) => ({ rule: rule as ClientRuleId }))
  const report = simulator.clientReport({ ignore })
  if (format === 'json') return jsonResponse(report, 200)
  return { status: 200, headers: { 'Content-Type': 'application/xml; charset=utf-8' }, body: clientReportJUnit(report) }
}
