import { describe, expect, it } from 'vitest'
import { createApp } from '../../../src/app/app.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'
import { fingerprint } from '../../../src/core/access/fingerprint.ts'
import { createRateLimiter } from '../../../src/core/access/rate-limiter.ts'
import { standardPlans } from '../../../src/core/access/plans.ts'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'
import type { SimulatorEvent } from '../../../src/core/simulator/simulator-events.ts'

// simulator.state() and simulator.events, in-process (issue #12, items 2 and 4): what the dashboard shows, as data.

const start = '2030-06-15T10:00:30.000Z'

function setUp(options: Parameters<typeof createApp>[0] = {}) {
  const clock = createManualClock(start)
  const app = createApp({ clock, ...options })
  const get = (path: string, key: string | undefined = 'demo-pro-key', clientAddress = '127.0.0.1') =>
    app.fetch(new Request(`http://localhost${path}`, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } }), {
      clientAddress,
    })
  return { app, simulator: app.simulator, clock, get }
}

describe('simulator.state()', () => {
  it('shows each key with both windows, counting nothing', async () => {
    const { simulator, get } = setUp()
    for (let index = 0; index < 3; index++) await get('/v1/pets?limit=1')
    const state = simulator.state()
    const pro = state.keys.find((key) => key.plan === 'pro')!
    expect(pro).toEqual({
      key: fingerprint('demo-pro-key'),
      token: 'demo-pro-key',
      plan: 'pro',
      minute: { limit: 300, used: 3, remaining: 297, resetAt: '2030-06-15T10:01:00.000Z' },
      day: { limit: 10_000, used: 3, remaining: 9_997, resetAt: '2030-06-16T00:00:00.000Z' },
      bannedUntil: null,
    })
    // Reading it twice changes nothing.
    expect(simulator.state()).toEqual(state)
    expect(state.clock).toEqual({ now: start, epochMs: Date.parse(start), frozen: false })
    expect(state.requests).toEqual({ total: 3, byStatusClass: { '1xx': 0, '2xx': 3, '3xx': 0, '4xx': 0, '5xx': 0, none: 0 } })
    expect(state.pets).toBe(50)
    expect(state.basePath).toBe('/v1')
    expect(state.getPet).toEqual({ deprecatedAt: '2025-12-05T00:00:00.000Z', sunsetAt: '2030-12-05T00:00:00.000Z' })
    expect(state.ban).toEqual({ after: 10, durationMs: 600_000 })
  })

  it('never shows a token that is not a documented demo key', () => {
    const { simulator } = setUp({ keys: { 'secret-key-1': 'pro', 'demo-pro-key': 'free' } })
    const keys = simulator.state().keys
    expect(keys.map((key) => key.key)).toEqual([fingerprint('secret-key-1'), fingerprint('demo-pro-key')])
    expect(keys.every((key) => key.token === undefined)).toBe(true)
    expect(JSON.stringify(simulator.state())).not.toContain('secret-key-1')
  })

  it('moves the windows with the clock: a minute later the minute is fresh, the day is not', async () => {
    const { simulator, get } = setUp()
    await get('/v1/pets?limit=1')
    simulator.clock.advance(60_000)
    const pro = simulator.state().keys.find((key) => key.plan === 'pro')!
    expect(pro.minute).toMatchObject({ used: 0, remaining: 300, resetAt: '2030-06-15T10:02:00.000Z' })
    expect(pro.day).toMatchObject({ used: 1, remaining: 9_999 })
  })

  it('shows a ban with its end, and the anonymous callers in aggregate', async () => {
    const { simulator, get } = setUp({ keys: { 'tiny-key': 'enterprise:1/100' }, ban: { after: 1, durationMs: 60_000 } })
    const statuses = []
    for (let index = 0; index < 3; index++) statuses.push((await get('/v1/pets', 'tiny-key')).status)
    expect(statuses).toEqual([200, 429, 429])
    const tiny = simulator.state().keys[0]!
    expect(tiny.bannedUntil).toBe('2030-06-15T10:01:30.000Z')
    expect(tiny.minute).toMatchObject({ used: 1, remaining: 0 })
    await get('/v1/pets', undefined, '10.0.0.1')
    await get('/v1/pets', undefined, '10.0.0.2')
    expect(simulator.state().anonymous).toEqual({ perMinute: 60, perDay: 1000, buckets: 2, banned: 0 })
    expect(simulator.state().requests.byStatusClass).toMatchObject({ '2xx': 1, '4xx': 4 })
  })

  it('lists the fault rules, and counts a reset or hang as no answer', async () => {
    const { simulator, get } = setUp()
    simulator.faults.add({ operation: 'listPets', fault: 'reset', times: 1 })
    const id = simulator.faults.add({ operation: 'getPet', status: 503, key: 'demo-pro-key' })
    expect(simulator.state().faults).toEqual([
      { id: 'f1', operation: 'listPets', fault: 'reset', remaining: 1 },
      { id, operation: 'getPet', key: fingerprint('demo-pro-key'), status: 503 },
    ])
    expect((await get('/v1/pets')).type).toBe('error')
    expect(simulator.state().requests.byStatusClass.none).toBe(1)
    expect(simulator.state().faults.map((rule) => rule.id)).toEqual([id])
  })

  it('is back to the start after reset', async () => {
    const { simulator, get } = setUp()
    await get('/v1/pets')
    simulator.faults.add({ status: 503 })
    simulator.reset()
    const state = simulator.state()
    expect(state.requests.total).toBe(0)
    expect(state.faults).toEqual([])
    expect(state.keys.every((key) => key.minute.used === 0 && key.day.used === 0)).toBe(true)
  })
})

describe('the rate limiter read without counting', () => {
  it('gives both windows and the ban, and the anonymous aggregate from the bans alone', () => {
    const clock = createManualClock('2030-01-01T00:00:59.000Z')
    const limiter = createRateLimiter({ clock, ban: { after: 0, durationMs: 5_000 } })
    const plan = { ...standardPlans.free, perMinute: 1 }
    limiter.consume('anonymous:a', plan)
    limiter.consume('anonymous:a', plan) // 429, and the next one starts the ban
    limiter.consume('anonymous:a', plan)
    limiter.consume('key:k', standardPlans.pro)
    expect(limiter.anonymousUsage()).toEqual({ buckets: 1, banned: 1 })
    expect(limiter.usage('anonymous:a', plan)).toEqual({
      minute: { limit: 1, used: 1, remaining: 0, resetAt: Date.parse('2030-01-01T00:01:00.000Z') },
      day: { limit: 1000, used: 1, remaining: 999, resetAt: Date.parse('2030-01-02T00:00:00.000Z') },
      bannedUntil: Date.parse('2030-01-01T00:01:04.000Z'),
    })
    const before = limiter.usage('key:k', standardPlans.pro)
    expect(limiter.usage('key:k', standardPlans.pro)).toEqual(before)
    expect(before.minute.used).toBe(1)
    clock.advance(5_000)
    expect(limiter.anonymousUsage()).toEqual({ buckets: 1, banned: 0 })
    expect(limiter.usage('anonymous:a', plan).bannedUntil).toBeUndefined()
  })
})

describe('simulator.events', () => {
  it('tells each request and each change, and nothing once unsubscribed', async () => {
    const { simulator, get } = setUp()
    const seen: SimulatorEvent[] = []
    const unsubscribe = simulator.events.subscribe((event) => seen.push(event))
    expect(simulator.events.size).toBe(1)
    await get('/v1/pets?limit=2')
    simulator.clock.advance(1000)
    simulator.clock.freeze()
    const id = simulator.faults.add({ status: 503, times: 1 })
    await get('/v1/pets')
    simulator.faults.add({ status: 503 })
    simulator.faults.remove(`${id}-none`)
    simulator.faults.clear()
    simulator.reset()
    expect(seen.map((event) => event.type)).toEqual([
      'request',
      'clock',
      'clock',
      'faults',
      'faults',
      'request',
      'faults',
      'faults',
      'reset',
    ])
    const first = seen[0] as Extract<SimulatorEvent, { type: 'request' }>
    expect(first.entry).toMatchObject({ sequence: 1, method: 'GET', path: '/v1/pets?limit=2', status: 200, operation: 'listPets' })
    expect((seen[5] as Extract<SimulatorEvent, { type: 'request' }>).entry).toMatchObject({ status: 503, fault: id })
    unsubscribe()
    expect(simulator.events.size).toBe(0)
    await get('/v1/pets')
    expect(seen).toHaveLength(9)
  })

  it('keeps calling the other listeners when one throws, and never fails the request', async () => {
    const { simulator, get } = setUp()
    const seen: string[] = []
    simulator.events.subscribe(() => {
      throw new Error('listener bug')
    })
    simulator.events.subscribe((event) => seen.push(event.type))
    expect((await get('/v1/pets')).status).toBe(200)
    expect(seen).toEqual(['request'])
  })

  it('belongs to one simulator', async () => {
    const first = createSimulatorCore()
    const second = createSimulatorCore()
    const seen: SimulatorEvent[] = []
    first.events.subscribe((event) => seen.push(event))
    second.reset()
    second.clock.advance(1)
    expect(seen).toEqual([])
  })
})
