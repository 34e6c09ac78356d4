import { http, type HttpHandler, type HttpResponseResolver } from 'msw'
import { ApiError } from '../core/api-error.ts'
import { constantTimeEqual } from '../core/api-keys.ts'
import { readBearerToken } from '../core/bearer-token.ts'
import { parseDuration } from '../core/duration.ts'
import { toEpochMilliseconds } from '../core/clock.ts'
import type { Simulator } from '../simulator.ts'
import { errorResponse, jsonResponse } from './json-response.ts'

/** The path under which the control endpoints live, outside the API prefix. */
export const controlPath = '/__sim'

export interface ControlOptions {
  /** When set, every control request needs `Authorization: Bearer <adminToken>`. */
  readonly adminToken?: string | undefined
}

/**
 * The simulator's control endpoints, which need no API key and never count
 * against a limit:
 *
 * - `GET /__sim/health`: `{ "status": "ok", "pets": n, "now": iso }` once ready;
 * - `POST /__sim/reset`: back to the initial catalogue, no counts or bans, empty journal, clock offset undone;
 * - `GET /__sim/clock`, `POST /__sim/clock` with `{ "advance": "90s" }` and/or `{ "set": "2030-12-05T00:00:00Z" }`,
 *   and optionally `"freeze": true | false`: `{ "now": iso, "epochMs": n, "frozen": boolean }`;
 * - `GET /__sim/requests`: `{ "requests": [journal entries, oldest first] }`.
 *
 * @example
 * setupServer(...createControlHandlers(simulator), ...simulator.handlers)
 */
export function createControlHandlers(simulator: Simulator, options: ControlOptions = {}): HttpHandler[] {
  const url = (path: string) => `*${controlPath}${path}`
  const guard = (resolve: (request: Request) => Response | Promise<Response>): HttpResponseResolver => {
    return async ({ request }) => {
      try {
        if (options.adminToken !== undefined) requireAdmin(request, options.adminToken)
        return await resolve(request)
      } catch (error) {
        return errorResponse(ApiError.from(error))
      }
    }
  }
  const clockState = () => {
    // One reading, so that `now` and `epochMs` agree on a running clock.
    const epochMs = simulator.clock.now()
    return { now: new Date(epochMs).toISOString(), epochMs, frozen: simulator.clock.frozen }
  }

  return [
    http.get(url('/health'), guard(() => jsonResponse({ status: 'ok', pets: simulator.store.size, ...clockState() }, 200))),
    http.post(
      url('/reset'),
      guard(() => {
        simulator.reset()
        return jsonResponse({ status: 'reset', pets: simulator.store.size, ...clockState() }, 200)
      }),
    ),
    http.get(url('/clock'), guard(() => jsonResponse(clockState(), 200))),
    http.post(
      url('/clock'),
      guard(async (request) => {
        const body = await readControlBody(request)
        try {
          if (body.advance === undefined && body.set === undefined && body.freeze === undefined) {
            throw new RangeError('Send {"advance": "90s"}, {"set": "2030-12-05T00:00:00Z"} and/or {"freeze": true}')
          }
          if (body.freeze !== undefined && typeof body.freeze !== 'boolean') throw new RangeError('freeze must be true or false')
          // Validate everything before moving anything.
          const advance = body.advance === undefined ? undefined : parseDuration(body.advance as string | number)
          const set = body.set === undefined ? undefined : toEpochMilliseconds(body.set as string | number)
          if (body.freeze === true) simulator.clock.freeze()
          if (set !== undefined) simulator.clock.set(set)
          if (advance !== undefined) simulator.clock.advance(advance)
          if (body.freeze === false) simulator.clock.unfreeze()
        } catch (error) {
          throw new ApiError('invalid_body', (error as Error).message)
        }
        return jsonResponse(clockState(), 200)
      }),
    ),
    http.get(url('/requests'), guard(() => jsonResponse({ requests: simulator.journal.entries() }, 200))),
    http.all(url('/*'), guard((request) => {
      throw new ApiError('route_not_found', `No control endpoint ${request.method} ${new URL(request.url).pathname}`)
    })),
  ]
}

function requireAdmin(request: Request, adminToken: string): void {
  let token = ''
  try {
    token = readBearerToken(request.headers.get('authorization'))
  } catch {
    // No usable bearer token: refused below like a wrong one.
  }
  if (!constantTimeEqual(adminToken, token)) {
    throw new ApiError('admin_unauthorized', 'Control endpoints need "Authorization: Bearer <admin token>"', {
      'WWW-Authenticate': 'Bearer realm="petstore-sim-admin"',
    })
  }
}

async function readControlBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text()
  if (text.trim() === '') return {}
  try {
    const data: unknown = JSON.parse(text)
    if (typeof data === 'object' && data !== null && !Array.isArray(data)) return data as Record<string, unknown>
  } catch {
    // Reported below.
  }
  throw new ApiError('invalid_body', 'The control request body must be a JSON object')
}
