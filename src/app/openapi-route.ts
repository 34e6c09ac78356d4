import { ApiError } from '../core/pipeline/api-error.ts'
import type { PlainResponse } from '../core/pipeline/plain-http.ts'

/** The OpenAPI document in both forms it is served in. */
export interface OpenApiDocumentSource {
  /** The YAML text, as written in `fixtures/openapi.yaml`. */
  readonly yaml: string
  /** The same document, parsed. */
  readonly document: unknown
}

/** Where the document is served, at the server root, outside the API prefix. */
export const openApiPaths = { json: '/openapi.json', yaml: '/openapi.yaml' } as const

export interface OpenApiRoute {
  /** Whether the path is one of {@link openApiPaths}. */
  owns(path: string): boolean
  respond(method: string, path: string): Promise<PlainResponse>
}

/**
 * `GET /openapi.json` and `GET /openapi.yaml`, needing no key. The document is
 * loaded on first request (and serialised once), so a server that is never
 * asked for it never pays for reading it.
 */
export function createOpenApiRoute(load: () => OpenApiDocumentSource | Promise<OpenApiDocumentSource>): OpenApiRoute {
  let loaded: Promise<{ yaml: string; json: string }> | undefined
  const get = () => (loaded ??= Promise.resolve(load()).then((source) => ({ yaml: source.yaml, json: JSON.stringify(source.document) })))
  return {
    owns: (path) => path === openApiPaths.json || path === openApiPaths.yaml,
    async respond(method, path) {
      if (method !== 'GET' && method !== 'HEAD')
        throw new ApiError('method_not_allowed', `${method} is not supported here; use GET or HEAD`, { Allow: 'GET, HEAD' })
      const { yaml, json } = await get()
      return path === openApiPaths.json
        ? { status: 200, headers: { 'Content-Type': 'application/json' }, body: json }
        : { status: 200, headers: { 'Content-Type': 'application/yaml; charset=utf-8' }, body: yaml }
    },
  }
}
