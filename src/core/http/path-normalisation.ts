/**
 * Resolves a request path the way the WHATWG URL parser does (backslashes,
 * characters it percent-encodes), so that the direct Node lane, which gets
 * the raw request target, sees the same path as the Fetch lanes, which get
 * `new URL(...).pathname`. A path made only of the characters the parser
 * keeps as they are is returned unchanged without parsing (the common case,
 * and the fast one). A path with a dot segment is returned as it is, for the
 * app to refuse ({@link hasDotSegment}).
 *
 * @example
 * normalizePath('/v1//pets') // '/v1//pets' (empty segments are kept, as by the URL parser)
 * normalizePath('/v1/pets\\1') // '/v1/pets/1'
 */
export function normalizePath(path: string): string {
  if (!path.startsWith('/') || !needsParsing.test(path) || hasDotSegment(path)) return path
  // Appended to an origin, as the Fetch lanes build their URL (origin + target), not resolved against a base URL:
  // resolved, a target starting `//` would make its first segment the URL's host (`//evil.example/v1\\pets` read as
  // /v1/pets on evil.example).
  return new URL(`http://petstore-sim.invalid${path}`).pathname
}

/**
 * Whether a raw path has a `.` or `..` segment, in any spelling the URL
 * parser resolves (`%2e`, `%2E`, with `/` or `\` around it). The simulator
 * refuses such paths (400) rather than resolving them: resolved, `/v1/../__sim/reset`
 * is a control endpoint, so a proxy that forwards only `/v1/*` could not fence
 * the control plane off. Fetch clients and browsers resolve dot segments
 * before sending, so only hand-made requests carry them.
 */
export function hasDotSegment(path: string): boolean {
  return dotSegment.test(path)
}

/** Any character outside what the URL parser leaves alone in a path. */
const needsParsing = /[^\w\-.~!$&'()*+,;=:@/%]/
const dotSegment = /(?:^|[/\\])(?:\.|%2e){1,2}(?:[/\\]|$)/i

/**
 * A path segment, percent-decoded; a malformed escape is kept as sent (the resolver then refuses it as it would any
 * bad value, and a control path names no route: 404, not 500). The API's route table and the control plane's
 * matcher both read path parameters with it.
 */
export function decodePathSegment(segment: string): string {
  if (!segment.includes('%')) return segment
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
