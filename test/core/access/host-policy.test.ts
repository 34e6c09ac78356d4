import { describe, expect, it } from 'vitest'
import {
  canonicalHostName,
  createHostPolicy,
  hostName,
  hostNotAllowed,
  isLoopbackBindAddress,
  isLoopbackHostName,
} from '../../../src/core/access/host-policy.ts'
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

// `--host` decides whether the Host check applies by default (docs/cli.md, "Browsers"): on a loopback address only.
describe('isLoopbackBindAddress', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1', '[::ffff:127.0.0.9]'])(
    'takes %s for loopback',
    (host) => {
      expect(isLoopbackBindAddress(host)).toBe(true)
    },
  )

  it.each([
    '0.0.0.0',
    '::',
    '[::]',
    '10.0.0.1',
    '128.0.0.1',
    '127.0.0',
    'x127.0.0.1',
    '127.0.0.1x',
    '::2',
    'localhost.example',
    '::ffff:10.0.0.1',
  ])('takes %s for an address other hosts reach', (host) => {
    expect(isLoopbackBindAddress(host)).toBe(false)
  })
})

describe('hostNotAllowed', () => {
  it('is a 403 host_not_allowed naming the Host and the flag that allows its name', () => {
    const error = hostNotAllowed('evil.example:4010')
    expect(error.code).toBe('host_not_allowed')
    expect(error.status).toBe(403)
    expect(error.message).toBe(
      'The Host "evil.example:4010" is not one this simulator answers (loopback names only, by default: DNS rebinding): allow it with --allowed-host evil.example, PETSTORE_SIM_ALLOWED_HOST or the allowedHosts option',
    )
  })

  it('shows at most 200 characters of a Host that is not a name', () => {
    const sent = `a/${'x'.repeat(300)}`
    const { message } = hostNotAllowed(sent)
    expect(message).toContain(`The Host ${JSON.stringify(sent.slice(0, 200))} is not`)
    expect(message).toContain(`--allowed-host ${sent.slice(0, 200)},`)
    expect(message).not.toContain('x'.repeat(199))
  })
})
