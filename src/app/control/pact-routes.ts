import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse } from '../../core/http/plain-http.ts'
import { parseJournalFilter } from '../../core/journal/journal-filter.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import { applyProviderState } from '../../core/simulator/provider-states.ts'
// Not `journal.toPact`: the browser build leaves that out (core/contract/pact-module.ts), the control plane keeps it.
import { toPact } from '../../core/contract/pact-export.ts'
import { readJson } from './control-body.ts'
import type { ControlRoute } from './control-route.ts'

/** Names of a pact's parties: letters, digits and a few separators, as brokers show them in URLs. */
const partyName = /^[A-Za-z0-9][A-Za-z0-9 ._@/-]{0,127}$/

/**
 * Pact both ways (docs/pact.md):
 *
 * - `GET /__sim/requests.pact?consumer=&provider=` and every journal filter: `journal.toPact`, a Pact 4 file
 *   (`Content-Disposition: attachment`);
 * - `POST /__sim/provider-states` with `{"state", "params", "action"}`, the body Pact's verifier posts to a
 *   provider-state URL: `applyProviderState`, 200 with the state as applied, 400 `invalid_provider_state`.
 */
export function pactRoutes(simulator: SimulatorCore): ControlRoute[] {
  return [
    {
      method: 'GET',
      path: '/requests.pact',
      name: 'requestsPact',
      resolve(request) {
        const { filter, extra } = parseJournalFilter(request.query, simulator.basePath, ['consumer', 'provider'])
        for (const [name, value] of Object.entries(extra)) {
          if (!partyName.test(value)) {
            throw new ApiError(
              'invalid_query_parameter',
              `${name} must be 1 to 128 letters, digits, spaces or ._@/- (got ${JSON.stringify(value)})`,
            )
          }
        }
        const pact = toPact(simulator.journal.find(filter), { consumer: extra.consumer, provider: extra.provider })
        return jsonResponse(pact, 200, { 'Content-Disposition': 'attachment; filename="petstore-sim.pact.json"' })
      },
    },
    {
      method: 'POST',
      path: '/provider-states',
      name: 'providerState',
      resolve: async (request) => jsonResponse(applyProviderState(simulator, await readJson(request)), 200),
    },
  ]
}
