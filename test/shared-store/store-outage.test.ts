import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from './fleet.ts'

// The store away: every instance fails closed (503 store_unavailable, health not ready, never a local count), and
// serves again once the store is back, without a restart.
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(
    2,
    { url: redis.socketUrl, timeoutMs: 200 },
    { seed: 3, pets: 4, keys: { 'k-ten': 'enterprise:10/1000', 'k-big': 'enterprise:1000/100000' } },
  )
})
afterAll(async () => {
  redis?.resume()
  await fleet?.close()
  await redis?.stop()
})

const statusOf = async (answers: Promise<Response>[]) => Promise.all(answers.map(async (answer) => (await answer).status))
const until = async (check: () => Promise<boolean>, what: string) => {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${what}: not within 5 s`)
}

/** The answer while the store is away, as the design says: an Error naming the cause, Retry-After, the rate-limit headers. */
async function expectUnavailable(answer: Response): Promise<void> {
  expect(answer.status).toBe(503)
  const body = (await answer.json()) as { code: string; message: string; status: number }
  expect(body).toMatchObject({ code: 'store_unavailable', status: 503 })
  expect(body.message).toContain(`The shared store at unix://${redis.socketPath}`)
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  expect(answer.headers.get('x-ratelimit-limit')).toBe('10')
  expect(answer.headers.get('x-ratelimit-remaining')).toBe('0')
  expect(answer.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/)
}

describe('the store away', () => {
  it('answers 503 while the store is paused (SIGSTOP), says not ready, and never a 200 past the limit', async () => {
    // 6 of the key's 10 used before the pause.
    expect(await statusOf(Array.from({ length: 6 }, (_, index) => fleet.api(index % 2, '/pets?limit=1', { key: 'k-ten' })))).toEqual(
      Array(6).fill(200),
    )
    redis.pause()
    try {
      const during = await Promise.all(Array.from({ length: 20 }, (_, index) => fleet.raw(index % 2, '/pets?limit=1', { key: 'k-ten' })))
      for (const answer of during) await expectUnavailable(answer)
      await until(async () => (await fleet.control(1, '/__sim/health')).status === 503, 'health not ready')
      const health = (await (await fleet.control(0, '/__sim/health')).json()) as {
        status: string
        store: { ready: boolean; cause: string }
      }
      expect(health).toMatchObject({ status: 'unavailable', store: { ready: false } })
      expect(health.store.cause).toContain('shared store')
    } finally {
      redis.resume()
    }
    await until(async () => (await fleet.control(0, '/__sim/health')).status === 200, 'health ready again')
    // Back: the 4 left, and not one more, however the load was split.
    const after = await statusOf(Array.from({ length: 12 }, (_, index) => fleet.api(index % 2, '/pets?limit=1', { key: 'k-ten' })))
    expect(after.filter((status) => status === 200)).toHaveLength(4)
    expect(after.filter((status) => status === 429)).toHaveLength(8)
  })

  it('answers 503 under load while the store is killed, then serves again from a store that came back empty, seeded once', {
    timeout: 20_000,
  }, async () => {
    const load = Array.from({ length: 30 }, (_, index) => fleet.raw(index % 2, '/pets?limit=1', { key: 'k-big' }))
    await redis.kill()
    const answers = await Promise.all(load)
    const during = await Promise.all(Array.from({ length: 10 }, (_, index) => fleet.raw(index % 2, '/pets?limit=1', { key: 'k-ten' })))
    for (const answer of during) await expectUnavailable(answer)
    // Each answer under load was a served 200 or a 503 store_unavailable: nothing else, no crash.
    for (const answer of answers) expect([200, 503]).toContain(answer.status)
    await until(async () => (await fleet.control(1, '/__sim/health')).status === 503, 'health not ready')
    await redis.restart()
    await until(async () => (await fleet.raw(0, '/pets?limit=1', { key: 'k-big' })).status === 200, 'served again')
    // Seeded again from the options (4 pets), once, whichever instance got there first; the key's counts start over.
    const listed = await fleet.api(1, '/pets?limit=100', { key: 'k-big' })
    expect(((await listed.json()) as unknown[]).length).toBe(4)
    expect(redis.cli('GET', 'petstore-sim:format')).toBe('1')
    expect(redis.cli('HGET', 'petstore-sim:{default}:meta', 'epoch')).toBe('1')
    expect((await fleet.api(1, '/pets?limit=1', { key: 'k-ten' })).status).toBe(200)
    expect((await fleet.control(0, '/__sim/health')).status).toBe(200)
  })
})
