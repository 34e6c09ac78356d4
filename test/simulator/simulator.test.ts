import { fingerprint } from '../../src/core/access/fingerprint.ts'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createManualClock } from '../../src/core/time/clock.ts'
import { petCategories } from '../../src/core/catalogue/catalogue.ts'
import { createApp } from '../../src/app/app.ts'
import type { Pet } from '../../src/core/model/pet-types.ts'
import { createSimulator, type SimulatorOptions } from '../../src/simulator.ts'
import { checkedFetch } from '../support/checked-fetch.ts'

const servers: Array<{ close(): void }> = []
afterEach(() => {
  while (servers.length > 0) servers.pop()!.close()
})

/** Serves a simulator in-process and returns a fetch for it. */
function serve(options: SimulatorOptions = {}) {
  const simulator = createSimulator(options)
  const server = setupServer(...simulator.handlers)
  server.listen({ onUnhandledFrame: 'error' })
  servers.push(server)
  const call = async (path: string, init: RequestInit & { key?: string } = {}) => {
    const response = await checkedFetch(`http://petstore.test${path}`, {
      ...init,
      headers: { authorization: `Bearer ${init.key ?? 'demo-pro-key'}`, ...init.headers },
    })
    return { status: response.status, headers: response.headers, body: await response.json() }
  }
  return { simulator, server, call }
}

describe('the seeded catalogue', () => {
  it('is byte-identical for the same seed across simulators', async () => {
    const first = serve({ seed: 99 })
    const firstBody = await (
      await checkedFetch('http://petstore.test/v1/pets?limit=100', { headers: { authorization: 'Bearer demo-free-key' } })
    ).text()
    servers.pop()!.close()
    const second = serve({ seed: 99 })
    const secondBody = await (
      await checkedFetch('http://petstore.test/v1/pets?limit=100', { headers: { authorization: 'Bearer demo-free-key' } })
    ).text()
    expect(secondBody).toBe(firstBody)
    expect(second.simulator.store.all()).toEqual(first.simulator.store.all())
  })

  it('differs between seeds', () => {
    expect(createSimulator({ seed: 1 }).store.all()).not.toEqual(createSimulator({ seed: 2 }).store.all())
  })

  it('defaults to a fixed seed and 50 pets', () => {
    const pets = createSimulator().store.all()
    expect(pets).toHaveLength(50)
    expect(pets).toEqual(createSimulator().store.all())
  })

  it('looks like a real catalogue: pet names, known categories, every status', () => {
    const pets = createSimulator({ pets: 200 }).store.all()
    const categoryIds = new Set<number>(petCategories.map((category) => category.id))
    for (const pet of pets) {
      expect(pet.name).toMatch(/^[A-Z][A-Za-z' -]+$/)
      expect(categoryIds.has(pet.categoryId)).toBe(true)
    }
    const statuses = new Map<string, number>()
    for (const pet of pets) statuses.set(pet.status, (statuses.get(pet.status) ?? 0) + 1)
    expect(statuses.get('available')!).toBeGreaterThan(statuses.get('sold')!)
    expect(statuses.get('sold')!).toBeGreaterThan(0)
    expect(statuses.get('pending')!).toBeGreaterThan(0)
    expect(new Set(pets.map((pet) => pet.name)).size).toBeGreaterThan(30)
  })

  it.each([0, 1, 1000])('seeds %i pets on request', (count) => {
    expect(createSimulator({ pets: count }).store.size).toBe(count)
  })

  it.each([-1, 1.5, Number.NaN])('refuses pets: %s', (count) => {
    expect(() => createSimulator({ pets: count })).toThrow(/whole number of 0 or more/)
  })
})

describe('fixtures', () => {
  it('serves pets given as data, giving ids to those without', async () => {
    const { call } = serve({
      fixtures: [
        { id: 10, name: 'Rex', categoryId: 1, status: 'sold' },
        { name: 'Tom', categoryId: 2 },
      ],
    })
    expect((await call('/v1/pets')).body).toEqual([
      { id: 10, name: 'Rex', categoryId: 1, status: 'sold' },
      { id: 11, name: 'Tom', categoryId: 2, status: 'available' },
    ])
    expect(
      (await call('/v1/pets', { method: 'POST', body: '{"name":"New","categoryId":3}', headers: { 'content-type': 'application/json' } }))
        .body.id,
    ).toBe(12)
  })

  it.each([
    [{ pets: [] }, /must be a JSON array/],
    [[{ name: 'Rex' }], /#0 .*categoryId: is required/],
    [
      [
        { name: 'Rex', categoryId: 1 },
        { name: 'Tom', categoryId: 'x' },
      ],
      /#1 .*categoryId: must be an integer/,
    ],
    [[{ name: 'Rex', categoryId: 1, status: 'lost' }], /#0 .*status: must be one of/],
    [[{ name: 'Rex', categoryId: 1, colour: 'red' }], /#0 .*colour/],
    [
      [
        { id: 1, name: 'Rex', categoryId: 1 },
        { id: 1, name: 'Tom', categoryId: 1 },
      ],
      /#1 repeats the id 1/,
    ],
    [[{ id: 0, name: 'Rex', categoryId: 1 }], /#0 .*id: must be a positive integer/],
    // Issue 36: past 2^53 - 2 the next id is no safe integer, and the catalogue's snapshot could not be restored.
    [[{ id: Number.MAX_SAFE_INTEGER, name: 'Rex', categoryId: 1 }], /#0 has the id 9007199254740991: ids go up to 9007199254740990/],
    [
      [
        { id: Number.MAX_SAFE_INTEGER - 1, name: 'Rex', categoryId: 1 },
        { name: 'Tom', categoryId: 1 },
      ],
      /#1 has the id 9007199254740991/,
    ],
  ])('refuses bad fixtures %j, naming the entry', (fixtures, message) => {
    expect(() => createSimulator({ fixtures })).toThrow(message)
  })
})

describe('instances', () => {
  it('never share state', async () => {
    const a = createSimulator()
    const b = createSimulator()
    a.store.create({ name: 'Only in A', categoryId: 1 })
    expect(a.store.size).toBe(51)
    expect(b.store.size).toBe(50)
    const plan = a.keys[0]!.plan
    for (let index = 0; index < plan.perMinute; index++) a.limiter.consume('x', plan)
    expect(a.limiter.consume('x', plan).outcome).toBe('limited')
    expect(b.limiter.consume('x', plan).outcome).toBe('allowed')
    a.clock.advance(1_000_000)
    expect(Math.abs(b.clock.now() - Date.now())).toBeLessThan(1000)
  })

  it('reset() restores the catalogue, limits, journal and clock', async () => {
    const clock = createManualClock('2030-01-01T00:00:00Z')
    const { simulator, call } = serve({ clock, keys: { small: 'enterprise:1/10' } })
    await call('/v1/pets', {
      method: 'POST',
      key: 'small',
      body: '{"name":"X","categoryId":1}',
      headers: { 'content-type': 'application/json' },
    })
    expect((await call('/v1/pets', { key: 'small' })).status).toBe(429)
    simulator.clock.advance(3_600_000)
    expect(simulator.journal.entries()).toHaveLength(2)
    simulator.reset()
    expect(simulator.store.size).toBe(50)
    expect(simulator.journal.entries()).toHaveLength(0)
    expect(simulator.clock.now()).toBe(Date.parse('2030-01-01T00:00:00Z'))
    expect((await call('/v1/pets', { key: 'small' })).status).toBe(200)
  })
})

describe('options', () => {
  it('uses the demo keys, one per plan, when none are given', async () => {
    const { simulator, call } = serve()
    expect(simulator.keys.map((key) => [key.token, key.plan.name])).toEqual([
      ['demo-free-key', 'free'],
      ['demo-pro-key', 'pro'],
      ['demo-business-key', 'business'],
      ['demo-enterprise-key', 'enterprise'],
    ])
    for (const [key, limit] of [
      ['demo-free-key', 60],
      ['demo-pro-key', 300],
      ['demo-business-key', 1000],
      ['demo-enterprise-key', 5000],
    ] as const) {
      expect((await call('/v1/pets', { key })).headers.get('x-ratelimit-limit')).toBe(String(limit))
    }
  })

  it('serves under a full base URL only, for production or staging addresses', async () => {
    const { call } = serve({ baseUrl: 'https://staging.animals.example/api/v1/' })
    const response = await checkedFetch('https://staging.animals.example/api/v1/pets?limit=1', {
      headers: { authorization: 'Bearer demo-pro-key' },
    })
    expect(response.status).toBe(200)
    const getPet = await checkedFetch('https://staging.animals.example/api/v1/pets/1', {
      headers: { authorization: 'Bearer demo-pro-key' },
    })
    expect(getPet.headers.get('link')).toBe('</api/v1/pets>; rel="successor-version"')
    const reported = mswErrors()
    await expect(call('/v1/pets')).rejects.toThrow()
    expect(reported()).toEqual([expect.stringContaining('GET http://petstore.test/v1/pets')])
  })

  it('keeps production and staging apart as two simulators', async () => {
    const production = createSimulator({ baseUrl: 'https://api.animals.example/v1' })
    const staging = createSimulator({ baseUrl: 'https://staging.animals.example/v1' })
    const server = setupServer(...production.handlers, ...staging.handlers)
    server.listen({ onUnhandledFrame: 'error' })
    servers.push(server)
    const post = (origin: string) =>
      checkedFetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' },
        body: '{"name":"Staged","categoryId":1}',
      })
    expect((await post('https://staging.animals.example')).status).toBe(201)
    expect(staging.store.size).toBe(51)
    expect(production.store.size).toBe(50)
  })

  it.each(['v1', '/v1/*', 'ftp//x'])('refuses the base URL %j', (baseUrl) => {
    expect(() => createSimulator({ baseUrl })).toThrow(/base (URL|path)/)
  })

  it('can turn the ban off', async () => {
    const { call } = serve({ keys: { small: 'enterprise:1/1000' }, ban: false })
    const codes = new Set<string>()
    for (let index = 0; index < 30; index++) {
      const response = await call('/v1/pets', { key: 'small' })
      if (response.status === 429) codes.add(response.body.code)
    }
    expect([...codes]).toEqual(['rate_limit_exceeded'])
  })

  it('honours a custom ban policy', async () => {
    const clock = createManualClock('2030-01-01T00:00:10Z')
    const { call } = serve({ clock, keys: { small: 'enterprise:1/1000' }, ban: { after: 1, durationMs: 90_000 } })
    await call('/v1/pets', { key: 'small' })
    expect((await call('/v1/pets', { key: 'small' })).body.code).toBe('rate_limit_exceeded')
    const banned = await call('/v1/pets', { key: 'small' })
    expect(banned.body.code).toBe('api_key_banned')
    expect(banned.headers.get('retry-after')).toBe('90')
  })

  it('defaults a created pet to the configured status', async () => {
    const { call } = serve({ defaultStatus: 'pending' })
    const response = await call('/v1/pets', {
      method: 'POST',
      body: '{"name":"X","categoryId":1}',
      headers: { 'content-type': 'application/json' },
    })
    expect(response.body.status).toBe('pending')
  })

  it('delays responses by the configured latency', async () => {
    const { simulator, call } = serve({ latency: 40 })
    await call('/v1/pets')
    const started = performance.now()
    await call('/v1/pets')
    expect(performance.now() - started).toBeGreaterThanOrEqual(35)
    expect(simulator.journal.entries()).toHaveLength(2)
  })

  it.each([-1, { min: 5, max: 1 }])('refuses the latency %j', (latency) => {
    expect(() => createSimulator({ latency })).toThrow(/latency/)
  })

  it('moves getPet removal with the deprecation option', async () => {
    const clock = createManualClock('2026-01-01T00:00:00Z')
    serve({ clock, deprecation: { sunsetAt: Date.parse('2025-06-01T00:00:00Z') } })
    // Plain fetch: a configured removal date is, on purpose, not the contract's.
    const response = await fetch('http://petstore.test/v1/pets/1', { headers: { authorization: 'Bearer demo-pro-key' } })
    expect(response.status).toBe(410)
    expect(response.headers.get('sunset')).toBe('Sun, 01 Jun 2025 00:00:00 GMT')
  })
})

describe('journal and client addresses', () => {
  it('records every answered API request without the key', async () => {
    const clock = createManualClock('2030-01-01T00:00:00Z')
    const { simulator, call } = serve({ clock })
    await call('/v1/pets?limit=2')
    await call('/v1/pets/9999', { key: 'wrong' })
    const entries = simulator.journal.entries()
    // The exchange (request, response) and the wall time are checked below and in test/journal.test.ts.
    expect(entries.map(({ durationMs: _, wallAt: __, request: ___, response: ____, ...entry }) => entry)).toEqual([
      {
        sequence: 1,
        at: '2030-01-01T00:00:00.000Z',
        method: 'GET',
        path: '/v1/pets?limit=2',
        status: 200,
        operation: 'listPets',
        caller: simulator.keys[1]!.fingerprint,
        keyName: 'demo-pro-key',
        plan: 'pro',
      },
      {
        sequence: 2,
        at: '2030-01-01T00:00:00.000Z',
        method: 'GET',
        path: '/v1/pets/9999',
        status: 401,
        operation: 'getPet',
        caller: 'anonymous',
        plan: 'anonymous',
      },
    ])
    // The documented demo key shows by its name (keyName, Authorization) and nowhere else; the wrong key never in clear.
    expect(entries[0]!.request.headers.authorization).toBe('Bearer demo-pro-key')
    expect(entries[1]!.request.headers.authorization).toBe(`Bearer ${fingerprint('wrong')}`)
    const { keyName: _, request, ...rest } = entries[0]!
    const { authorization: __, ...headers } = request.headers
    expect(JSON.stringify({ ...rest, request: { ...request, headers } })).not.toContain('demo-pro-key')
    expect(JSON.stringify(entries)).not.toContain('wrong')
  })

  it('keeps only the most recent requests', async () => {
    const { simulator, call } = serve({ journalSize: 3 })
    for (let index = 1; index <= 5; index++) await call(`/v1/pets?limit=${index}`)
    expect(simulator.journal.entries().map((entry) => [entry.sequence, entry.path])).toEqual([
      [3, '/v1/pets?limit=3'],
      [4, '/v1/pets?limit=4'],
      [5, '/v1/pets?limit=5'],
    ])
  })

  it('limits anonymous callers per client address when the transport gives it', async () => {
    // A frozen clock: 61 requests on real time may straddle a UTC minute, and the count would start again.
    const app = createApp({ clock: createManualClock('2030-01-01T00:00:30Z') })
    const send = (address: string) => app.fetch(new Request('http://petstore.test/v1/pets'), { clientAddress: address })
    for (let index = 0; index < 60; index++) expect((await send('10.0.0.1')).status).toBe(401)
    expect((await send('10.0.0.1')).status).toBe(429)
    expect((await send('10.0.0.2')).status).toBe(401)
  })
})

describe('in a user test suite', () => {
  it('lets one handler be overridden with server.use and restored', async () => {
    const { server, call } = serve()
    server.use(http.get('*/v1/pets', () => HttpResponse.json([{ id: 1, name: 'Override', categoryId: 1, status: 'sold' }])))
    // Plain fetch: the override is the user's, not the simulator's, and need not carry the contract's headers.
    const overridden = await fetch('http://petstore.test/v1/pets', { headers: { authorization: 'Bearer demo-pro-key' } })
    expect(await overridden.json()).toEqual([{ id: 1, name: 'Override', categoryId: 1, status: 'sold' }])
    server.resetHandlers()
    expect((await call('/v1/pets')).body).toHaveLength(20)
  })
})

describe('in-process, beside the other APIs an app calls', () => {
  it('leaves requests that match no path of the API to msw, uncounted and unjournaled', async () => {
    const { simulator, call } = serve()
    const urls = [
      'https://api.stripe.com/v1/customers',
      'https://api.openai.com/v1/models',
      'http://petstore.test/v1/nope',
      'http://petstore.test/foo/v1/pets',
    ]
    const reported = mswErrors()
    for (const url of urls) {
      // onUnhandledFrame: 'error' (see serve): msw refuses the unhandled request, so the fetch fails, and says why.
      await expect(fetch(url, { headers: { authorization: 'Bearer demo-pro-key' } }), url).rejects.toThrow()
    }
    expect(reported()).toEqual(urls.map((url) => expect.stringContaining(`GET ${url}`)))
    expect(simulator.journal.entries()).toEqual([])
    expect((await call('/v1/pets?limit=1')).headers.get('x-ratelimit-remaining')).toBe('299')
  })

  it("answers every path on the origin of a full base URL: the API's 404 under it, a plain 404 outside it", async () => {
    const { call } = serve({ baseUrl: 'http://petstore.test/v1' })
    const underApi = await call('/v1/nope')
    expect(underApi).toMatchObject({ status: 404, body: { code: 'route_not_found' } })
    expect(underApi.headers.get('x-ratelimit-remaining')).toBe('299')
    const outside = await fetch('http://petstore.test/elsewhere')
    expect(outside.status).toBe(404)
    expect(await outside.json()).toMatchObject({ code: 'route_not_found', status: 404 })
  })

  it("answers an internal failure with the spec's Error body, not msw's 500", async () => {
    const { simulator } = serve()
    simulator.store.list = () => {
      throw new Error('disk on fire')
    }
    const response = await fetch('http://petstore.test/v1/pets', { headers: { authorization: 'Bearer demo-pro-key' } })
    expect(response.status).toBe(500)
    const body = await response.json()
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status'])
    expect(body).toMatchObject({ code: 'internal_error', status: 500 })
    expect(response.headers.get('x-ratelimit-limit')).toBe('300')
  })

  it('answers a failure before the operation (in the limiter) with the Error body too', async () => {
    const { simulator } = serve()
    simulator.limiter.consume = () => {
      throw new Error('limiter broke')
    }
    const response = await fetch('http://petstore.test/v1/pets', { headers: { authorization: 'Bearer demo-pro-key' } })
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ code: 'internal_error', status: 500 })
  })
})

describe('state a simulator hands out', () => {
  it('gives copies of the store, so changing them changes nothing', () => {
    const simulator = createSimulator()
    const all = simulator.store.all() as Pet[]
    expect(() => all.push({ id: 999, name: 'Intruder', categoryId: 1, status: 'sold' })).toThrow(TypeError)
    expect(simulator.store.size).toBe(50)
    expect(simulator.store.get(51)).toBeUndefined()
  })

  it('shares no plan object between simulators', () => {
    const a = createSimulator()
    const b = createSimulator()
    expect(() => {
      ;(a.keys[0]!.plan as { perMinute: number }).perMinute = 2
    }).toThrow(TypeError)
    expect(b.keys[0]!.plan.perMinute).toBe(60)
  })
})

describe('preflights in-process', () => {
  it('answers OPTIONS on an API path as the server does: 204, no key, not counted', async () => {
    const { call } = serve()
    const preflight = await fetch('http://petstore.test/v1/pets', {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST')
    expect((await call('/v1/pets?limit=1', { key: 'demo-free-key' })).headers.get('x-ratelimit-remaining')).toBe('59')
  })
})

describe('error states on demand, in-process', () => {
  it('ignores Prefer with prefer: false', async () => {
    const { call } = serve({ prefer: false })
    const response = await call('/v1/pets/1', { headers: { prefer: 'code=404' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('preference-applied')).toBeNull()
  })

  it('gives the same fault sequence for the same seed, and another for another seed', async () => {
    const sequence = async (seed: number) => {
      const { simulator, server, call } = serve({ seed })
      simulator.faults.add({ operation: 'listPets', status: 503, probability: 0.5 })
      const statuses: number[] = []
      for (let index = 0; index < 24; index++) statuses.push((await call('/v1/pets?limit=1')).status)
      server.close()
      servers.splice(servers.indexOf(server), 1)
      return statuses
    }
    const first = await sequence(11)
    expect(await sequence(11)).toEqual(first)
    expect(new Set(first)).toEqual(new Set([200, 503]))
    expect(await sequence(12)).not.toEqual(first)
  })

  it('lists, removes and clears rules; reset() keeps only the rules given as options', () => {
    const simulator = createSimulator({ faults: [{ operation: 'getPet', status: 404, times: 3 }] })
    const added = simulator.faults.add({ method: 'GET', path: '/pets', delay: { min: 10, max: 20 }, key: 'demo-pro-key' })
    expect(simulator.faults.list()).toEqual([
      { id: 'f1', operation: 'getPet', status: 404, remaining: 3 },
      { id: added, method: 'GET', path: '/pets', delay: { min: 10, max: 20 }, key: simulator.keys[1]!.fingerprint },
    ])
    expect(JSON.stringify(simulator.faults.list())).not.toContain('demo-pro-key')
    expect(simulator.faults.remove(added)).toBe(true)
    expect(simulator.faults.remove(added)).toBe(false)
    simulator.faults.add({ operation: 'listPets', status: 503 })
    simulator.reset()
    expect(simulator.faults.list()).toEqual([{ id: 'f1', operation: 'getPet', status: 404, remaining: 3 }])
    simulator.faults.clear()
    expect(simulator.faults.list()).toEqual([])
  })

  it.each([
    [{ operation: 'feedPets', status: 503 }, /no operation feedPets/],
    [{ operation: 'listPets', status: 404 }, /listPets never answers 404/],
    [{ operation: 'listPets' }, /needs a status, a fault or a delay/],
    [{ operation: 'listPets', status: 503, fault: 'reset' }, /not both/],
    [{ operation: 'listPets', status: 503, probability: 1.5 }, /probability/],
    [{ method: 'DELETE', path: '/pets', status: 503 }, /matches no operation/],
    [{ operation: 'listPets', status: 503, colour: 'red' }, /colour/],
  ])('refuses the rule %j with a RangeError naming the problem', (rule, message) => {
    expect(() => createSimulator().faults.add(rule as never)).toThrow(RangeError)
    expect(() => createSimulator().faults.add(rule as never)).toThrow(message)
  })
})

/**
 * What msw reports on the console for unhandled requests, captured instead of printed: a passing run reads clean,
 * and the report itself is asserted on.
 */
function mswErrors(): () => string[] {
  const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
  return () => {
    const messages = spy.mock.calls.map((args) => args.map(String).join(' '))
    spy.mockRestore()
    return messages.filter((message) => message.includes('intercepted a request without a matching request handler'))
  }
}
