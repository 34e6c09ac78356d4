import { ApiError } from '../http/api-error.ts'
import { canonicalHostName, isLoopbackHostName } from './host-policy.ts'

/** The value of `corsOrigins` that allows pages of every origin. */
export const anyOrigin = '*'

/**
 * Which web pages may call the simulator across the network: a request whose
 * `Origin` the policy does not allow is refused before it reaches the API
 * (403 `origin_not_allowed`, no CORS grant, nothing counted), and its
 * preflight grants nothing, so the browser never sends the real request.
 *
 * By default only pages served from the developer's own machine are allowed
 * (`http(s)://localhost`, `*.localhost`, `127.x.y.z`, `[::1]`, any port): any
 * web page the developer visits could otherwise drive a simulator on
 * loopback (a foreign page got `demo-pro-key` banned in 311 requests, and
 * created pets without bound). Vite restricted its dev server's CORS to such
 * origins by default after CVE-2025-24010 for the same reason.
 *
 * @example
 * createOriginPolicy(undefined).allows('http://localhost:5173') // true
 * createOriginPolicy(['https://app.example.com']).allows('https://app.example.com') // true
 * createOriginPolicy(['*']).allows('https://anything.example') // true
 */
export interface OriginPolicy {
  allows(origin: string): boolean
  /** The allowed origins as given (normalised), empty for the default; `['*']` for any. */
  readonly origins: readonly string[]
}

export function createOriginPolicy(origins: readonly string[] | undefined = []): OriginPolicy {
  const named = origins.map(normaliseOrigin)
  if (named.includes(anyOrigin)) return { allows: () => true, origins: [anyOrigin] }
  const allowed = new Set(named)
  return {
    allows: (origin) => allowed.has(origin.toLowerCase()) || isLoopbackOrigin(origin),
    origins: named,
  }
}

/**
 * An origin as browsers send it (`https://app.example.com:8443`, lower case, no path, no trailing slash), or `*`.
 * A `RangeError` for anything else, naming it: a path or a typo would otherwise allow nothing, silently.
 */
export function normaliseOrigin(origin: string): string {
  const text = origin.trim()
  if (text === anyOrigin) return anyOrigin
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    // Reported below.
  }
  if (
    url === undefined ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    text.replace(/\/$/, '').toLowerCase() !== url.origin
  ) {
    throw new RangeError(`Not an origin: ${JSON.stringify(origin)} (expected e.g. http://app.test:5173, without a path, or * for any)`)
  }
  return url.origin
}

/**
 * A page served from this machine: http(s) on a loopback host name, as the `Host` check reads one (`host-policy.ts`:
 * `localhost`, its subdomains, 127.0.0.0/8, `[::1]`, in any spelling the URL parser reads as one of them).
 */
function isLoopbackOrigin(origin: string): boolean {
  const match = /^https?:\/\/(\[[\da-f:.]+\]|[^/:[\]]+)(?::\d{1,5})?$/i.exec(origin)
  if (match === null) return false
  const host = canonicalHostName(match[1]!)
  return host !== undefined && isLoopbackHostName(host)
}

/** The 403 for a page whose origin is not allowed, naming the flag and the option that allow it. */
export function originNotAllowed(origin: string): ApiError {
  const shown = JSON.stringify(origin.slice(0, 200))
  return new ApiError(
    'origin_not_allowed',
    `Pages on ${shown} may not call this simulator (only pages of this machine may, by default): allow it with --cors-origin ${origin.slice(0, 200)}, PETSTORE_SIM_CORS_ORIGIN or the corsOrigins option`,
  )
}
