/**
 * Resolves a request path the way the WHATWG URL parser does (dot segments,
 * `%2e`, backslashes, characters it percent-encodes), so that the direct Node
 * lane, which gets the raw request target, sees the same path as the Fetch
 * lanes, which get `new URL(...).pathname`. A path made only of the
 * characters the parser keeps as they are, with no dot segment, is returned
 * unchanged without parsing (the common case, and the fast one).
 *
 * @example
 * normalizePath('/v1/./pets') // '/v1/pets'
 * normalizePath('/v1//pets') // '/v1//pets' (empty segments are kept, as by the URL parser)
 */
export function normalizePath(path: string): string {
  if (!path.startsWith('/')) return path
  if (!needsParsing.test(path)) return path
  return new URL(path, 'http://petstore-sim.invalid').pathname
}

/** Any character outside what the URL parser leaves alone in a path, or a segment that is `.`/`..` in any spelling. */
const needsParsing = /[^\w\-.~!$&'()*+,;=:@/%]|(?:^|\/)(?:\.|%2e)(?:\.|%2e)?(?:\/|$)/i
