import { ApiError } from '../core/http/api-error.ts'
import type { PlainResponse } from '../core/http/plain-http.ts'
import { type OpenApiVersion, type RenderedDocument, renderDocument } from './openapi-rendering.ts'

/** The OpenAPI document in both forms it is served in. */
export interface OpenApiDocumentSource {
  /** The YAML text, as written in `fixtures/openapi.yaml`. */
  readonly yaml: string
  /** The same document, parsed. */
  readonly document: unknown
}

/**
 * Where the document is served, at the server root, outside the API prefix:
 * as written (OpenAPI 3.1), and labelled 3.0 for tools that stop at 3.0.
 */
export const openApiPaths = {
  json: '/openapi.json',
  yaml: '/openapi.yaml',
  json30: '/openapi-3.0.json',
  yaml30: '/openapi-3.0.yaml',
} as const

const served: Readonly<Record<string, { version: OpenApiVersion; form: keyof RenderedDocument }>> = {
  [openApiPaths.json]: { version: '3.1', form: 'json' },
  [openApiPaths.yaml]: { version: '3.1', form: 'yaml' },
  [openApiPaths.json30]: { version: '3.0', form: 'json' },
  [openApiPaths.yaml30]: { version: '3.0', form: 'yaml' },
}

const contentTypes: Readonly<Record<keyof RenderedDocument, string>> = {
  json: 'application/json',
  yaml: 'application/yaml; charset=utf-8',
}

export interface OpenApiRoute {
  /** Whether the path is one of {@link openApiPaths}. */
  owns(path: string): boolean
  /**
   * The document at `path`, its first server `apiUrl`: the origin and base
   * path it was asked for at (`http://127.0.0.1:4010/v1`), or the base path
   * alone (relative to the document, as OpenAPI allows) when the origin is unknown.
   */
  respond(method: string, path: string, apiUrl: string): Promise<PlainResponse>
}

/**
 * `GET /openapi.json`, `/openapi.yaml` and their 3.0 forms, needing no key.
 * The document is loaded on first request, so a server that is never asked
 * for it never pays for reading it; each rendering is kept per API URL (a
 * server is reached at a few names at most, so the cache is small).
 */
export function createOpenApiRoute(load: () => OpenApiDocumentSource | Promise<OpenApiDocumentSource>): OpenApiRoute {
  let loaded: Promise<OpenApiDocumentSource> | undefined
  const rendered = new Map<string, RenderedDocument>()
  const maxRenderings = 64
  return {
    owns: (path) => Object.hasOwn(served, path),
    async respond(method, path, apiUrl) {
      if (method !== 'GET' && method !== 'HEAD')
        throw new ApiError('method_not_allowed', `${method} is not supported here; use GET or HEAD`, { Allow: 'GET, HEAD' })
      const { version, form } = served[path]!
      loaded ??= Promise.resolve(load())
      const source = await loaded
      const key = `${version} ${apiUrl}`
      let document = rendered.get(key)
      if (document === undefined) {
        document = renderDocument(source.yaml, source.document, apiUrl, version)
        // Host headers are the client's to choose: the cache stays bounded whatever they send.
        if (rendered.size >= maxRenderings) rendered.clear()
        rendered.set(key, document)
      }
      return { status: 200, headers: { 'Content-Type': contentTypes[form] }, body: document[form] }
    },
  }
}

/** The API URL a document names for a request: its scheme and authority, then the base path. */
export function documentApiUrl(scheme: string, authority: string | undefined, basePath: string): string {
  // A Host header that is not a host name or address and a port (the client's to send) is not put in a URL.
  const usable = authority !== undefined && /^(\[[\da-fA-F:.]+\]|[\w.-]+)(:\d{1,5})?$/.test(authority)
  return usable && /^https?$/.test(scheme) ? `${scheme}://${authority.toLowerCase()}${basePath}` : basePath || '/'
}
