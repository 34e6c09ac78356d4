import { getResponse, type HttpHandler } from 'msw'
import { ApiError } from '../core/api-error.ts'
import { createControlHandlers } from '../http/control-handlers.ts'
import { createDocumentHandlers, type OpenApiDocumentSource } from '../http/document-handlers.ts'
import { errorResponse } from '../http/json-response.ts'
import { createSimulator, type Simulator, type SimulatorOptions } from '../simulator.ts'
import { applyCorsHeaders, preflightResponse } from './cors.ts'

export interface AppOptions extends SimulatorOptions {
  /** Serve this simulator instead of creating one from the options. */
  simulator?: Simulator
  /** The `/__sim` control endpoints: on (default), off, or on behind an admin token. */
  control?: boolean | { adminToken: string }
  /** Serves `GET /openapi.json` and `/openapi.yaml` from this source (the Node server passes `fixtures/openapi.yaml`). */
  openApiDocument?: () => OpenApiDocumentSource | Promise<OpenApiDocumentSource>
}

/**
 * The simulator as a web-standard `fetch` function, like a hono app: CORS,
 * the control endpoints and the API handlers, answered through msw's public
 * `getResponse`. Transports (the Node server, the connect middleware) are
 * thin adapters around it.
 *
 * @example
 * const app = createApp({ seed: 1 })
 * const response = await app.fetch(new Request('http://localhost/v1/pets', { headers: { Authorization: 'Bearer demo-pro-key' } }))
 */
export interface App {
  readonly simulator: Simulator
  /** Every request gets a response: what the handlers answer, or a 404 Error. */
  fetch(request: Request): Promise<Response>
  /** What the handlers answer, or `undefined` when no handler matches (for middleware). */
  handle(request: Request): Promise<Response | undefined>
}

export function createApp(options: AppOptions = {}): App {
  const simulator = options.simulator ?? createSimulator(options)
  const control = options.control ?? true
  const controlHandlers = [
    ...(control === false ? [] : createControlHandlers(simulator, control === true ? {} : control)),
    ...(options.openApiDocument === undefined ? [] : createDocumentHandlers(options.openApiDocument)),
  ]
  // The API's handlers come first, as they answer most requests; a base path
  // at the root would swallow /__sim and /openapi.*, so those go first then.
  const handlers: HttpHandler[] =
    simulator.basePath === '' ? [...controlHandlers, ...simulator.handlers] : [...simulator.handlers, ...controlHandlers]

  async function handle(request: Request): Promise<Response | undefined> {
    if (request.method === 'OPTIONS') return preflightResponse(request)
    let response: Response | undefined
    try {
      response = await getResponse(handlers, request)
    } catch (error) {
      response = errorResponse(ApiError.from(error))
    }
    if (response !== undefined) applyCorsHeaders(request, response)
    return response
  }

  return {
    simulator,
    handle,
    async fetch(request) {
      const response = await handle(request)
      if (response !== undefined) return response
      const notFound = errorResponse(
        new ApiError('route_not_found', `No route ${request.method} ${new URL(request.url).pathname}: the API is under ${simulator.basePath || '/'}`),
      )
      applyCorsHeaders(request, notFound)
      return notFound
    },
  }
}
