import { afterAll, beforeAll, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from './fleet.ts'

// Issue 45: a created-pets list another process pushed past the fleet's cap (`maxPets`, which the createPet script
// keeps) would fill the instance's copy: refused as 503 store_corrupt naming the list, not a 500.
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(1, { url: redis.socketUrl }, { maxPets: 3 })
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})

it('refuses created pets past the cap as store_corrupt, and serves again after a reset', async () => {
  const list = `petstore-sim:{default}:e${redis.cli('HGET', 'petstore-sim:{default}:meta', 'epoch')}:created`
  for (let index = 0; index < 5; index++) redis.cli('RPUSH', list, JSON.stringify({ name: `pushed-${index}`, categoryId: 1 }))
  const answer = await fleet.raw(0, '/pets?limit=1')
  expect(answer.status).toBe(503)
  const body = (await answer.json()) as { code: string; message: string }
  expect(body.code).toBe('store_corrupt')
  expect(body.message).toContain(list)
  expect((await fleet.control(0, '/__sim/health')).status).toBe(503)
  expect((await fleet.control(0, '/__sim/reset', 'POST', {})).status).toBe(200)
  expect((await fleet.api(0, '/pets?limit=1')).status).toBe(200)
  expect((await fleet.control(0, '/__sim/health')).status).toBe(200)
})
