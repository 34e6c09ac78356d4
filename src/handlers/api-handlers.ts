import { http, type HttpHandler } from 'msw'
import { ApiError } from '../core/http/api-error.ts'
import { errorResponse, type PlainRequest, type TransportFacts } from '../core/http/plain-http.ts'
import type { RouteMatch } from '../core/operations/route-table.ts'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import { createBrowserAccess, isCrossSiteNavigation } from '../app/browser-access.ts'
import { preflightResponse, withoutCorsGrant } from '../app/cors.ts'
import { toFetchResponse, toPlainRequest } from '../app/fetch-lane.ts'
import { urlPattern } from './url-patterns.ts'

export interface ApiHandlerOptions {
  /**
   * What the transport knows of a request's client (its address), for lanes
   * that run these handlers behind a server. In-process the request never
   * crossed a network: `{ local: true }`.
   */
  readonly transportOf?: (request: Request) => TransportFacts
}

/**
 * The MSW handlers of the Animal Store API, derived from the route table:
 * one per operation (so `server.use(http.get('*\/v1/pets', …))` overrides
 * exactly that operation), HEAD for each GET, then 405 for other methods on
 * known paths. Each is a thin adapter: the Fetch `Request` becomes a plain
 * request, the simulator's pipeline answers it, and its answer becomes a
 * `Response`; anything thrown on the way becomes the spec's Error body.
 *
 * Paths match the base path exactly. With a path-only base URL (the default,
 * any origin) a request that matches no path of the API is left unhandled,
 * so msw's `onUnhandledRequest` policy applies to the other APIs an app
 * calls (`https://api.stripe.com/v1/customers`). With a full base URL, the
 * origin is the simulator's: other paths under the base path are the API's
 * 404 (authenticated and counted, as on the server), and paths outside it a
 * 404 that is neither.
 */
export function createApiHandlers(simulator: SimulatorCore, options: ApiHandlerOptions = {}): HttpHandler[] {
  const { pipeline, bodyLimit, baseOrigin, basePath } = simulator
  const { table } = pipeline
  const transportOf = options.transportOf ?? (() => inProcess)
  const unknownPath: RouteMatch = { kind: 'unknown-path' }
  /**
   * Behind a server (`--engine msw`), a page whose origin is not allowed, or a cross-site `<img>` or `<script>`, is
   * refused as the app refuses it (`browser-access.ts`; counted, 80 `<img>` tags got the anonymous caller banned on
   * this lane too); in-process never.
   */
  const browserAccess = createBrowserAccess(simulator, undefined)
  const refusedOrigin = (request: PlainRequest): Response | undefined => {
    const refusal = browserAccess.refusal(request)
    // A plain error answer has no transport fault: toFetchResponse gives a Response, not a promise.
    return refusal === undefined ? undefined : withoutCorsGrant(toFetchResponse(errorResponse(refusal)) as Response)
  }

  const answer =
    (matchOf: (path: string) => RouteMatch) =>
    async ({ request }: { request: Request }): Promise<Response> => {
      try {
        const plain = toPlainRequest(request, bodyLimit, transportOf(request))
        const refused = refusedOrigin(plain)
        if (refused !== undefined) return refused
        const counting = isCrossSiteNavigation(plain) ? 'uncounted-anonymous' : 'counted'
        return toFetchResponse(await pipeline.respond(plain, matchOf(plain.path), undefined, counting), request.method, request.signal)
      } catch (error) {
        // msw would answer a throw with its own 500 {name, message, stack}: the API answers with its Error body.
        return toFetchResponse(errorResponse(error))
      }
    }
  const pattern = (path: string) => urlPattern(baseOrigin, `${basePath}${path}`)

  return [
    ...table.routes.flatMap((route) => {
      const respond = answer((path) => ({ kind: 'operation', route, params: table.paramsAtEnd(route, path) }))
      const handlers = [http[lowerCase(route.method)](pattern(route.definition.path), respond)]
      if (route.method === 'GET') handlers.push(http.head(pattern(route.definition.path), respond))
      return handlers
    }),
    // A preflight is answered as the server answers it (no key, not counted), not as a 405 of the API.
    // It offers the path's own methods, as the app's preflights do.
    ...table.paths.map(({ path, allow }) =>
      http.options(pattern(path), ({ request }) => {
        const plain = toPlainRequest(request, bodyLimit, transportOf(request))
        return refusedOrigin(plain) ?? toFetchResponse(preflightResponse(plain, `${allow}, OPTIONS`))
      }),
    ),
    ...table.paths.map(({ path, allow }) =>
      http.all(
        pattern(path),
        answer(() => ({ kind: 'wrong-method', allow })),
      ),
    ),
    ...(baseOrigin === undefined
      ? []
      : [
          http.all(
            urlPattern(baseOrigin, basePath, { subtree: true }),
            answer(() => unknownPath),
          ),
          // The rest of the API's origin, as the server answers it: a 404 outside the API, not counted.
          http.all(urlPattern(baseOrigin, '', { subtree: true }), ({ request }) =>
            toFetchResponse(
              errorResponse(
                new ApiError(
                  'route_not_found',
                  `No route ${request.method} ${new URL(request.url).pathname}: the API is under ${basePath || '/'}`,
                ),
              ),
            ),
          ),
        ]),
  ]
}

/** In-process, the request comes from the same process: no network, no client address. */
const inProcess: TransportFacts = Object.freeze({ local: true })

function lowerCase<Method extends string>(method: Method): Lowercase<Method> {
  return method.toLowerCase() as Lowercase<Method>
}
