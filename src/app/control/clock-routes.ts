import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse } from '../../core/http/plain-http.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import { toEpochMilliseconds } from '../../core/time/clock.ts'
import { parseDuration } from '../../core/time/duration.ts'
import { readControlBody, scalar } from './control-body.ts'
import type { ControlRoute } from './control-route.ts'
import { boolean, clockSchema, ok } from './control-doc.ts'

/** The simulator's clock as the control endpoints show it: one reading, so that `now` and `epochMs` agree. */
export function clockReading(simulator: SimulatorCore): { now: string; epochMs: number; frozen: boolean } {
  const epochMs = simulator.clock.now()
  return { now: new Date(epochMs).toISOString(), epochMs, frozen: simulator.clock.frozen }
}

/**
 * `GET /__sim/clock`, and `POST /__sim/clock` with `{ "advance": "90s" }` and/or `{ "set": "2030-12-05T00:00:00Z" }`,
 * and optionally `"freeze": true | false`: `{ "now": iso, "epochMs": n, "frozen": boolean }`.
 */
export function clockRoutes(simulator: SimulatorCore): ControlRoute[] {
  const clockState = () => clockReading(simulator)
  return [
    {
      method: 'GET',
      path: '/clock',
      name: 'clock',
      doc: { summary: "The simulator's clock", responses: ok('The clock', clockSchema) },
      resolve: () => jsonResponse(clockState(), 200),
    },
    {
      method: 'POST',
      path: '/clock',
      name: 'moveClock',
      doc: {
        summary: 'Moves, sets, freezes or unfreezes the clock',
        body: {
          type: 'object',
          properties: {
            advance: { type: ['string', 'number'], description: 'A duration: 90s, 1.5m, or ms' },
            set: { type: ['string', 'number'], description: 'An instant: ISO 8601 or epoch ms' },
            freeze: boolean,
          },
        },
        responses: ok('The clock after the move', clockSchema),
      },
      async resolve(request) {
        const body = await readControlBody(request)
        try {
          if (body.advance === undefined && body.set === undefined && body.freeze === undefined) {
            throw new RangeError('Send {"advance": "90s"}, {"set": "2030-12-05T00:00:00Z"} and/or {"freeze": true}')
          }
          if (body.freeze !== undefined && typeof body.freeze !== 'boolean') throw new RangeError('freeze must be true or false')
          // Validate everything, the instant it all leads to included, before moving anything. The shapes first: a
          // deeply nested array as `set` or `advance` overflowed the stack when its message was written (String()).
          const advance = body.advance === undefined ? undefined : parseDuration(scalar(body.advance, 'advance'))
          const set = body.set === undefined ? undefined : toEpochMilliseconds(scalar(body.set, 'set'))
          toEpochMilliseconds((set ?? simulator.clock.now()) + (advance ?? 0))
          if (body.freeze === true) simulator.clock.freeze()
          if (set !== undefined) simulator.clock.set(set)
          if (advance !== undefined) simulator.clock.advance(advance)
          if (body.freeze === false) simulator.clock.unfreeze()
        } catch (error) {
          throw new ApiError('invalid_body', (error as Error).message)
        }
        return jsonResponse(clockState(), 200)
      },
    },
  ]
}
