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
 * API prefix and needing no key. The document is loaded on first request.
 */
export function createDocumentHandlers(load: () => OpenApiDocumentSource): HttpHandler[] {
  let source: OpenApiDocumentSource | undefined
  const get = () => (source ??= load())
  return [
    http.get('*/openapi.json', () => new Response(JSON.stringify(get().document), { headers: { 'Content-Type': 'application/json' } })),
    http.get('*/openapi.yaml', () => new Response(get().yaml, { headers: { 'Content-Type': 'application/yaml; charset=utf-8' } })),
  ]
}
