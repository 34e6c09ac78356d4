import { http, type HttpHandler } from 'msw'
import { errorResponse, type TransportFacts } from '../core/http/plain-http.ts'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import { controlPath, createControlPlane, type ControlOptions } from '../app/control/control-plane.ts'
import { toFetchResponse, toPlainRequest } from '../app/fetch-lane.ts'
import { urlPattern } from './url-patterns.ts'

/**
 * The control endpoints (`/__sim/*`) as MSW handlers, one per endpoint and a
 * last one for unknown control paths, each a thin adapter over the control
 * plane the standalone server uses.
 *
 * @example
 * setupServer(...createControlHandlers(simulator), ...simulator.handlers)
 */
export function createControlHandlers(
  simulator: SimulatorCore,
  options: ControlOptions = {},
  lane: { readonly transportOf?: (request: Request) => TransportFacts } = {},
): HttpHandler[] {
  const control = createControlPlane(simulator, options)
  // In-process the request comes from the same process; a server's msw lane passes the client's facts.
  const transportOf = lane.transportOf ?? (() => ({ local: true }))
  const answer = async ({ request }: { request: Request }): Promise<Response> => {
    const plain = toPlainRequest(request, simulator.bodyLimit, transportOf(request))
    try {
      // The request's signal closes the dashboard's event stream when the page goes away.
      return toFetchResponse(await control.respond(plain), request.method, request.signal)
    } catch (error) {
      return toFetchResponse(errorResponse(error))
    }
  }
  return [
    ...control.routes.map((route) =>
      http[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](urlPattern(undefined, `${controlPath}${route.path}`), answer),
    ),
    http.all(urlPattern(undefined, controlPath, { subtree: true }), answer),
  ]
}
