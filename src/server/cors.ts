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

const allowedMethods = 'GET, POST, OPTIONS'
const allowedHeaders = 'Authorization, Content-Type'

/**
 * The answer to a CORS preflight (any `OPTIONS` request): 204, the calling
 * origin allowed, with the methods and the `Authorization` and `Content-Type`
 * headers. Preflights need no key and never reach the rate limiter.
 */
export function preflightResponse(request: Request): Response {
  const headers = new Headers({
    Allow: allowedMethods,
    'Access-Control-Allow-Methods': allowedMethods,
    'Access-Control-Allow-Headers': allowedHeaders,
    'Access-Control-Max-Age': '600',
    Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  })
  const origin = request.headers.get('origin')
  if (origin !== null) headers.set('Access-Control-Allow-Origin', origin)
  return new Response(null, { status: 204, headers })
}

/** Lets the calling origin read the response and the rate-limit, deprecation and retry headers. */
export function applyCorsHeaders(request: Request, response: Response): void {
  const origin = request.headers.get('origin')
  if (origin === null) return
  response.headers.set('Access-Control-Allow-Origin', origin)
  response.headers.set('Access-Control-Expose-Headers', exposedHeaders)
  response.headers.append('Vary', 'Origin')
}
