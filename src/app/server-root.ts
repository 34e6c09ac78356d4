import { ApiError } from '../core/http/api-error.ts'
import { errorResponse, type PlainRequest, type PlainResponse } from '../core/http/plain-http.ts'
import { controlPath } from './control/control-route.ts'

/** What the server serves besides the API, for the pointers at its root. */
export interface ServerParts {
  /** The API's base path (`/v1`). */
  readonly basePath: string
  readonly dashboard: boolean
  readonly openApi: boolean
  /** A sandbox's path (`/sandboxes/team-a`), before its own root, dashboard and document; '' for the default world. */
  readonly prefix?: string | undefined
}

/**
 * `GET /` (and `HEAD /`) when the API is under a base path: a person who opens the server's root in a browser, or a
 * client pointed at the server rather than the API, is told where things are. An API client gets the Error every
 * unknown path gets (404 `route_not_found`), its message naming the base path, the dashboard and the OpenAPI document,
 * and a `Link` to the document (`rel="service-desc"`, RFC 8631); a browser (`Accept: text/html` first) gets a small
 * page with the same links, answered 200 as a page is (docs/where-the-spec-is-silent.md).
 */
export function serverRootResponse(request: PlainRequest, parts: ServerParts): PlainResponse {
  // A sandbox's root names its own dashboard and document: the default world's would show another world's state.
  const prefix = parts.prefix ?? ''
  const pointers = [
    `the API is under ${parts.basePath} (GET ${parts.basePath}/pets with "Authorization: Bearer <key>")`,
    parts.dashboard ? `the dashboard is ${prefix}${controlPath}/` : undefined,
    parts.openApi ? `the OpenAPI document is ${prefix}/openapi.json` : undefined,
  ].filter((pointer) => pointer !== undefined)
  const link: Record<string, string> = parts.openApi
    ? { Link: `<${prefix}/openapi.json>; rel="service-desc"; type="application/json"` }
    : {}
  if (!prefersHtml(request.header('accept'))) {
    return errorResponse(new ApiError('route_not_found', `No route ${request.method} ${prefix}/: ${pointers.join('; ')}`), { ...link })
  }
  const base = escapeHtml(parts.basePath)
  const at = escapeHtml(prefix)
  const items = [
    `<li>The API: <a href="${base}/pets"><code>${base}</code></a>, with <code>Authorization: Bearer &lt;key&gt;</code></li>`,
    parts.dashboard ? `<li><a href="${at}${controlPath}/">The dashboard</a>: keys, limits, requests, clock and faults</li>` : '',
    parts.openApi ? `<li><a href="${at}/openapi.json">The OpenAPI document</a> (or <a href="${at}/openapi.yaml">YAML</a>)</li>` : '',
  ].join('')
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      ...link,
    },
    body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>petstore-sim</title><h1>petstore-sim</h1><ul>${items}</ul></html>\n`,
  }
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;')
}

/** Whether `Accept` asks for HTML before JSON, as a browser's navigation does (`text/html,application/xhtml+xml,…`). */
function prefersHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false
  const types = accept
    .split(',')
    .map((item) => item.split(';', 1)[0]!.trim().toLowerCase())
    .filter((type) => type !== '')
  const html = types.indexOf('text/html')
  const json = types.findIndex((type) => type === 'application/json' || type.endsWith('+json'))
  return html !== -1 && (json === -1 || html < json)
}
