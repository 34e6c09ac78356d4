import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse, type PlainRequest, type PlainResponse } from '../../core/http/plain-http.ts'
import { clientRuleIds, type ClientRuleId } from '../../core/grading/client-rules.ts'
import { clientReportJUnit } from '../../core/grading/client-junit.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import type { ControlRoute } from './control-route.ts'

/**
 * The client report over HTTP (docs/grading-clients.md):
 *
 * - `GET /__sim/clients`: `simulator.clientReport()` as JSON; `?format=junit` (or `Accept: application/xml`) as
 *   JUnit XML for CI; `?ignore=<rule>` (repeated, or comma-separated) leaves a rule's findings out. Per sandbox
 *   under `/sandboxes/<name>/__sim/clients`, like every control route.
 */
export function clientRoutes(simulator: SimulatorCore): ControlRoute[] {
  return [{ method: 'GET', path: '/clients', name: 'clients', resolve: (request) => clientReportResponse(simulator, request) }]
}

function clientReportResponse(simulator: SimulatorCore, request: PlainRequest): PlainResponse {
  const query = new URLSearchParams(request.query)
  for (const name of query.keys()) {
    if (name !== 'format' && name !== 'ignore')
      throw new ApiError('invalid_query_parameter', `Unknown parameter ${JSON.stringify(name.slice(0, 40))}: use format or ignore`)
  }
  const ignore = query
    .getAll('ignore')
    .flatMap((value) => value.split(','))
    .filter((rule) => rule !== '')
  for (const rule of ignore) {
    if (!(clientRuleIds as readonly string[]).includes(rule)) {
      throw new ApiError(
        'invalid_query_parameter',
        `Unknown client rule ${JSON.stringify(rule.slice(0, 40))}: use ${clientRuleIds.join(', ')}`,
      )
    }
  }
  const format = query.get('format') ?? (/\b(application|text)\/xml\b/.test(request.header('accept') ?? '') ? 'junit' : 'json')
  if (format !== 'json' && format !== 'junit') {
    throw new ApiError('invalid_query_parameter', `format must be json or junit (got ${JSON.stringify(format.slice(0, 40))})`)
  }
  const report = simulator.clientReport({ ignore: ignore.map((rule) => ({ rule: rule as ClientRuleId })) })
  if (format === 'json') return jsonResponse(report, 200)
  return { status: 200, headers: { 'Content-Type': 'application/xml; charset=utf-8' }, body: clientReportJUnit(report) }
}
