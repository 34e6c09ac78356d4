import { http, type HttpHandler } from 'msw'
import { errorResponse } from '../core/http/plain-http.ts'
import { defaults } from '../core/defaults.ts'
import { resolveBaseUrl } from '../core/simulator/simulator-core.ts'
import { toFetchResponse } from '../app/fetch-lane.ts'
import { urlPattern } from './url-patterns.ts'
import { createOpenApiRoute, documentApiUrl, openApiPaths, type OpenApiDocumentSource } from '../app/openapi-route.ts'

/**
 * `GET /openapi.json`, `/openapi.yaml` and their 3.0 forms as MSW handlers,
 * over the same route the server uses. `baseUrl` is the simulator's (the
 * same option, default `/v1`): the document's first server is that URL, or,
 * for a path, the origin the document was requested at with that path.
 *
 * @example
 * const simulator = createSimulator({ baseUrl: 'https://api.example.com/v1' })
 * setupServer(...simulator.handlers, ...createDocumentHandlers(readOpenApiDocument, { baseUrl: 'https://api.example.com/v1' }))
 */
export function createDocumentHandlers(
  load: () => OpenApiDocumentSource | Promise<OpenApiDocumentSource>,
  options: { baseUrl?: string } = {},
): HttpHandler[] {
  const route = createOpenApiRoute(load)
  const { basePath, origin } = resolveBaseUrl(options.baseUrl ?? defaults.basePath)
  return Object.values(openApiPaths).map((path) =>
    http.get(urlPattern(undefined, path), async ({ request }) => {
      try {
        const url = new URL(origin ?? request.url)
        return toFetchResponse(await route.respond(request.method, path, documentApiUrl(url.protocol.slice(0, -1), url.host, basePath)))
      } catch (error) {
        return toFetchResponse(errorResponse(error))
      }
    }),
  )
}
