import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse } from '../../core/http/plain-http.ts'
import { parseJournalFilter } from '../../core/journal/journal-filter.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import { applyProviderState, type MappedStates } from '../../core/simulator/provider-states.ts'
// Not `journal.toPact`: the browser build leaves that out (core/contract/pact-module.ts), the control plane keeps it.
import { convertInChunks, toPact } from '../../core/contract/pact-export.ts'
import { readJson } from './control-body.ts'
import type { ControlRoute } from './control-route.ts'
import { anyObject, arrayOf, integer, journalFilterQuery, object, ok, string } from './control-doc.ts'

/**
 * Pact both ways (docs/pact.md):
 *
 * - `GET /__sim/requests.pact?consumer=&provider=&simulatorChoices=include` and every journal filter: the interactions
 *   recorded since the simulator started or they were cleared (resets keep them), a Pact 4 file
 *   (`Content-Disposition: attachment`); a bad party name is a 400 `invalid_query_parameter`;
 * - `DELETE /__sim/requests.pact`: forgets those interactions (the journal's entries stay);
 * - `POST /__sim/provider-states` with `{"state", "params", "action"}`, the body Pact's verifier posts to a
 *   provider-state URL: `applyProviderState` (the team's own states first, `mapped`), 200 with the state as applied,
 *   400 `invalid_provider_state`.
 */
export function pactRoutes(simulator: SimulatorCore, mapped?: MappedStates): ControlRoute[] {
  return [
    {
      method: 'GET',
      path: '/requests.pact',
      name: 'requestsPact',
      doc: {
        summary: 'The interactions recorded since start or the last clear, as a Pact 4 file',
        query: [
          ...journalFilterQuery,
          { name: 'consumer', description: "The consumer's name", schema: string },
          { name: 'provider', description: "The provider's name", schema: string },
          {
            name: 'simulatorChoices',
            description: 'include or leave-out (default) what the simulator chose (ids, dates)',
            schema: { enum: ['include', 'leave-out'] },
          },
        ],
        responses: ok(
          'The pact',
          object({
            consumer: object({ name: string }),
            provider: object({ name: string }),
            interactions: arrayOf(anyObject),
            metadata: anyObject,
          }),
        ),
      },
      async resolve(request) {
        const { filter, extra } = parseJournalFilter(request.query, simulator.basePath, ['consumer', 'provider', 'simulatorChoices'])
        const { consumer, provider, simulatorChoices } = extra
        if (simulatorChoices !== undefined && simulatorChoices !== 'include' && simulatorChoices !== 'leave-out') {
          throw new ApiError(
            'invalid_query_parameter',
            `simulatorChoices must be include or leave-out (got ${JSON.stringify(simulatorChoices.slice(0, 40))})`,
          )
        }
        const options = { consumer, provider, simulatorChoices: simulatorChoices === 'include' }
        const { pact: recorder } = simulator
        try {
          toPact([], options)
        } catch (error) {
          throw new ApiError('invalid_query_parameter', (error as Error).message)
        }
        const entries = recorder.entries(filter)
        // A first export of many interactions: converted 20 at a time, the API's requests answered in between.
        await convertInChunks(entries, recorder.conversions, () => new Promise((resolve) => setTimeout(resolve, 0)))
        const pact = toPact(entries, options, recorder.overflow(), recorder.conversions)
        return jsonResponse(pact, 200, { 'Content-Disposition': 'attachment; filename="petstore-sim.pact.json"' })
      },
    },
    {
      method: 'DELETE',
      path: '/requests.pact',
      name: 'clearPact',
      doc: {
        summary: "Forgets the pact's interactions (the journal's entries stay)",
        responses: ok('Cleared', object({ cleared: integer })),
      },
      resolve: () => jsonResponse({ cleared: simulator.pact.clear() }, 200),
    },
    {
      method: 'POST',
      path: '/provider-states',
      name: 'providerState',
      doc: {
        summary: "Sets up or tears down a provider state: the body Pact's verifier posts",
        body: object({ state: string, params: anyObject, action: { enum: ['setup', 'teardown'] } }, ['state']),
        responses: ok('The state as applied', object({ state: string, action: string, params: anyObject }, ['state', 'action'])),
      },
      resolve: async (request) => jsonResponse(applyProviderState(simulator, await readJson(request), mapped), 200),
    },
  ]
}
