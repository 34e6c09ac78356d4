import type { IncomingHttpHeaders } from 'node:http'
import { BlockList, isIP } from 'node:net'

/**
 * Names for ranges of addresses in a trust list, as Express's `trust proxy` has them: a proxy on this machine, on the
 * link, or on a private network (a compose or cluster network).
 */
const namedRanges: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
}

/**
 * The most hops of `X-Forwarded-For` or `Forwarded` read, from the right: a chain of proxies is a few hops long, and
 * a header of thousands of entries (each a client's own, passed on by the proxy) costs no more than this to read.
 */
export const maxForwardedHops = 32

/** Which peers are trusted to say who their client is. */
export interface ProxyTrust {
  trusts(address: string): boolean
}

/**
 * The trust list of `--trust-proxy` (`trustProxy` in `startServer`): addresses (`10.0.0.7`, `::1`), CIDR ranges
 * (`10.0.0.0/8`, `fd00::/8`) and the names `loopback`, `linklocal`, `uniquelocal`. Throws a `RangeError` naming an
 * entry that is none of these.
 */
export function createProxyTrust(entries: readonly string[]): ProxyTrust {
  // node:net's BlockList matches addresses and ranges of both families, an IPv4-mapped IPv6 address with its IPv4 ones.
  const list = new BlockList()
  for (const entry of entries) for (const range of namedRanges[entry.trim().toLowerCase()] ?? [entry]) addEntry(list, range.trim())
  return {
    trusts(address) {
      const plain = plainAddress(address)
      const family = isIP(plain)
      return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6')
    },
  }
}

function addEntry(list: BlockList, entry: string): void {
  const slash = entry.indexOf('/')
  const address = slash === -1 ? entry : entry.slice(0, slash)
  const family = isIP(address)
  const bits = slash === -1 ? undefined : entry.slice(slash + 1)
  const max = family === 4 ? 32 : 128
  if (family === 0 || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))) {
    throw new RangeError(
      `${JSON.stringify(entry)} is not a proxy address: give an IPv4 or IPv6 address, a CIDR range (10.0.0.0/8, fd00::/8), or loopback, linklocal, uniquelocal`,
    )
  }
  const type = family === 4 ? 'ipv4' : 'ipv6'
  if (bits === undefined) list.addAddress(address, type)
  else list.addSubnet(address, Number(bits), type)
}

/**
 * The client's address, as Express's `trust proxy` reads it: the peer's, unless the peer is trusted; then the hops
 * its forwarding header lists, from the right (the one the nearest proxy added), each taken while the one before it
 * is trusted. The first untrusted address is the client; a client's own entries, left of it, are never read, so an
 * untrusted client cannot choose its address. `X-Forwarded-For` is read, or, without it, RFC 7239 `Forwarded`'s
 * `for=` (a proxy that sets only `Forwarded` must drop the client's `X-Forwarded-For`). A hop that is no address
 * (`unknown`, an obfuscated `_name`, garbage) ends the walk at the proxy that sent it.
 */
export function forwardedClientAddress(peer: string | undefined, headers: IncomingHttpHeaders, trust: ProxyTrust): string | undefined {
  if (peer === undefined) return undefined
  let address = plainAddress(peer)
  if (!trust.trusts(address)) return address
  const hops = forwardedHops(headers)
  for (let index = hops.length - 1; index >= 0 && index >= hops.length - maxForwardedHops; index--) {
    const hop = hopAddress(hops[index]!)
    if (hop === undefined) return address
    address = hop
    if (!trust.trusts(address)) return address
  }
  return address
}

/** The hops of the forwarding header, left to right, as sent: `X-Forwarded-For`'s entries, else `Forwarded`'s `for=`. */
function forwardedHops(headers: IncomingHttpHeaders): string[] {
  const forwardedFor = headers['x-forwarded-for']
  if (forwardedFor !== undefined) return (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',')
  const forwarded = headers.forwarded
  if (forwarded === undefined) return []
  return forwarded.split(',').map((element) => {
    for (const pair of element.split(';')) {
      const equals = pair.indexOf('=')
      if (equals !== -1 && pair.slice(0, equals).trim().toLowerCase() === 'for') return pair.slice(equals + 1)
    }
    return ''
  })
}

/** One hop as an address (`1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`, `[2001:db8::1]:80`, quoted or not), or undefined. */
function hopAddress(hop: string): string | undefined {
  let text = hop.trim()
  if (text.length > 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1)
  if (text.startsWith('[')) {
    const end = text.indexOf(']')
    const rest = text.slice(end + 1)
    if (end === -1 || !(rest === '' || /^:\d{1,5}$/.test(rest))) return undefined
    text = text.slice(1, end)
    return isIP(text) === 6 ? plainAddress(text) : undefined
  }
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text)
  if (withPort !== null) text = withPort[1]!
  return isIP(text) === 0 ? undefined : plainAddress(text)
}

/** An address in one spelling per client: lower case, an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as its IPv4 one. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  return mapped === null ? address.toLowerCase() : mapped[1]!
}

/**
 * The client's address of each request of a listener: the socket's peer, or, with a trust list, the address its
 * trusted proxies forward ({@link forwardedClientAddress}). Without one (the default), no header is read.
 */
export function clientAddressReader(
  trustProxy: readonly string[] | undefined,
): (incoming: {
  readonly socket: { readonly remoteAddress?: string | undefined }
  readonly headers: IncomingHttpHeaders
}) => string | undefined {
  if (trustProxy === undefined || trustProxy.length === 0) return (incoming) => incoming.socket.remoteAddress
  const trust = createProxyTrust(trustProxy)
  return (incoming) => forwardedClientAddress(incoming.socket.remoteAddress, incoming.headers, trust)
}
