import { getResponse, type RequestHandler } from 'msw'
import type { App } from '../app/app.ts'
import type { ControlOptions } from '../app/control-plane.ts'
import { applyCorsToFetchResponse } from '../app/cors.ts'
import type { OpenApiDocumentSource } from '../app/openapi-route.ts'
import type { TransportFacts } from '../core/plain-http.ts'
import type { Engine } from '../node/engine.ts'
import { createApiHandlers } from './api-handlers.ts'
import { createControlHandlers } from './control-handlers.ts'
import { createDocumentHandlers } from './document-handlers.ts'


export interface MswLaneOptions {
  readonly app: App
  /** The user's own MSW handlers, tried first, as `server.use` does in-process; what they leave unanswered goes on to the simulator. */
  readonly handlers?: readonly RequestHandler[]
  readonly engine: Engine
  /** With the `msw` engine: the control endpoints' settings and the OpenAPI document, as the app has them. */
  readonly control?: boolean | ControlOptions
  readonly openApiDocument?: () => OpenApiDocumentSource | Promise<OpenApiDocumentSource>
}

/** A server lane that answers Fetch requests through msw's `getResponse`. */
export type FetchLane = (request: Request, transport: TransportFacts) => Promise<Response>

/**
 * Serves requests through msw: the user's handlers first, then the
 * simulator, either as the app (engine `direct`) or as the simulator's own
 * MSW handlers (engine `msw`, for comparison and as a fallback). Preflights,
 * CORS and the 404 for unknown paths are the app's, as on the direct lane.
 */
export function createMswLane(options: MswLaneOptions): FetchLane {
  const { app } = options
  // The transport facts of the requests in flight, for the simulator's handlers to read: given to
  // them as a lookup, not attached to the request.
  const transports = new WeakMap<Request, TransportFacts>()
  const simulatorHandlers =
    options.engine === 'msw'
      ? [
          ...(options.control === false ? [] : createControlHandlers(app.simulator, options.control === true ? {} : options.control)),
          ...(options.openApiDocument === undefined ? [] : createDocumentHandlers(options.openApiDocument)),
          ...createApiHandlers(app.simulator, { transportOf: (request) => transports.get(request) ?? {} }),
        ]
      : []
  const handlers = [...(options.handlers ?? []), ...simulatorHandlers]
  return async (request, transport) => {
    if (request.method !== 'OPTIONS' && handlers.length > 0) {
      transports.set(request, transport)
      const answered = await getResponse(handlers as RequestHandler[], request)
      if (answered !== undefined) return applyCorsToFetchResponse(request, answered)
    }
    return app.fetch(request, transport)
  }
}
