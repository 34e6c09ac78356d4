import { http, type HttpHandler } from 'msw'

/** The OpenAPI document in both forms it is served in. */
export interface OpenApiDocumentSource {
  /** The YAML text, as written in `fixtures/openapi.yaml`. */
  readonly yaml: string
  /** The same document, parsed. */
  readonly document: unknown
}

/**
 * `GET /openapi.json` and `GET /openapi.yaml` at the server root, outside the
 * API prefix and needing no key. The document is loaded on first request, so
 * a server that is never asked for it never pays for reading it.
 */
export function createDocumentHandlers(load: () => OpenApiDocumentSource | Promise<OpenApiDocumentSource>): HttpHandler[] {
  let source: Promise<OpenApiDocumentSource> | undefined
  const get = () => (source ??= Promise.resolve(load()))
  return [
    http.get('*/openapi.json', async () => new Response(JSON.stringify((await get()).document), { headers: { 'Content-Type': 'application/json' } })),
    http.get('*/openapi.yaml', async () => new Response((await get()).yaml, { headers: { 'Content-Type': 'application/yaml; charset=utf-8' } })),
  ]
}
