// Issue 40: one world across a fleet. Pets, ids, the clock, the journal, resets and fault rules live in the store, so
// what a client does through one instance is what every other instance shows from its next request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { generatePets } from '../../src/core/catalogue/seed-pets.ts'
import { scenarioPetCount, scenarioSeed } from '../support/api-target.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import {
  apiBase,
  callApi,
  controlOk,
  freezeClock,
  limitHeaders,
  startInstances,
  stopInstances,
  storeArgs,
  type StoreInstance,
} from '../support/store-fleet.ts'

const seededPets = generatePets({ seed: scenarioSeed, count: scenarioPetCount })
const frozenAt = '2030-06-15T10:00:30.000Z'
const key = 'fleet-state-key'

let server: RedisServer
let fleet: StoreInstance[]
let first: StoreInstance
let second: StoreInstance
let third: StoreInstance

beforeAll(async () => {
  server = await startRedisServer()
  fleet = await startInstances(3, storeArgs(server, 'fleet-state', { [key]: 'enterprise:1000/100000' }))
  ;[first, second, third] = fleet as [StoreInstance, StoreInstance, StoreInstance]
}, 60_000)

afterAll(async () => {
  await stopInstances(fleet ?? [])
  await server?.stop()
})

beforeEach(async () => {
  // Each test from a fresh world: reset through one instance, the clock frozen through another.
  await controlOk(third, '/reset', { method: 'POST' })
  await freezeClock(second, frozenAt)
})

describe('pets across instances', () => {
  it('serves the same seeded catalogue on every instance', async () => {
    for (const instance of fleet) expect((await callApi(instance, '/pets?limit=100', { key })).body).toEqual(seededPets)
  })

  it('reads on one instance a pet created on another: getPet and listPets', async () => {
    const created = await callApi(first, '/pets', { key, method: 'POST', body: { name: 'Fleet Rex', categoryId: 2 } })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ id: scenarioPetCount + 1, name: 'Fleet Rex', categoryId: 2, status: 'available' })
    for (const other of [second, third]) {
      const read = await callApi(other, `/pets/${created.body.id}`, { key })
      expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: created.body })
      expect((await callApi(other, '/pets?limit=100', { key })).body).toEqual([...seededPets, created.body])
    }
  })

  it('gives unique ids in one sequence to pets created concurrently on every instance', async () => {
    const perInstance = 10
    const created = await Promise.all(
      Array.from({ length: perInstance * fleet.length }, (_, index) =>
        callApi(fleet[index % fleet.length]!, '/pets', { key, method: 'POST', body: { name: `Pet ${index}`, categoryId: 1 } }),
      ),
    )
    expect(created.map((answer) => answer.status)).toEqual(Array(created.length).fill(201))
    const ids = created.map((answer) => answer.body.id as number).sort((a, b) => a - b)
    expect(ids).toEqual(Array.from({ length: created.length }, (_, index) => scenarioPetCount + 1 + index))
    // Every instance lists the same catalogue, in id order.
    const lists = await Promise.all(fleet.map(async (instance) => (await callApi(instance, '/pets?limit=100', { key })).body))
    expect(lists[0].map((pet: { id: number }) => pet.id)).toEqual([...seededPets.map((pet) => pet.id), ...ids])
    expect(lists[1]).toEqual(lists[0])
    expect(lists[2]).toEqual(lists[0])
  })
})

describe('one clock', () => {
  it('holds on every instance the clock moved through one', async () => {
    await controlOk(first, '/clock', { method: 'POST', body: { set: '2031-01-01T00:00:00.000Z', freeze: true } })
    for (const other of [second, third]) {
      expect(await controlOk(other, '/clock')).toMatchObject({ now: '2031-01-01T00:00:00.000Z', frozen: true })
      // And the API reads it: the minute window ends a minute after the instant set through the first instance.
      const answer = await callApi(other, '/pets?limit=1', { key })
      expect(limitHeaders(answer).reset).toBe(Date.parse('2031-01-01T00:01:00.000Z') / 1000)
    }
    await controlOk(third, '/clock', { method: 'POST', body: { advance: '90s' } })
    expect(await controlOk(first, '/clock')).toMatchObject({ now: '2031-01-01T00:01:30.000Z', frozen: true })
  })

  it("answers getPet's 410 on every instance once the clock moved through one passes the removal date", async () => {
    await controlOk(first, '/clock', { method: 'POST', body: { set: '2030-12-05T00:00:00.000Z' } })
    for (const instance of fleet) {
      const gone = await callApi(instance, '/pets/1', { key })
      expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 410, code: 'endpoint_removed' })
    }
  })
})

describe('one journal', () => {
  it('lists on every instance the requests every instance answered, in one sequence', async () => {
    const sent = Array.from({ length: 15 }, (_, index) => ({ instance: fleet[index % 3]!, id: `req-${index}` }))
    // Some one after the other, the rest at once.
    for (const { instance, id } of sent.slice(0, 5)) await callApi(instance, '/pets?limit=1', { key, headers: { 'x-request-id': id } })
    await Promise.all(sent.slice(5).map(({ instance, id }) => callApi(instance, '/pets?limit=1', { key, headers: { 'x-request-id': id } })))
    const journals = await Promise.all(
      fleet.map(async (instance) => {
        const { requests } = await controlOk(instance, '/requests')
        return (requests as Array<{ sequence: number; request: { headers: Record<string, string> } }>).map((entry) => ({
          sequence: entry.sequence,
          id: entry.request.headers['x-request-id'],
        }))
      }),
    )
    // The reset emptied the fleet's journal: these 15 requests, numbered 1 to 15 once each.
    expect(journals[0]!.map((entry) => entry.sequence)).toEqual(Array.from({ length: sent.length }, (_, index) => index + 1))
    expect(new Set(journals[0]!.map((entry) => entry.id))).toEqual(new Set(sent.map(({ id }) => id)))
    // The five sent one after the other are in the order they were sent.
    expect(journals[0]!.slice(0, 5).map((entry) => entry.id)).toEqual(sent.slice(0, 5).map(({ id }) => id))
    expect(journals[1]).toEqual(journals[0])
    expect(journals[2]).toEqual(journals[0])
    // The journal's count and wait read the fleet's too.
    expect(await controlOk(second, '/requests/count')).toEqual({ count: sent.length })
    const waited = await controlOk(third, `/requests/wait?header.x-request-id=req-0&timeoutMs=0`)
    expect(waited.request.sequence).toBe(1)
  })

  it("clears the fleet's journal through one instance", async () => {
    await callApi(first, '/pets?limit=1', { key })
    await callApi(second, '/pets?limit=1', { key })
    await controlOk(third, '/requests', { method: 'DELETE' })
    await callApi(second, '/pets?limit=1', { key, headers: { 'x-request-id': 'after-clear' } })
    const { requests } = await controlOk(first, '/requests')
    expect(requests.map((entry: { sequence: number }) => entry.sequence)).toEqual([1])
    expect(requests[0].request.headers['x-request-id']).toBe('after-clear')
    expect(requests[0].path).toBe(`${apiBase()}/pets?limit=1`)
  })
})

describe('control changes through one instance hold on the others', () => {
  it('resets the whole fleet: pets created, counts and the journal gone', async () => {
    const created = await callApi(first, '/pets', { key, method: 'POST', body: { name: 'Gone Soon', categoryId: 1 } })
    expect(created.status).toBe(201)
    expect(limitHeaders(await callApi(second, '/pets?limit=1', { key })).remaining).toBe(998)
    await controlOk(third, '/reset', { method: 'POST' })
    await freezeClock(third, frozenAt)
    const gone = await callApi(second, `/pets/${created.body.id}`, { key })
    expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 404, code: 'pet_not_found' })
    expect((await callApi(first, '/pets?limit=100', { key })).body).toEqual(seededPets)
    // The counts started over (the two requests just above counted from a fresh window), and the journal holds them only.
    expect(limitHeaders(await callApi(first, '/pets?limit=1', { key })).remaining).toBe(997)
    expect((await controlOk(second, '/requests')).requests).toHaveLength(3)
    // Ids start over too.
    const again = await callApi(third, '/pets', { key, method: 'POST', body: { name: 'Again', categoryId: 1 } })
    expect(again.body.id).toBe(scenarioPetCount + 1)
  })

  it('applies on every instance a fault rule added through one, until it is removed through another', async () => {
    const { ids } = await controlOk(first, '/faults', { method: 'POST', body: { operation: 'listPets', status: 503 } })
    const id = ids[0] as string
    for (const instance of fleet) {
      const failed = await callApi(instance, '/pets?limit=1', { key })
      expect({ status: failed.status, code: failed.body.code, fault: failed.headers.get('petstore-sim-fault') }).toEqual({
        status: 503,
        code: 'service_unavailable',
        fault: id,
      })
      expect((await controlOk(instance, '/faults')).faults.map((rule: { id: string }) => rule.id)).toEqual([id])
    }
    await controlOk(second, `/faults/${id}`, { method: 'DELETE' })
    for (const instance of fleet) expect((await callApi(instance, '/pets?limit=1', { key })).status).toBe(200)
  })

  it("counts a rule's times across the fleet: a rule for 2 answers fires twice in all", async () => {
    await controlOk(third, '/faults', { method: 'POST', body: { operation: 'getPet', status: 503, times: 2 } })
    const statuses = []
    for (const instance of [first, second, third, first]) statuses.push((await callApi(instance, '/pets/1', { key })).status)
    expect(statuses).toEqual([503, 503, 200, 200])
  })
})
