import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from './fleet.ts'

// Issue 45, Low 10: anonymous callers (one bucket per client address) are capped in the store as in memory
// (`maxAnonymousBuckets`, defaults.ts), the least recently used dropped; and a control read reads them in bounded
// batches, not in one script over all of them (50,000 addresses blocked Redis 290 ms per control read).
const cap = 1100
const addresses = 1300
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(2, { url: redis.socketUrl }, { maxAnonymousBuckets: cap })
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})

/** An anonymous request from `address`, through the app's own fetch (the transport names the client's address). */
const anonymous = (index: number, address: string) =>
  fleet.apps[index % 2]!.fetch(new Request('http://127.0.0.1/v1/pets?limit=1'), { clientAddress: address })

const addressOf = (n: number) => `10.1.${Math.floor(n / 250)}.${n % 250}`

const anonymousKeys = () => redis.cli('--scan', '--pattern', 'petstore-sim:{default}:e*:rl:anonymous:*').split('\n').filter(Boolean)

describe('anonymous callers in the store', () => {
  it(`keeps at most ${cap} of ${addresses} addresses, the most recently used, and /__sim/state counts them`, {
    timeout: 60_000,
  }, async () => {
    for (let first = 0; first < addresses; first += 25) {
      const batch = Array.from({ length: Math.min(25, addresses - first) }, (_, offset) => first + offset)
      const answers = await Promise.all(batch.map((n) => anonymous(n, addressOf(n))))
      for (const answer of answers) expect(answer.status).toBe(401)
    }
    const held = anonymousKeys()
    expect(held.length).toBeLessThanOrEqual(cap)
    expect(held.length).toBeGreaterThan(cap - 10)
    // The last address is among those kept, the first is not.
    expect(held.some((name) => name.endsWith(`anonymous:${addressOf(addresses - 1)}`))).toBe(true)
    expect(held.some((name) => name.endsWith(`anonymous:${addressOf(0)}`))).toBe(false)
    // A control read on either instance sees the fleet's anonymous callers, within the cap.
    for (const index of [0, 1]) {
      const state = (await (await fleet.control(index, '/__sim/state')).json()) as { anonymous: { buckets: number } }
      expect(state.anonymous.buckets).toBe(held.length)
    }
  })
})
