// Issue 46: `/__sim/health` on every instance says the fleet's state (pets, clock), not what the instance's copy held
// at its last request: instance B said `pets: 50, frozen: false` after a pet was created and the clock frozen through
// A, until B served an API request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scenarioPetCount } from '../support/api-target.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import {
  callApi,
  control,
  controlOk,
  freezeClock,
  startInstances,
  stopInstances,
  storeArgs,
  type StoreInstance,
} from '../support/store-fleet.ts'

const key = 'fleet-health-key'
const frozenAt = '2031-01-02T03:04:05.000Z'

let server: RedisServer
let fleet: StoreInstance[]

beforeAll(async () => {
  server = await startRedisServer()
  fleet = await startInstances(2, storeArgs(server, 'fleet-health', { [key]: 'enterprise:1000/100000' }))
}, 60_000)

afterAll(async () => {
  await stopInstances(fleet ?? [])
  await server?.stop()
})

describe('health on every instance of a fleet', () => {
  it('shows a pet created and a clock frozen through another instance, before any API request of its own', async () => {
    const [first, second] = fleet as [StoreInstance, StoreInstance]
    await controlOk(first, '/reset', { method: 'POST' })
    const before = await control(second, '/health')
    expect(before.body).toMatchObject({ status: 'ok', pets: scenarioPetCount, frozen: false })
    const created = await callApi(first, '/pets', { key, method: 'POST', body: { name: 'Health Rex', categoryId: 1 } })
    expect(created.status).toBe(201)
    await freezeClock(first, frozenAt)
    const after = await control(second, '/health')
    expect({ status: after.status, body: after.body }).toMatchObject({
      status: 200,
      body: { status: 'ok', pets: scenarioPetCount + 1, frozen: true, now: frozenAt },
    })
  })
})
