import type { PlainRequest, PlainResponse } from '../core/plain-http.ts'

/** Response headers a browser app may read across origins. */
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
].join(', ')

const allowedHeaders = 'Authorization, Content-Type'

/**
 * The answer to a CORS preflight (any `OPTIONS` request): 204, the calling
 * origin allowed, with the methods the app serves and the `Authorization`
 * and `Content-Type` headers. Preflights need no key and never reach the
 * rate limiter.
 *
 * @param allowedMethods e.g. `GET, POST, OPTIONS`, derived from the route tables.
 */
export function preflightResponse(request: PlainRequest, allowedMethods: string): PlainResponse {
  const headers: Record<string, string> = {
    Allow: allowedMethods,
    'Access-Control-Allow-Methods': allowedMethods,
    'Access-Control-Allow-Headers': allowedHeaders,
    'Access-Control-Max-Age': '600',
    Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  }
  const origin = request.header('origin')
  if (origin !== undefined) headers['Access-Control-Allow-Origin'] = origin
  return { status: 204, headers, body: undefined }
}

/**
 * The headers that let the calling origin read a response and its
 * rate-limit, deprecation and retry headers; none for a request without
 * `Origin`. `vary` is the response's own `Vary`, if any.
 */
export function corsHeaders(origin: string | undefined, vary: string | undefined): Record<string, string> | undefined {
  if (origin === undefined) return undefined
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': exposedHeaders,
    Vary: vary === undefined ? 'Origin' : `${vary}, Origin`,
  }
}

/** Adds {@link corsHeaders} to a plain response. */
export function applyCors(request: PlainRequest, response: PlainResponse): PlainResponse {
  const headers = corsHeaders(request.header('origin'), response.headers.Vary)
  if (headers !== undefined) Object.assign(response.headers, headers)
  return response
}

/**
 * Adds {@link corsHeaders} to a Fetch `Response` answered outside the app
 * (the MSW lane, the user's own handlers), so it reaches a page like the
 * app's own answers. A response whose headers cannot be changed is copied.
 */
export function applyCorsToFetchResponse(request: Request, response: Response): Response {
  const headers = corsHeaders(request.headers.get('origin') ?? undefined, response.headers.get('vary') ?? undefined)
  if (headers === undefined) return response
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
    return response
  } catch {
    const copy = new Response(response.body, response)
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value)
    return copy
  }
}
