import { http, type HttpHandler } from 'msw'
import type { PlainResponse, TransportFacts } from '../core/plain-http.ts'
import type { RouteMatch } from '../core/route-table.ts'
import type { SimulatorCore } from '../core/simulator-core.ts'
import { toFetchResponse, toPlainRequest } from '../app/fetch-lane.ts'

export interface ApiHandlerOptions {
  /**
   * What the transport knows of a request's client (its address), for lanes
   * that run these handlers behind a server. In-process there is none.
   */
  readonly transportOf?: (request: Request) => TransportFacts
}

/**
 * The MSW handlers of the Animal Store API, derived from the route table:
 * one per operation (so `server.use(http.get('*\/v1/pets', …))` overrides
 * exactly that operation), then 405 for other methods on known paths, then
 * 404 for any other path under the prefix. Each is a thin adapter: the Fetch
 * `Request` becomes a plain request, the simulator's pipeline answers it,
 * and its answer becomes a `Response`.
 */
export function createApiHandlers(simulator: SimulatorCore, options: ApiHandlerOptions = {}): HttpHandler[] {
  const { pipeline, bodyLimit } = simulator
  const { table } = pipeline
  const prefix = `${simulator.baseOrigin ?? '*'}${simulator.basePath}`
  const transportOf = options.transportOf ?? (() => ({}))
  const unknownPath: RouteMatch = { kind: 'unknown-path' }

  const answer =
    (matchOf: (path: string) => RouteMatch) =>
    async ({ request }: { request: Request }): Promise<Response> => {
      const plain = toPlainRequest(request, bodyLimit, transportOf(request))
      const response: PlainResponse = await pipeline.respond(plain, matchOf(plain.path))
      return toFetchResponse(response)
    }

  return [
    ...table.routes.map((route) =>
      http[lowerCase(route.method)](
        `${prefix}${route.definition.path.replace(/\{(\w+)\}/g, ':$1')}`,
        answer((path) => ({ kind: 'operation', route, params: table.paramsAtEnd(route, path) })),
      ),
    ),
    ...table.paths.map(({ path, allow }) =>
      http.all(`${prefix}${path.replace(/\{(\w+)\}/g, ':$1')}`, answer(() => ({ kind: 'wrong-method', allow }))),
    ),
    http.all(prefix, answer(() => unknownPath)),
    http.all(`${prefix}/*`, answer(() => unknownPath)),
  ]
}

function lowerCase<Method extends string>(method: Method): Lowercase<Method> {
  return method.toLowerCase() as Lowercase<Method>
}
