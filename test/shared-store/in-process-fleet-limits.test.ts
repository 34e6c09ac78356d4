import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from './fleet.ts'

// Rate limits are per key across the whole fleet: however the requests are split over instances and however
// concurrent, a limit of N gives exactly N successes (one atomic script per request in the store).
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(
    3,
    { url: redis.socketUrl },
    {
      keys: { 'k-fifty': 'enterprise:50/100000', 'k-ban': 'enterprise:2/100000', 'k-day': 'enterprise:100/30' },
      ban: { after: 2, durationMs: 600_000 },
    },
  )
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})

describe('limits across instances', () => {
  it('gives exactly 50 × 200 and 150 × 429 for 200 concurrent requests of a 50/min key split over 3 instances', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => fleet.api(index % 3, '/pets?limit=1', { key: 'k-fifty' })))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(50)
    expect(statuses.filter((status) => status === 429)).toHaveLength(150)
    // Every instance served some of each: the split was real.
    for (const instance of [0, 1, 2]) {
      expect(answers.filter((_, index) => index % 3 === instance).some((answer) => answer.status === 200)).toBe(true)
    }
    const remaining = answers.filter((answer) => answer.status === 200).map((answer) => Number(answer.headers.get('x-ratelimit-remaining')))
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index))
    const refused = answers.find((answer) => answer.status === 429)!
    expect(await refused.json()).toMatchObject({ code: 'rate_limit_exceeded', status: 429 })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })

  it('enforces on one instance a ban set through another', async () => {
    expect((await fleet.api(0, '/pets?limit=1', { key: 'k-ban' })).status).toBe(200)
    expect((await fleet.api(1, '/pets?limit=1', { key: 'k-ban' })).status).toBe(200)
    // Two refusals in a row, then the ban (after: 2), each on another instance.
    expect((await fleet.api(2, '/pets?limit=1', { key: 'k-ban' })).status).toBe(429)
    expect((await fleet.api(0, '/pets?limit=1', { key: 'k-ban' })).status).toBe(429)
    const banned = await fleet.api(1, '/pets?limit=1', { key: 'k-ban' })
    expect(await banned.json()).toMatchObject({ code: 'api_key_banned' })
    const elsewhere = await fleet.api(2, '/pets?limit=1', { key: 'k-ban' })
    expect(await elsewhere.json()).toMatchObject({ code: 'api_key_banned' })
    expect(Number(elsewhere.headers.get('retry-after'))).toBeGreaterThan(500)
  })

  it('counts the day window fleet-wide, and the state on any instance shows the counts', async () => {
    const statuses: number[] = []
    for (let index = 0; index < 32; index++) statuses.push((await fleet.api(index % 3, '/pets?limit=1', { key: 'k-day' })).status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(30)
    const state = (await (await fleet.control(2, '/__sim/state')).json()) as { keys: { plan: string; day: { used: number } }[] }
    expect(JSON.stringify(state)).toContain('"used":30')
  })

  it('does not count a forced answer, and still refuses one over the limit', async () => {
    const forced = await fleet.api(0, '/pets?limit=1', { key: 'k-fifty', headers: { prefer: 'code=200' } })
    // k-fifty used its minute above: the forced answer is still its 429.
    expect(forced.status).toBe(429)
  })
})
