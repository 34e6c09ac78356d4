// Issue 45, Medium 7, with a shared store: a request that may not make a sandbox still reaches one the fleet has,
// on an instance that holds no copy of it yet (any replica answers any request, sandboxes included), and one the
// fleet does not have is a 404 sandbox_not_found that enters nothing in the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from '../shared-store/fleet.ts'

let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(2, { url: redis.socketUrl }, { seed: 5, pets: 3, sandboxes: { max: 2 } })
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})

describe('sandbox admission across instances', () => {
  it('makes none for 60 keyless requests, and serves a keyless request a sandbox made on another instance', async () => {
    for (let index = 0; index < 60; index++) {
      const response = await fetch(`${fleet.origins[index % 2]}/sandboxes/junk-${index}/v1/pets`)
      expect(response.status).toBe(404)
      expect(((await response.json()) as { code: string }).code).toBe('sandbox_not_found')
    }
    expect(redis.cli('ZCARD', 'petstore-sim:sandboxes')).toBe('0')
    const made = await fetch(`${fleet.origins[0]}/sandboxes/team-a/v1/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro-key' } })
    expect(made.status).toBe(200)
    // Instance 1 holds no copy of team-a: the keyless request reaches it, and is the API's own 401.
    const keyless = await fetch(`${fleet.origins[1]}/sandboxes/team-a/v1/pets`)
    expect(keyless.status).toBe(401)
    expect(((await keyless.json()) as { code: string }).code).toBe('missing_api_key')
    expect(redis.cli('ZCARD', 'petstore-sim:sandboxes')).toBe('1')
    expect((await fetch(`${fleet.origins[1]}/__sim/sandboxes/ci-job-1`, { method: 'PUT' })).status).toBe(201)
  })
})
