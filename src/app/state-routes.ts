import { ApiError } from '../core/pipeline/api-error.ts'
import { jsonResponse, type PlainRequest, type PlainResponse } from '../core/pipeline/plain-http.ts'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'

/** A control route, as the control plane registers it (`{id}`-free paths under `/__sim`). */
interface StateRoute {
  readonly method: 'GET' | 'PUT' | 'POST'
  readonly path: string
  readonly name: string
  readonly resolve: (request: PlainRequest) => PlainResponse | Promise<PlainResponse>
}

/**
 * The control endpoints of the simulator's whole state:
 *
 * - `GET /__sim/snapshot`: `simulator.snapshot()`, the state as versioned JSON;
 * - `PUT /__sim/snapshot`: `simulator.restore(body)`; 200 with the active scenario and the pets,
 *   or 400 `invalid_body` naming the problem, the state untouched;
 * - `GET /__sim/scenario`: `{ active, available: [{ name, description }] }`;
 * - `POST /__sim/scenario` with `{"name": "…"}`: a reset into that scenario; 200 `{ active, pets }`,
 *   404 `scenario_not_found` for an unknown name.
 *
 * @param readJson the control plane's reader of JSON bodies (undefined for none).
 */
export function createStateRoutes(simulator: SimulatorCore, readJson: (request: PlainRequest) => Promise<unknown>): StateRoute[] {
  const scenarioState = () => ({ active: simulator.scenario, available: simulator.scenarios() })
  return [
    { method: 'GET', path: '/snapshot', name: 'snapshot', resolve: () => jsonResponse(simulator.snapshot(), 200) },
    {
      method: 'PUT',
      path: '/snapshot',
      name: 'restoreSnapshot',
      async resolve(request) {
        const body = await readJson(request)
        try {
          simulator.restore(body)
        } catch (error) {
          throw new ApiError('invalid_body', (error as Error).message)
        }
        return jsonResponse({ status: 'restored', scenario: simulator.scenario, pets: simulator.store.size }, 200)
      },
    },
    { method: 'GET', path: '/scenario', name: 'scenario', resolve: () => jsonResponse(scenarioState(), 200) },
    {
      method: 'POST',
      path: '/scenario',
      name: 'useScenario',
      async resolve(request) {
        const body = await readJson(request)
        const name = typeof body === 'object' && body !== null ? (body as { name?: unknown }).name : undefined
        if (typeof name !== 'string') throw new ApiError('invalid_body', 'Send {"name": "<scenario>"}; GET /__sim/scenario lists them')
        if (!simulator.scenarios().some((scenario) => scenario.name === name)) {
          throw new ApiError('scenario_not_found', `No scenario ${JSON.stringify(name)}; GET /__sim/scenario lists them`)
        }
        try {
          simulator.useScenario(name)
        } catch (error) {
          throw new ApiError('invalid_body', (error as Error).message)
        }
        return jsonResponse({ active: simulator.scenario, pets: simulator.store.size }, 200)
      },
    },
  ]
}
