import { http, type HttpHandler } from 'msw'
import { errorResponse } from '../core/pipeline/plain-http.ts'
import { toFetchResponse } from '../app/fetch-lane.ts'
import { urlPattern } from './url-patterns.ts'
import { createOpenApiRoute, openApiPaths, type OpenApiDocumentSource } from '../app/openapi-route.ts'

/** `GET /openapi.json` and `GET /openapi.yaml` as MSW handlers, over the same route the server uses. */
export function createDocumentHandlers(load: () => OpenApiDocumentSource | Promise<OpenApiDocumentSource>): HttpHandler[] {
  const route = createOpenApiRoute(load)
  return Object.values(openApiPaths).map((path) =>
    http.get(urlPattern(undefined, path), async ({ request }) => {
      try {
        return toFetchResponse(await route.respond(request.method, path))
      } catch (error) {
        return toFetchResponse(errorResponse(error))
      }
    }),
  )
}
