// Issue 45, Medium 8: behind the documented balancer every keyless client shared one anonymous bucket (the
// balancer's address), so client B's first keyless request was 429 api_key_banned after client A's 75 (directly:
// 401). `trustProxy` (`--trust-proxy`) reads the address a trusted proxy forwards, as Express's `trust proxy` does;
// from any other peer the forwarding headers are ignored, so a client cannot choose its own bucket.
import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, createRequestListener, startServer, type RunningServer } from '../../src/node.ts'
import { createProxyTrust, forwardedClientAddress, maxForwardedHops } from '../../src/node/forwarded-address.ts'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(trustProxy: readonly string[] | undefined, host = '127.0.0.1') {
  const app = createNodeApp({ seed: 1, pets: 3 })
  const server = await startServer({ app, port: 0, host, log: 'silent', ...(trustProxy === undefined ? {} : { trustProxy }) })
  servers.push(server)
  return { app, origin: server.url.replace(/\/$/, '') }
}

/** Keyless requests from one client, as the proxy forwards them; the statuses seen. */
async function keyless(origin: string, headers: Record<string, string>, count: number): Promise<number[]> {
  const statuses: number[] = []
  for (let index = 0; index < count; index++) {
    const response = await fetch(`${origin}/v1/pets`, { headers })
    await response.arrayBuffer()
    statuses.push(response.status)
  }
  return statuses
}

const clientA = { 'x-forwarded-for': '203.0.113.10' }
const clientB = { 'x-forwarded-for': '203.0.113.20' }

describe('trustProxy: the client address behind a trusted proxy', () => {
  it('gives two clients behind a trusted proxy two anonymous buckets', async () => {
    const { app, origin } = await start(['127.0.0.1'])
    const a = await keyless(origin, clientA, 76)
    // Client A's anonymous bucket is spent: 429s, then banned.
    expect(a.at(-1)).toBe(429)
    // Client B is a caller of its own: its first keyless request is the spec's 401.
    expect(await keyless(origin, clientB, 1)).toEqual([401])
    expect(app.simulator.state().anonymous.buckets).toBe(2)
  })

  it('reads RFC 7239 Forwarded for= when there is no X-Forwarded-For, IPv6 included', async () => {
    const { app, origin } = await start(['loopback'])
    expect((await keyless(origin, { forwarded: 'for=198.51.100.7;proto=http' }, 76)).at(-1)).toBe(429)
    expect(await keyless(origin, { forwarded: 'for="[2001:db8::7]:4711"' }, 1)).toEqual([401])
    expect(await keyless(origin, { 'x-forwarded-for': '2001:db8::8' }, 1)).toEqual([401])
    expect(app.simulator.state().anonymous.buckets).toBe(3)
  })

  it.each([
    ['off (the default)', undefined],
    ['trusting another proxy', ['10.0.0.0/8', 'fd00::/8']],
  ])('ignores forwarding headers from a peer it does not trust: %s', async (_what, trustProxy) => {
    const { app, origin } = await start(trustProxy)
    expect((await keyless(origin, clientA, 76)).at(-1)).toBe(429)
    // A spoofed header changes nothing: B is the same peer, and its bucket is A's, banned.
    expect(await keyless(origin, clientB, 1)).toEqual([429])
    expect(await keyless(origin, { forwarded: 'for=203.0.113.30' }, 1)).toEqual([429])
    expect(app.simulator.state().anonymous.buckets).toBe(1)
  })

  it("checks the control plane's loopback rule on the forwarded address", async () => {
    const { origin } = await start(['loopback'])
    expect((await fetch(`${origin}/__sim/state`)).status).toBe(200)
    const forwarded = await fetch(`${origin}/__sim/state`, { headers: { 'x-forwarded-for': '203.0.113.10' } })
    expect(forwarded.status).toBe(403)
    expect(((await forwarded.json()) as { code: string }).code).toBe('control_forbidden')
  })

  it('serves a trusted proxy on IPv6 loopback', async () => {
    const { app, origin } = await start(['::1'], '::1')
    expect((await keyless(origin, clientA, 76)).at(-1)).toBe(429)
    expect(await keyless(origin, clientB, 1)).toEqual([401])
    expect(app.simulator.state().anonymous.buckets).toBe(2)
  })

  it('refuses a trust list entry that is no address, range or name', () => {
    for (const entry of ['not-an-address', '10.0.0.0/33', '::1/129', '10.0.0.0/x', '']) {
      expect(() => createRequestListener({ trustProxy: [entry] }), entry).toThrow(/is not a proxy address/)
    }
  })
})

describe('forwardedClientAddress', () => {
  const trust = createProxyTrust(['10.0.0.0/8', 'loopback'])
  const read = (peer: string | undefined, headers: Record<string, string>) => forwardedClientAddress(peer, headers, trust)

  it('takes the rightmost untrusted hop, never a client entry left of it', () => {
    expect(read('10.0.0.1', { 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 10.0.0.9' })).toBe('203.0.113.5')
    expect(read('10.0.0.1', { forwarded: 'for=6.6.6.6, for=203.0.113.5;by=10.0.0.1, for=10.0.0.9' })).toBe('203.0.113.5')
    // Every hop trusted: the leftmost.
    expect(read('127.0.0.1', { 'x-forwarded-for': '10.1.1.1, 10.2.2.2' })).toBe('10.1.1.1')
    // X-Forwarded-For first: a client's own Forwarded is not read past a proxy that sets X-Forwarded-For.
    expect(read('10.0.0.1', { 'x-forwarded-for': '203.0.113.5', forwarded: 'for=6.6.6.6' })).toBe('203.0.113.5')
  })

  it('ignores the headers of an untrusted peer, and spells one client one way', () => {
    expect(read('192.0.2.1', { 'x-forwarded-for': '203.0.113.5' })).toBe('192.0.2.1')
    expect(read('::ffff:192.0.2.1', { 'x-forwarded-for': '203.0.113.5' })).toBe('192.0.2.1')
    expect(read('::ffff:10.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).toBe('203.0.113.5')
    expect(read('10.0.0.1', { 'x-forwarded-for': '2001:DB8::1' })).toBe('2001:db8::1')
    expect(read(undefined, { 'x-forwarded-for': '203.0.113.5' })).toBeUndefined()
  })

  it('reads ports and quoted IPv6 hops', () => {
    expect(read('10.0.0.1', { 'x-forwarded-for': '203.0.113.5:51234' })).toBe('203.0.113.5')
    expect(read('10.0.0.1', { forwarded: 'For="[2001:db8:cafe::17]:4711"' })).toBe('2001:db8:cafe::17')
    expect(read('10.0.0.1', { forwarded: 'for="[2001:db8:cafe::17]"' })).toBe('2001:db8:cafe::17')
  })

  it.each([
    ['garbage', { 'x-forwarded-for': 'not an address' }],
    ['an empty header', { 'x-forwarded-for': '' }],
    ['empty entries', { 'x-forwarded-for': ', ,' }],
    ['unknown', { forwarded: 'for=unknown' }],
    ['an obfuscated name', { forwarded: 'for=_hidden' }],
    ['a bracket never closed', { forwarded: 'for="[2001:db8::1"' }],
    ['a bad port', { forwarded: 'for="[2001:db8::1]:http"' }],
    ['no for=', { forwarded: 'proto=https;by=10.0.0.1' }],
    ['an address and garbage', { 'x-forwarded-for': '203.0.113.5 6.6.6.6' }],
  ])('stops at a hop that is no address (%s): the proxy that sent it is the client', (_what, headers) => {
    expect(read('10.0.0.1', headers)).toBe('10.0.0.1')
  })

  it(`reads at most ${maxForwardedHops} hops of a long header`, () => {
    const hops = Array.from({ length: 10_000 }, (_, index) => `10.0.${Math.floor(index / 250)}.${index % 250}`)
    expect(read('10.0.0.1', { 'x-forwarded-for': ['203.0.113.5', ...hops].join(', ') })).toBe(hops.at(-maxForwardedHops))
  })
})
