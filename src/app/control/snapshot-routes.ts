import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse, type PlainResponse } from '../../core/http/plain-http.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import { snapshotFormat, type SnapshotReader } from '../../core/state/state-snapshot.ts'
import { streamedJson, type StreamLifetime } from '../json-stream.ts'
import { readJson } from './control-body.ts'
import type { ControlRoute } from './control-route.ts'
import { anyObject, arrayOf, integer, isoTime, object, ok, string } from './control-doc.ts'

/** A snapshot as written and restored (`StateSnapshot`, docs/state-and-scenarios.md). */
const snapshotSchema = object(
  {
    format: { const: snapshotFormat },
    takenAt: isoTime,
    scenario: string,
    catalogue: object({ nextId: integer, pets: arrayOf(anyObject) }),
    clock: anyObject,
    rateLimits: arrayOf(anyObject),
    faults: object({ nextId: integer, rules: arrayOf(anyObject) }),
  },
  ['format', 'scenario', 'catalogue', 'clock', 'rateLimits', 'faults'],
)

/**
 * The control endpoints of the simulator's snapshot:
 *
 * - `GET /__sim/snapshot`: `simulator.snapshot()`, the state as versioned JSON, written a slice of its pets and
 *   buckets at a time while the client takes it (100,000 pets are some 10 MB of JSON), at most
 *   {@link maxSnapshotStreams} at once;
 * - `PUT /__sim/snapshot`: `simulator.restore(body)`; 200 with the active scenario and the pets,
 *   or 400 `invalid_body` naming the problem, the state untouched;
 */
export function snapshotRoutes(simulator: SimulatorCore): ControlRoute[] {
  let writing = 0
  const lifetime = { opened: () => writing++, over: () => writing-- }
  return [
    {
      method: 'GET',
      path: '/snapshot',
      name: 'snapshot',
      doc: {
        summary: 'The whole state as versioned JSON (docs/state-and-scenarios.md), streamed',
        responses: ok('The snapshot', snapshotSchema),
      },
      resolve(request) {
        // A HEAD's body is never sent (Node drops what is written): no snapshot is taken for it.
        if (request.method === 'HEAD') return streamedJson(() => undefined)
        if (writing >= maxSnapshotStreams) {
          throw new ApiError('too_many_streams', `At most ${maxSnapshotStreams} snapshots are written at once; retry in a moment`, {
            'Retry-After': '1',
          })
        }
        return snapshotStream(simulator.snapshotReader(), lifetime)
      },
    },
    {
      method: 'PUT',
      path: '/snapshot',
      name: 'restoreSnapshot',
      doc: {
        summary: 'Restores a snapshot; the state is untouched when it is refused',
        body: snapshotSchema,
        responses: ok('Restored', object({ status: { const: 'restored' }, scenario: string, pets: integer })),
      },
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
  ]
}

/**
 * Snapshots written at once: each holds, until its client has taken it (or
 * is cut off after 10 s), a copy of the rate-limit buckets (at the default
 * cap of 100,000 anonymous callers, about the limiter's own 17 MiB), and
 * the created pets' columns as they stood (not copied; a reset or load
 * meanwhile leaves them in memory until the snapshot ends). A test suite
 * asks for one at a time; more at once are 503 `too_many_streams` with
 * `Retry-After: 1`.
 */
const maxSnapshotStreams = 4

/** Pets or buckets per piece of a streamed snapshot: some 60 KB of JSON (a pet is about 100 bytes, a bucket about 120). */
const itemsPerPiece = 500

/**
 * A snapshot's JSON, the same text as `JSON.stringify(simulator.snapshot())`,
 * written in pieces while the client takes it: the pets a slice at a time
 * from the catalogue as it stood when asked for (`snapshotReader`: a
 * generated catalogue's pets are made only as they are written), the
 * buckets a slice at a time.
 */
function snapshotStream({ snapshot, pets }: SnapshotReader, lifetime: StreamLifetime): PlainResponse {
  const shell = JSON.stringify({ ...snapshot, rateLimits: [] })
  // Only the structure can hold these: inside a JSON string every quote is escaped.
  const petsAt = shell.indexOf('"pets":[]') + '"pets":['.length
  const bucketsAt = shell.indexOf('"rateLimits":[]') + '"rateLimits":['.length
  const { rateLimits } = snapshot
  let bucketsDone = 0
  const pieces: Array<() => string | undefined> = [
    () => shell.slice(0, petsAt),
    () => {
      const slice = pets(itemsPerPiece)
      return slice.length === 0 ? undefined : JSON.stringify(slice).slice(1, -1)
    },
    () => shell.slice(petsAt, bucketsAt),
    () => {
      if (bucketsDone >= rateLimits.length) return undefined
      const slice = rateLimits.slice(bucketsDone, bucketsDone + itemsPerPiece)
      bucketsDone += slice.length
      return JSON.stringify(slice).slice(1, -1)
    },
    () => shell.slice(bucketsAt),
  ]
  // Each piece function once for the fixed texts, again and again for the arrays (with commas between) until it gives undefined.
  const repeats = [false, true, false, true, false]
  let piece = 0
  let started = false
  return streamedJson(
    () => {
      while (piece < pieces.length) {
        const text = pieces[piece]!()
        if (!repeats[piece]) {
          piece++
          return text
        }
        if (text !== undefined) {
          const comma = started ? ',' : ''
          started = true
          return `${comma}${text}`
        }
        piece++
        started = false
      }
      return undefined
    },
    {},
    lifetime,
  )
}
