import { ApiError } from '../http/api-error.ts'

/** The `allowedHosts` entry (`--allowed-host '*'`) that accepts every `Host`: DNS rebinding is then possible again. */
export const anyHost = '*'

/**
 * Which names a request may carry in `Host` (DNS rebinding: a foreign name made to resolve to 127.0.0.1 lets any web
 * page read the simulator as its own origin). Loopback names always (`localhost`, `*.localhost`, `127.x.y.z`,
 * `[::1]`, in any spelling the URL parser reads as one of them: `localhost.`, `127.1`, `[::ffff:127.0.0.1]`); never a
 * name with an empty label (`a..localhost`); besides them the names given, each exact or, written `.example.test`, that domain and its subdomains (as
 * Vite's `server.allowedHosts`, after CVE-2025-24010); `*` for any. A request without `Host` is no browser's (every
 * browser sends one) and is let through.
 *
 * @example
 * createHostPolicy(['sim.test']).allows('sim.test:4010') // true
 * createHostPolicy([]).allows('evil.example') // false
 */
export interface HostPolicy {
  allows(authority: string | undefined): boolean
  /** Whether every name is accepted (`*` among the names). */
  readonly any: boolean
}

export function createHostPolicy(names: readonly string[] = []): HostPolicy {
  const lowered = names.map((name) => name.trim().toLowerCase())
  if (lowered.includes(anyHost)) return { allows: () => true, any: true }
  const exact = new Set(lowered.filter((name) => !name.startsWith('.')))
  const domains = lowered.filter((name) => name.startsWith('.'))
  return {
    any: false,
    allows(authority) {
      if (authority === undefined) return true
      const sent = hostName(authority)
      if (sent === undefined) return false
      // The names every local client sends, as they are: no parsing on the path every request takes.
      if (sent === 'localhost' || sent === '127.0.0.1' || sent === '[::1]') return true
      const host = canonicalHostName(sent)
      if (host === undefined) return false
      return isLoopbackHostName(host) || exact.has(host) || domains.some((domain) => host.endsWith(domain) || host === domain.slice(1))
    },
  }
}

/**
 * A canonical host name ({@link canonicalHostName}) that is loopback: `localhost` and its subdomains (RFC 6761),
 * 127.0.0.0/8, `[::1]`, and 127.0.0.0/8 mapped into IPv6 (`[::ffff:7f00:1]`, which `[::ffff:127.0.0.1]` is).
 */
export function isLoopbackHostName(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    /^\[::ffff:7f[\da-f]{2}:[\da-f]{1,4}\]$/.test(host)
  )
}

/**
 * A host name as the WHATWG URL parser reads it, which is what browsers send for it: IPv4 in any spelling as dotted
 * decimal (`127.1`, `2130706433` are `127.0.0.1`), IPv6 compressed (`[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`), lower
 * case, and a name without its final dot (`localhost.` is `localhost`, fully qualified). Undefined for a spelling that
 * names nothing: an empty label (`a..localhost`, `.localhost`, which the URL parser keeps), an IPv4 address out of
 * range (`127.999.0.1`).
 */
export function canonicalHostName(host: string): string | undefined {
  let parsed: string
  try {
    parsed = new URL(`http://${host}/`).hostname
  } catch {
    return undefined
  }
  const name = parsed.endsWith('.') ? parsed.slice(0, -1) : parsed
  if (!name.startsWith('[') && name.split('.').includes('')) return undefined
  return name
}

/** The host name of a `Host` value, lower case, without its port; undefined for what is not one (`evil/`, `a@b`). */
export function hostName(authority: string | undefined): string | undefined {
  if (authority === undefined) return undefined
  const match = /^(\[[\da-fA-F:.]+\]|[^:[\]/@\s]+)(?::\d{1,5})?$/.exec(authority.trim())
  return match?.[1]?.toLowerCase()
}

/** Whether a listening address is loopback (where the `Host` check applies by default): 127.x.y.z, ::1, localhost. */
export function isLoopbackBindAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return bare === 'localhost' || bare === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)
}

/** The 403 for a `Host` that is not allowed, naming the flag and the option that allow it. */
export function hostNotAllowed(authority: string): ApiError {
  const shown = JSON.stringify(authority.slice(0, 200))
  const name = hostName(authority) ?? authority.slice(0, 200)
  return new ApiError(
    'host_not_allowed',
    `The Host ${shown} is not one this simulator answers (loopback names only, by default: DNS rebinding): allow it with --allowed-host ${name}, PETSTORE_SIM_ALLOWED_HOST or the allowedHosts option`,
  )
}
