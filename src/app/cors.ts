import type { PlainRequest, PlainResponse } from '../core/http/plain-http.ts'

/**
 * Every response header of the API a browser app may read across origins:
 * all the API sends besides the CORS-safelisted ones (rate limits, retry,
 * deprecation, `Location`, `Allow`, `WWW-Authenticate`, `Accept-Encoding`,
 * `Preference-Applied`, and `Petstore-Sim-Fault`, which marks a simulated fault).
 */
export const exposedHeaders = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  'Location',
  'WWW-Authenticate',
  'Allow',
  'Accept-Encoding',
  'Preference-Applied',
  'Petstore-Sim-Fault',
].join(', ')

/** What a preflight allows when the page names no headers: the ones the API reads. */
const defaultAllowedHeaders = 'Authorization, Content-Type, Prefer'

/** How long a browser may cache a preflight's answer: 10 minutes (Chromium caps it at 2 hours). */
const preflightMaxAgeSeconds = '600'

/**
 * The answer to a CORS preflight (any `OPTIONS` outside the control plane):
 * 204, the calling origin allowed with credentials, the methods the app
 * serves, and every request header the page asks for (echoed from
 * `Access-Control-Request-Headers`: the tracing headers real apps add,
 * `traceparent`, `sentry-trace`, `baggage`, `X-Request-Id`…, as Prism does).
 * Preflights need no key and never reach the rate limiter.
 *
 * @param allowedMethods e.g. `GET, HEAD, POST, OPTIONS`, derived from the route tables.
 */
export function preflightResponse(request: PlainRequest, allowedMethods: string): PlainResponse {
  const headers: Record<string, string> = {
    Allow: allowedMethods,
    'Access-Control-Allow-Methods': allowedMethods,
    'Access-Control-Allow-Headers': request.header('access-control-request-headers') ?? defaultAllowedHeaders,
    'Access-Control-Max-Age': preflightMaxAgeSeconds,
    Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  }
  const origin = request.header('origin')
  if (origin !== undefined) {
    headers['Access-Control-Allow-Origin'] = origin
    headers['Access-Control-Allow-Credentials'] = 'true'
  }
  return { status: 204, headers, body: undefined }
}

/**
 * The headers that let the calling origin read a response, with credentials
 * (cookies, `credentials: 'include'`), and every header the API sends; none
 * for a request without `Origin`. The origin is echoed, never `*`, which
 * credentials forbid; `Vary: Origin` keeps caches from mixing origins.
 * `vary` is the response's own `Vary`, if any.
 */
export function corsHeaders(origin: string | undefined, vary: string | undefined): Record<string, string> | undefined {
  if (origin === undefined) return undefined
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': exposedHeaders,
    Vary: vary === undefined ? 'Origin' : withOrigin(vary),
  }
}

/** A `Vary` value with `Origin` in it once: a preflight's own `Vary` already names it. */
function withOrigin(vary: string): string {
  return vary.split(',').some((name) => name.trim().toLowerCase() === 'origin') ? vary : `${vary}, Origin`
}

/** Adds {@link corsHeaders} to a plain response. */
export function applyCors(request: PlainRequest, response: PlainResponse): PlainResponse {
  // An API answer has its grant already (the app hands it to the pipeline, whose header object is then frozen).
  if (Object.isFrozen(response.headers)) return response
  const headers = corsHeaders(request.header('origin'), response.headers.Vary)
  if (headers !== undefined) Object.assign(response.headers, headers)
  return response
}

/**
 * Responses that must reach the browser without a CORS grant: the refusals of pages whose origin is not allowed,
 * answered by the MSW handlers behind a server (`--engine msw`), which the server's msw lane decorates with
 * {@link applyCorsToFetchResponse} like any other answer. Weakly held: a response is forgotten with it.
 */
const ungranted = new WeakSet<Response>()

/** Marks a response as one {@link applyCorsToFetchResponse} leaves without a CORS grant. */
export function withoutCorsGrant(response: Response): Response {
  ungranted.add(response)
  return response
}

/**
 * Adds {@link corsHeaders} to a Fetch `Response` answered outside the app
 * (the MSW lane, the user's own handlers), so it reaches a page like the
 * app's own answers. A response whose headers cannot be changed is copied.
 */
export function applyCorsToFetchResponse(request: Request, response: Response): Response {
  const headers = corsHeaders(request.headers.get('origin') ?? undefined, response.headers.get('vary') ?? undefined)
  if (headers === undefined || ungranted.has(response)) return response
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
    return response
  } catch {
    const copy = new Response(response.body, response)
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value)
    return copy
  }
}
