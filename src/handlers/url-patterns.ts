/**
 * The URL patterns the MSW handlers match, as regular expressions over what
 * msw matches them against: the request URL's origin and path, without
 * query or fragment (msw 2 and 3 alike). A string pattern such as
 * `*\/v1/pets` would match any path that merely ends that way
 * (`/foo/bar/v1/pets`, `//evil.com/v1/pets`), so a client with a wrong base
 * URL would pass its contract tests; these match the base path exactly.
 */
export function urlPattern(origin: string | undefined, path: string, options: { subtree?: boolean } = {}): RegExp {
  const originPart = origin === undefined ? anyOrigin : escapeRegExp(origin)
  const pathPart = path
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : escapeRegExp(part)))
    .join('')
  // One trailing slash is the same path, as the route table reads it.
  return new RegExp(`^${originPart}${pathPart}${options.subtree === true ? '(?:/.*)?' : '/?'}$`)
}

/** A scheme and an authority, any of them. */
const anyOrigin = '[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]+'

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
