import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from './fleet.ts'

// Sandboxes in the store: the fleet's cap and idle expiry hold whichever instances the sandboxes were made on.
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(2, { url: redis.socketUrl }, { seed: 5, pets: 3, sandboxes: { max: 2, idleMs: 600 } })
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})

const inSandbox = (index: number, name: string, path: string, init: RequestInit = {}) =>
  fetch(`${fleet.origins[index]}/sandboxes/${name}/v1${path}`, {
    ...init,
    headers: { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  })

describe('sandboxes across instances', () => {
  it('refuses a sandbox past the fleet-wide cap, on an instance that holds fewer', async () => {
    const made = await inSandbox(0, 'one', '/pets', { method: 'POST', body: JSON.stringify({ name: 'Kept', categoryId: 1 }) })
    expect(made.status).toBe(201)
    expect((await inSandbox(1, 'two', '/pets?limit=1')).status).toBe(200)
    // Instance 0 holds one sandbox of its own: the third of the fleet is refused all the same.
    const third = await inSandbox(0, 'three', '/pets?limit=1')
    expect(third.status).toBe(503)
    expect(await third.json()).toMatchObject({ code: 'too_many_sandboxes' })
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    // A sandbox the fleet holds is served on either instance, its pet with it.
    const pet = (await made.json()) as { id: number }
    expect((await inSandbox(1, 'one', `/pets/${pet.id}`)).status).toBe(200)
    expect(redis.cli('ZCARD', 'petstore-sim:sandboxes')).toBe('2')
  })

  it('starts a sandbox no instance used for its idle expiry fresh, and frees its place', async () => {
    await new Promise((resolve) => setTimeout(resolve, 700))
    // Past the expiry: a new sandbox fits again, and the expired ones' keys are gone from the store.
    expect((await inSandbox(1, 'three', '/pets?limit=1')).status).toBe(200)
    expect(redis.cli('KEYS', 'petstore-sim:{sandbox:two}:*')).toBe('')
    const fresh = await inSandbox(0, 'one', '/pets?limit=100')
    expect(((await fresh.json()) as unknown[]).length).toBe(3)
  })

  it('deletes a sandbox for the fleet through any instance', async () => {
    // The earlier ones expire first: the cap is 2.
    await new Promise((resolve) => setTimeout(resolve, 700))
    const made = (await (
      await inSandbox(0, 'gone', '/pets', { method: 'POST', body: JSON.stringify({ name: 'Boxed', categoryId: 1 }) })
    ).json()) as { id: number }
    expect((await inSandbox(1, 'gone', `/pets/${made.id}`)).status).toBe(200)
    expect((await fetch(`${fleet.origins[1]}/__sim/sandboxes/gone`, { method: 'DELETE' })).status).toBeLessThan(300)
    expect(redis.cli('ZSCORE', 'petstore-sim:sandboxes', 'gone')).toBe('')
    // Instance 0 still held its copy: its next request finds the sandbox gone from the store and starts it fresh.
    expect((await inSandbox(0, 'gone', `/pets/${made.id}`)).status).toBe(404)
  })
})
