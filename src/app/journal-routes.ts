import { ApiError } from '../core/pipeline/api-error.ts'
import { jsonResponse, type PlainResponse } from '../core/pipeline/plain-http.ts'
import { parseJournalFilter } from '../core/simulator/journal-filter.ts'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import type { ControlRoute } from './control-plane.ts'

/** The default and the longest wait of `GET /__sim/requests/wait`. */
const waitTimeouts = { defaultMs: 5000, maxMs: 60_000 } as const

/**
 * The journal and contract coverage over HTTP, the same semantics as
 * in-process (`simulator.journal`, `simulator.coverage()`), for test
 * runners in any language:
 *
 * - `GET /__sim/requests?operation=&method=&path=&status=&key=&since=&limit=`: `{ "requests": [entries] }`;
 * - `GET /__sim/requests/count?…`: `{ "count": n }`;
 * - `GET /__sim/requests/wait?…&timeoutMs=`: `{ "request": entry }`, the first match (already recorded, or
 *   within `timeoutMs`), or 404 `request_not_seen` listing the nearest entries;
 * - `DELETE /__sim/requests`: empties the journal (nothing else);
 * - `GET /__sim/requests.har?…`: the entries as a HAR 1.2 file;
 * - `GET /__sim/coverage`, `DELETE /__sim/coverage`: contract coverage, and starting it over.
 *
 * An unknown filter, a repeated one or a bad value is a 400 `invalid_query_parameter`.
 */
export function journalRoutes(simulator: SimulatorCore): ControlRoute[] {
  const { journal } = simulator
  return [
    {
      method: 'GET',
      path: '/requests',
      name: 'requests',
      resolve: (request) => jsonResponse({ requests: journal.find(parseJournalFilter(request.query).filter) }, 200),
    },
    {
      method: 'DELETE',
      path: '/requests',
      name: 'clearRequests',
      resolve() {
        journal.clear()
        return jsonResponse({ requests: [] }, 200)
      },
    },
    {
      method: 'GET',
      path: '/requests/count',
      name: 'countRequests',
      resolve: (request) => jsonResponse({ count: journal.count(parseJournalFilter(request.query).filter) }, 200),
    },
    {
      method: 'GET',
      path: '/requests/wait',
      name: 'waitForRequest',
      async resolve(request) {
        const { filter, extra } = parseJournalFilter(request.query, ['timeoutMs'])
        const timeoutMs = extra.timeoutMs === undefined ? waitTimeouts.defaultMs : Number(extra.timeoutMs)
        if (!/^\d{1,6}$/.test(extra.timeoutMs ?? '0') || timeoutMs > waitTimeouts.maxMs) {
          throw new ApiError('invalid_query_parameter', `timeoutMs must be a whole number of ms from 0 to ${waitTimeouts.maxMs}`)
        }
        try {
          return jsonResponse({ request: await journal.waitFor(filter, { timeoutMs }) }, 200)
        } catch (error) {
          throw new ApiError('request_not_seen', (error as Error).message)
        }
      },
    },
    {
      method: 'GET',
      path: '/requests.har',
      name: 'requestsHar',
      resolve: (request): PlainResponse => {
        const response = jsonResponse(journal.toHar(parseJournalFilter(request.query).filter), 200, {
          'Content-Disposition': 'attachment; filename="petstore-sim.har"',
        })
        return response
      },
    },
    { method: 'GET', path: '/coverage', name: 'coverage', resolve: () => jsonResponse(simulator.coverage(), 200) },
    {
      method: 'DELETE',
      path: '/coverage',
      name: 'resetCoverage',
      resolve() {
        simulator.resetCoverage()
        return jsonResponse(simulator.coverage(), 200)
      },
    },
  ]
}
