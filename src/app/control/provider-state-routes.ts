import { jsonResponse } from '../../core/http/plain-http.ts'
import { pactApiKeyPlaceholder } from '../../core/contract/pact-interaction.ts'
import { describeProviderStates } from '../../core/simulator/provider-states.ts'
import type { ControlRoute } from './control-route.ts'
import { anyObject, arrayOf, object, ok, string } from './control-doc.ts'

/**
 * `GET /__sim/provider-states`: the provider states `POST /__sim/provider-states` (in `pact-routes.ts`) takes, each
 * with its parameters (type, required, default, range), what holds after setup and what teardown does, listed from
 * the declaration the handler checks against (docs/pact.md, "Provider states"). Pact's verifier shows only
 * `Invalid status code: 400` for a state refused: this is where a provider team reads what is accepted.
 */
export function providerStateRoutes(): ControlRoute[] {
  return [
    {
      method: 'GET',
      path: '/provider-states',
      name: 'providerStates',
      doc: {
        summary: 'The provider states, each with its parameters',
        responses: ok(
          'The states',
          object({
            request: anyObject,
            apiKeyPlaceholder: string,
            states: arrayOf(object({ name: string, params: arrayOf(anyObject) }, ['name', 'params'])),
          }),
        ),
      },
      resolve: () =>
        jsonResponse(
          {
            request: { state: 'a phrase below', params: {}, action: 'setup | teardown' },
            apiKeyPlaceholder: pactApiKeyPlaceholder,
            states: describeProviderStates(),
          },
          200,
        ),
    },
  ]
}
