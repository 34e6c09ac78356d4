import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { newPet, startFleet, type Fleet } from './fleet.ts'

// One API across instances: what is done through one is what every other answers from, from its next request.
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(3, { url: redis.socketUrl }, { seed: 7, pets: 5, keys: { 'k-two': 'enterprise:2/1000', 'demo-pro-key': 'pro' } })
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})
const json = async (response: Response) => (await response.json()) as any

describe('one world across instances', () => {
  it('seeds the catalogue once and reads on one instance a pet created on another', async () => {
    expect((await json(await fleet.api(2, '/pets?limit=100', { key: 'demo-pro-key' }))).map((pet: any) => pet.id)).toEqual([1, 2, 3, 4, 5])
    const created = await fleet.api(0, '/pets', { ...newPet('Rex'), key: 'demo-pro-key' })
    expect(created.status).toBe(201)
    const rex = await json(created)
    const onAnother = await fleet.api(1, `/pets/${rex.id}`, { key: 'demo-pro-key' })
    expect(await json(onAnother)).toEqual(rex)
    // Ids come from the store: concurrent creates on every instance never share one.
    const many = await Promise.all(
      [0, 1, 2, 0, 1, 2].map(async (index) => json(await fleet.api(index, '/pets', { ...newPet('Fido'), key: 'demo-pro-key' }))),
    )
    const ids = many.map((pet) => pet.id)
    expect(new Set(ids).size).toBe(6)
    const listed = await json(await fleet.api(2, '/pets?limit=100', { key: 'demo-pro-key' }))
    expect(listed.map((pet: any) => pet.id)).toEqual([1, 2, 3, 4, 5, rex.id, ...ids.sort((a, b) => a - b)])
  })

  it('moves the clock for every instance, and the limit windows with it', async () => {
    for (const index of [0, 1]) expect((await fleet.api(index, '/pets?limit=1', { key: 'k-two' })).status).toBe(200)
    expect((await fleet.api(2, '/pets?limit=1', { key: 'k-two' })).status).toBe(429)
    const moved = await json(await fleet.control(0, '/__sim/clock', 'POST', { advance: '61s' }))
    const seen = await json(await fleet.control(1, '/__sim/clock'))
    expect(Math.abs(seen.epochMs - moved.epochMs)).toBeLessThan(5_000)
    expect(seen.epochMs - Date.now()).toBeGreaterThan(55_000)
    // A new minute on the store's clock: the next request on a third instance is allowed again.
    expect((await fleet.api(2, '/pets?limit=1', { key: 'k-two' })).status).toBe(200)
    await fleet.control(1, '/__sim/clock', 'POST', { set: '2030-01-01T00:00:00Z', freeze: true })
    const frozen = await fleet.api(2, '/pets?limit=1', { key: 'demo-pro-key' })
    expect(frozen.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2030-01-01T00:01:00Z') / 1000))
    expect(await json(await fleet.control(0, '/__sim/clock'))).toMatchObject({ now: '2030-01-01T00:00:00.000Z', frozen: true })
  })

  it('holds fault rules fleet-wide, and their removal', async () => {
    const added = await json(await fleet.control(0, '/__sim/faults', 'POST', { operation: 'listPets', status: 503 }))
    const faulted = await fleet.api(1, '/pets?limit=1', { key: 'demo-pro-key' })
    expect(faulted.status).toBe(503)
    expect(faulted.headers.get('petstore-sim-fault')).toBe(added.ids[0])
    expect((await json(await fleet.control(2, '/__sim/faults'))).faults).toMatchObject([
      { id: added.ids[0], operation: 'listPets', status: 503 },
    ])
    expect((await fleet.control(2, '/__sim/faults', 'DELETE')).status).toBeLessThan(300)
    expect((await fleet.api(0, '/pets?limit=1', { key: 'demo-pro-key' })).status).toBe(200)
  })

  it("lists every instance's requests in the journal of any, with one sequence", async () => {
    expect((await fleet.control(1, '/__sim/requests', 'DELETE')).status).toBeLessThan(300)
    for (const index of [0, 1, 2, 0]) await fleet.api(index, `/pets?limit=${index + 1}`, { key: 'demo-pro-key' })
    for (const index of [0, 1, 2]) {
      const { requests } = await json(await fleet.control(index, '/__sim/requests'))
      expect(requests.map((entry: any) => [entry.sequence, entry.path])).toEqual([
        [1, '/v1/pets?limit=1'],
        [2, '/v1/pets?limit=2'],
        [3, '/v1/pets?limit=3'],
        [4, '/v1/pets?limit=1'],
      ])
    }
    // waitFor on one instance sees a request answered by another.
    const waiting = fleet.control(2, '/__sim/requests/wait?operation=getPet&timeoutMs=5000')
    await new Promise((resolve) => setTimeout(resolve, 100))
    await fleet.api(0, '/pets/1', { key: 'demo-pro-key' })
    expect((await json(await waiting)).request).toMatchObject({ operation: 'getPet', path: '/v1/pets/1' })
  })

  it("feeds every instance's pact and coverage from the whole fleet", async () => {
    await fleet.api(1, '/pets/999999', { key: 'demo-pro-key' })
    const coverage = await json(await fleet.control(2, '/__sim/coverage'))
    // The 404 answered on another instance is counted (every documented status is listed, met or not: its count says).
    const getPet = coverage.operations.find((operation: any) => operation.operation === 'getPet')
    expect(getPet.statuses.find((status: any) => status.status === 404).count).toBeGreaterThanOrEqual(1)
    const pact = await json(await fleet.control(0, '/__sim/requests.pact'))
    expect(pact.interactions.some((interaction: any) => interaction.response.status === 404)).toBe(true)
  })

  it('resets every instance: the pets created are gone everywhere', async () => {
    const rex = await json(await fleet.api(0, '/pets', { ...newPet('Gone'), key: 'demo-pro-key' }))
    expect((await fleet.control(1, '/__sim/reset', 'POST', {})).status).toBe(200)
    expect((await fleet.api(2, `/pets/${rex.id}`, { key: 'demo-pro-key' })).status).toBe(404)
    expect((await json(await fleet.api(0, '/pets?limit=100', { key: 'demo-pro-key' }))).length).toBe(5)
    const { requests } = await json(await fleet.control(0, '/__sim/requests'))
    expect(requests.map((entry: any) => entry.sequence)).toEqual([1, 2])
  })

  it('shares a sandbox across instances and keeps it apart from the others', async () => {
    const made = await json(
      await fetch(`${fleet.origins[0]}/sandboxes/team-a/v1/pets`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-pro-key', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Boxed', categoryId: 2 }),
      }),
    )
    const read = await fetch(`${fleet.origins[1]}/sandboxes/team-a/v1/pets/${made.id}`, {
      headers: { authorization: 'Bearer demo-pro-key' },
    })
    expect(await json(read)).toEqual(made)
    expect(
      (await fetch(`${fleet.origins[2]}/sandboxes/team-b/v1/pets/${made.id}`, { headers: { authorization: 'Bearer demo-pro-key' } }))
        .status,
    ).toBe(404)
    expect((await fleet.api(2, `/pets/${made.id}`, { key: 'demo-pro-key' })).status).toBe(404)
    const { requests } = await json(await fetch(`${fleet.origins[2]}/sandboxes/team-a/__sim/requests`))
    expect(requests.map((entry: any) => entry.path)).toEqual(['/sandboxes/team-a/v1/pets', `/sandboxes/team-a/v1/pets/${made.id}`])
  })
})
