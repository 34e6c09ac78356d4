import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse } from '../../core/http/plain-http.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import { readJson } from './control-body.ts'
import type { ControlRoute } from './control-route.ts'
import { arrayOf, integer, object, ok, string } from './control-doc.ts'

/**
 * The scenarios:
 *
 * - `GET /__sim/scenario`: `{ active, available: [{ name, description }] }`;
 * - `POST /__sim/scenario` with `{"name": "…"}`: a reset into that scenario; 200 `{ active, pets }`,
 *   404 `scenario_not_found` for an unknown name.
 */
export function scenarioRoutes(simulator: SimulatorCore): ControlRoute[] {
  const scenarioState = () => ({ active: simulator.scenario, available: simulator.scenarios() })
  return [
    {
      method: 'GET',
      path: '/scenario',
      name: 'scenario',
      doc: {
        summary: 'The active scenario and those available',
        responses: ok('The scenarios', object({ active: string, available: arrayOf(object({ name: string, description: string })) })),
      },
      resolve: () => jsonResponse(scenarioState(), 200),
    },
    {
      method: 'POST',
      path: '/scenario',
      name: 'useScenario',
      doc: {
        summary: 'A reset into a scenario',
        body: object({ name: string }),
        responses: ok('The scenario in force', object({ active: string, pets: integer })),
      },
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
