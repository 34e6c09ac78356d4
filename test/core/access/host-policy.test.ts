import { describe, expect, it } from 'vitest'
import { canonicalHostName, createHostPolicy, hostName, isLoopbackHostName } from '../../../src/core/access/host-policy.ts'
import { foreignHosts, loopbackHosts } from '../../support/host-spellings.ts'

// The Host check against DNS rebinding (docs/cli.md, "Browsers"): loopback names in every spelling a client sends, the
// names given, nothing else. Issue 38: `localhost.`, `127.1` and `[::ffff:127.0.0.1]` were refused while
// `a..localhost` was accepted.

describe('createHostPolicy, with no names given', () => {
  const policy = createHostPolicy([])

  it.each(loopbackHosts)('accepts the loopback spelling %s', (host) => {
    expect(policy.allows(host)).toBe(true)
  })

  it.each(foreignHosts)('refuses %s', (host) => {
    expect(policy.allows(host)).toBe(false)
  })

  it('lets a request without Host through (no browser sends one), and accepts nothing else by default', () => {
    expect(policy.allows(undefined)).toBe(true)
    expect(policy.any).toBe(false)
    expect(policy.allows('sim.test')).toBe(false)
  })
})

describe('createHostPolicy, with names', () => {
  const policy = createHostPolicy([' Sim.Test ', '.preview.example'])

  it('accepts each exact name, in any case, with its final dot, and a .domain with its subdomains', () => {
    for (const host of ['sim.test', 'SIM.TEST:80', 'sim.test.', 'preview.example', 'a.b.preview.example:4010', 'preview.example.']) {
      expect(policy.allows(host), host).toBe(true)
    }
  })

  it('refuses names that only look like them, and empty labels in them', () => {
    for (const host of ['sim.test.evil', 'notpreview.example', 'a..preview.example', 'sim..test', 'www.sim.test', ...foreignHosts]) {
      expect(policy.allows(host), host).toBe(false)
    }
  })

  it("accepts every name with '*'", () => {
    const any = createHostPolicy(['*'])
    expect(any.any).toBe(true)
    expect(any.allows('rebound.example')).toBe(true)
  })
})

describe('the spellings, one step at a time', () => {
  it('reads the host name of a Host value, lower case, without its port', () => {
    expect(hostName('LocalHost.:4010')).toBe('localhost.')
    expect(hostName('[::FFFF:127.0.0.1]:80')).toBe('[::ffff:127.0.0.1]')
    expect(hostName('evil/')).toBeUndefined()
    expect(hostName('a@b')).toBeUndefined()
    expect(hostName('host:123456')).toBeUndefined()
  })

  it('makes each spelling canonical as the URL parser does, and names nothing for an empty label', () => {
    expect(canonicalHostName('127.1')).toBe('127.0.0.1')
    expect(canonicalHostName('2130706433')).toBe('127.0.0.1')
    expect(canonicalHostName('localhost.')).toBe('localhost')
    expect(canonicalHostName('[::ffff:127.0.0.1]')).toBe('[::ffff:7f00:1]')
    expect(canonicalHostName('[0:0:0:0:0:0:0:1]')).toBe('[::1]')
    expect(canonicalHostName('a..localhost')).toBeUndefined()
    expect(canonicalHostName('.localhost')).toBeUndefined()
    expect(canonicalHostName('localhost..')).toBeUndefined()
    expect(canonicalHostName('127.999.0.1')).toBeUndefined()
  })

  it('knows loopback among canonical names: 127.0.0.0/8, [::1], 127.0.0.0/8 mapped to IPv6, localhost and below', () => {
    for (const host of ['localhost', 'a.localhost', '127.0.0.1', '127.9.8.7', '[::1]', '[::ffff:7f00:1]', '[::ffff:7fff:ffff]']) {
      expect(isLoopbackHostName(host), host).toBe(true)
    }
    for (const host of ['localhost.example', 'xlocalhost', '128.0.0.1', '[::2]', '[::ffff:8000:1]', '[::ffff:7f00:1:2]']) {
      expect(isLoopbackHostName(host), host).toBe(false)
    }
  })
})
