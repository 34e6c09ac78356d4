import { jsonResponse } from '../../core/http/plain-http.ts'
import { pactApiKeyPlaceholder } from '../../core/contract/pact-interaction.ts'
import { describeProviderStates, type MappedStates } from '../../core/simulator/provider-states.ts'
import { mappedParamNames } from '../../core/simulator/mapped-provider-states.ts'
import type { ControlRoute } from './control-route.ts'
import { anyObject, arrayOf, object, ok, string } from './control-doc.ts'

/**
 * `GET /__sim/provider-states`: the provider states `POST /__sim/provider-states` (in `pact-routes.ts`) takes, each
 * with its parameters (type, required, default, range), what holds after setup and what teardown does, listed from
 * the declaration the handler checks against (docs/pact.md, "Provider states"); `mapped`, the team's own
 * (`providerStates`, "Provider states of your own"). Pact's verifier shows only
 * `Invalid status code: 400` for a state refused: this is where a provider team reads what is accepted.
 */
export function providerStateRoutes(mapped?: MappedStates): ControlRoute[] {
  // The team's own states (`providerStates`): each name, what it is made of, and the pact's params its steps read.
  const own = Object.entries(mapped?.states ?? {}).map(([name, entry]) => ({
    name,
    description: entry.description ?? '',
    scenario: entry.scenario ?? mapped!.configuredScenario,
    snapshot: entry.snapshot !== undefined,
    states: entry.states ?? [],
    params: mappedParamNames(entry),
    teardown: `a reset into ${mapped!.configuredScenario}`,
  }))
  return [
    {
      method: 'GET',
      path: '/provider-states',
      name: 'providerStates',
      doc: {
        summary: 'The provider states, each with its parameters',
        responses: ok(
          'The states',
          object(
            {
              request: anyObject,
              apiKeyPlaceholder: string,
              states: arrayOf(object({ name: string, params: arrayOf(anyObject) }, ['name', 'params'])),
              // The team's own (`--provider-states`), when it maps any.
              mapped: arrayOf(object({ name: string, description: string, scenario: string, snapshot: string }, ['name'])),
            },
            ['request', 'apiKeyPlaceholder', 'states'],
          ),
        ),
      },
      resolve: () =>
        jsonResponse(
          {
            request: { state: 'a phrase below', params: {}, action: 'setup | teardown' },
            apiKeyPlaceholder: pactApiKeyPlaceholder,
            states: describeProviderStates(),
            mapped: own,
          },
          200,
        ),
    },
  ]
}
