import { ApiError } from '../core/pipeline/api-error.ts'
import { jsonResponse, type PlainRequest, type PlainResponse } from '../core/pipeline/plain-http.ts'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import type { StateSnapshot } from '../core/simulator/state-snapshot.ts'
import { streamedJson } from './json-stream.ts'

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
 * - `GET /__sim/snapshot`: `simulator.snapshot()`, the state as versioned JSON, written a slice of its pets and
 *   buckets at a time while the client takes it (100 000 created pets are some 10 MB of JSON);
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
    { method: 'GET', path: '/snapshot', name: 'snapshot', resolve: () => snapshotStream(simulator.snapshot()) },
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

/** Pets or buckets per piece of a streamed snapshot: some 60 KB of JSON (a pet is about 100 bytes, a bucket about 120). */
const itemsPerPiece = 500

/**
 * A snapshot's JSON, the same text as `JSON.stringify(snapshot)`, written
 * in pieces: its two arrays that grow with use (the pets, the anonymous
 * callers' buckets) a slice at a time. The snapshot is taken when asked for,
 * so the answer is one instant's state however slowly it is read; it holds
 * references to the pets, never their text.
 */
function snapshotStream(snapshot: StateSnapshot): PlainResponse {
  const shell = JSON.stringify({ ...snapshot, catalogue: { ...snapshot.catalogue, pets: [] }, rateLimits: [] })
  // Only the structure can hold these: inside a JSON string every quote is escaped.
  const petsAt = shell.indexOf('"pets":[]') + '"pets":['.length
  const bucketsAt = shell.indexOf('"rateLimits":[]') + '"rateLimits":['.length
  const pieces: Array<string | readonly unknown[]> = [
    shell.slice(0, petsAt),
    snapshot.catalogue.pets,
    shell.slice(petsAt, bucketsAt),
    snapshot.rateLimits,
    shell.slice(bucketsAt),
  ]
  let piece = 0
  let offset = 0
  return streamedJson(() => {
    while (piece < pieces.length) {
      const current = pieces[piece]!
      if (typeof current === 'string') {
        piece++
        return current
      }
      if (offset < current.length) {
        const slice = current.slice(offset, offset + itemsPerPiece)
        const text = JSON.stringify(slice).slice(1, -1)
        const comma = offset === 0 ? '' : ','
        offset += slice.length
        return `${comma}${text}`
      }
      piece++
      offset = 0
    }
    return undefined
  })
}
