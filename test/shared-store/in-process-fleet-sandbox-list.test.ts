import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { newPet, startFleet, type Fleet } from './fleet.ts'

// The fleet's sandboxes, listed, made and deleted through any instance, whichever instances hold a copy of them.
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(2, { url: redis.socketUrl }, { seed: 5, pets: 3, sandboxes: { max: 2, idleMs: 600_000 } })
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})

const json = async (response: Response) => (await response.json()) as any
const inSandbox = (index: number, name: string, path: string, init: RequestInit = {}) =>
  fetch(`${fleet.origins[index]}/sandboxes/${name}/v1${path}`, {
    ...init,
    headers: { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  })
const sandboxes = async (index: number) => json(await fleet.control(index, '/__sim/sandboxes'))

describe("the fleet's sandboxes", () => {
  it('lists on an instance that never served them the sandboxes of the fleet, with the store’s figures', async () => {
    expect((await inSandbox(0, 'made-on-0', '/pets', newPet('Boxed'))).status).toBe(201)
    expect((await inSandbox(0, 'made-on-0', '/pets?limit=1')).status).toBe(200)
    const listed = await sandboxes(1)
    expect(listed).toMatchObject({ max: 2, idleExpiryMs: 600_000, total: { sandboxes: 1, pets: 4, requests: 2 } })
    const [entry] = listed.sandboxes
    expect(entry).toMatchObject({
      name: 'made-on-0',
      apiPath: '/sandboxes/made-on-0/v1',
      controlPath: '/sandboxes/made-on-0/__sim',
      pets: 4,
      requests: 2,
      scenario: 'default',
    })
    expect(Date.parse(entry.expiresAt) - Date.parse(entry.lastUsedAt)).toBe(600_000)
    expect(Date.parse(entry.createdAt)).toBeLessThanOrEqual(Date.parse(entry.lastUsedAt))
    expect(await sandboxes(0)).toEqual(listed)
  })

  it('makes a sandbox for the fleet through one instance (PUT), once', async () => {
    const made = await fleet.control(1, '/__sim/sandboxes/put-on-1', 'PUT')
    expect(made.status).toBe(201)
    expect(await json(made)).toMatchObject({ name: 'put-on-1', pets: 3, requests: 0, created: true })
    // Another instance finds it made, and lists it.
    const again = await fleet.control(0, '/__sim/sandboxes/put-on-1', 'PUT')
    expect({ status: again.status, created: (await json(again)).created }).toEqual({ status: 200, created: false })
    expect((await sandboxes(0)).sandboxes.map((sandbox: { name: string }) => sandbox.name)).toEqual(['made-on-0', 'put-on-1'])
    // The fleet is at its cap (2): a third is refused on either instance, by PUT or by a request.
    const refused = await fleet.control(0, '/__sim/sandboxes/third', 'PUT')
    expect({ status: refused.status, code: (await json(refused)).code }).toEqual({ status: 503, code: 'too_many_sandboxes' })
    expect((await inSandbox(1, 'third', '/pets?limit=1')).status).toBe(503)
  })

  it('deletes a sandbox for the fleet through an instance that holds no copy of it, and frees its place', async () => {
    // Instance 1 never served made-on-0; instance 0 never served put-on-1 through its API.
    expect((await fleet.control(1, '/__sim/sandboxes/made-on-0', 'DELETE')).status).toBe(204)
    expect((await fleet.control(1, '/__sim/sandboxes/made-on-0', 'DELETE')).status).toBe(404)
    expect((await sandboxes(0)).sandboxes.map((sandbox: { name: string }) => sandbox.name)).toEqual(['put-on-1'])
    // Instance 0 still holds its copy of made-on-0: the next request there starts it fresh from the store.
    expect((await json(await inSandbox(0, 'made-on-0', '/pets?limit=100'))).length).toBe(3)
  })

  it("refuses no sandbox below the fleet's cap on an instance whose copies fill its own", async () => {
    // Instance 0 holds copies of made-on-0 and put-on-1 (its cap is 2); both are deleted through instance 1.
    expect((await inSandbox(0, 'put-on-1', '/pets?limit=1')).status).toBe(200)
    for (const name of ['made-on-0', 'put-on-1']) expect((await fleet.control(1, `/__sim/sandboxes/${name}`, 'DELETE')).status).toBe(204)
    expect((await sandboxes(0)).total.sandboxes).toBe(0)
    // The fleet holds none: two new ones are made on instance 0, which forgets its stale copies.
    for (const name of ['fresh-1', 'fresh-2']) expect((await inSandbox(0, name, '/pets?limit=1')).status).toBe(200)
    expect((await sandboxes(1)).sandboxes.map((sandbox: { name: string }) => sandbox.name)).toEqual(['fresh-1', 'fresh-2'])
  })

  it("enters a sandbox reached through its own control plane in the fleet's list", async () => {
    expect((await fleet.control(1, '/__sim/sandboxes/fresh-1', 'DELETE')).status).toBe(204)
    const reset = await fetch(`${fleet.origins[1]}/sandboxes/control-only/__sim/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(reset.status).toBe(200)
    expect((await sandboxes(0)).sandboxes.map((sandbox: { name: string }) => sandbox.name)).toEqual(['fresh-2', 'control-only'])
  })
})
