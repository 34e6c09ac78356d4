import { getResponse, type RequestHandler } from 'msw'
import type { App } from '../app/app.ts'
import { applyCorsToFetchResponse } from '../app/cors.ts'
import type { TransportFacts } from '../core/http/plain-http.ts'
import type { Engine, FetchLane } from '../node/lane-types.ts'
import { createApiHandlers } from './api-handlers.ts'

export interface MswLaneOptions {
  readonly app: App
  /** The user's own MSW handlers, tried first, as `server.use` does in-process; what they leave unanswered goes on to the simulator. */
  readonly handlers?: readonly RequestHandler[]
  readonly engine: Engine
}

/**
 * Serves requests through msw: the user's handlers first, then the
 * simulator: with engine `msw` its API through its own MSW handlers (for
 * comparison and as a fallback), otherwise as the app. Preflights, CORS,
 * the control plane (with the app's own rules and token), the OpenAPI
 * document and the 404 for unknown paths are always the app's.
 */
export function createMswLane(options: MswLaneOptions): FetchLane {
  const { app } = options
  // The transport facts of the requests in flight, for the simulator's handlers to read: given to
  // them as a lookup, not attached to the request.
  const transports = new WeakMap<Request, TransportFacts>()
  const transportOf = (request: Request): TransportFacts => transports.get(request) ?? {}
  const simulatorHandlers = options.engine === 'msw' ? createApiHandlers(app.simulator, { transportOf }) : []
  const handlers = [...(options.handlers ?? []), ...simulatorHandlers]
  return async (request, transport) => {
    if (request.method !== 'OPTIONS' && handlers.length > 0) {
      // The app's refusals first: a user handler must not answer a foreign Origin or Host (nor under /__sim anything the
      // control plane's guard refuses), and a refused request is journaled, not counted.
      const refusal = app.refusal(request, transport)
      if (refusal !== undefined) return refusal
      // A clone for the handlers: one that reads the body (a catch-all logging it) leaves the simulator its own
      // copy; reading the consumed original made createPet a 500 "Unexpected simulator error".
      const handed = request.body === null ? request : request.clone()
      transports.set(handed, transport)
      const answered = await getResponse(handlers as RequestHandler[], handed)
      if (answered !== undefined) return applyCorsToFetchResponse(request, answered)
    }
    return app.fetch(request, transport)
  }
}
