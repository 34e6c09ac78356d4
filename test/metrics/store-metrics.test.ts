import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from '../shared-store/fleet.ts'

// With --store: the store's availability, round trips and errors, as this instance met them; and the scrape answered
// while the store is away (a scrape that needed the store would say nothing exactly when it matters).
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(1, { url: redis.socketUrl }, { seed: 7, pets: 5, keys: { 'demo-pro-key': 'pro' } })
})
afterAll(async () => {
  redis?.resume()
  await fleet?.close()
  await redis?.stop()
})

async function scrape(): Promise<Map<string, number>> {
  const response = await fleet.control(0, '/__sim/metrics')
  expect(response.status).toBe(200)
  const samples = new Map<string, number>()
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const at = line.lastIndexOf(' ')
    samples.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return samples
}

describe('GET /__sim/metrics with a shared store', () => {
  it('serves the store up, its round trips and errors, and answers while the store does not', async () => {
    for (let index = 0; index < 3; index++) expect((await fleet.api(0, '/pets', { key: 'demo-pro-key' })).status).toBe(200)
    const before = await scrape()
    expect(before.get('petstore_sim_store_up')).toBe(1)
    expect(before.get('petstore_sim_store_errors_total')).toBe(0)
    // Each request is at least one script on the store.
    expect(before.get('petstore_sim_store_round_trip_seconds_count')).toBeGreaterThanOrEqual(3)
    expect(before.get('petstore_sim_store_round_trip_seconds_bucket{le="+Inf"}')).toBe(
      before.get('petstore_sim_store_round_trip_seconds_count'),
    )
    expect(before.get('petstore_sim_requests_total{sandbox="",operation="listPets",status="200"}')).toBe(3)

    redis.pause()
    try {
      // The store's timeout is 300 ms (fleet.ts): the request fails closed, and the call counts as an error.
      expect((await fleet.raw(0, '/pets', { key: 'demo-pro-key' })).status).toBe(503)
      const during = await scrape()
      expect(during.get('petstore_sim_store_up')).toBe(0)
      expect(during.get('petstore_sim_store_errors_total')).toBeGreaterThanOrEqual(1)
      // A request the store could not decide counted nothing and is journaled nowhere (docs/metrics.md): it shows
      // as the store's error, not as an API request.
      expect(during.get('petstore_sim_requests_total{sandbox="",operation="listPets",status="503"}')).toBeUndefined()
      expect(during.get('petstore_sim_requests_total{sandbox="",operation="listPets",status="200"}')).toBe(3)
    } finally {
      redis.resume()
    }
  })
})
