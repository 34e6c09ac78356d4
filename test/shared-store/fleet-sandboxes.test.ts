// Issue 40: sandboxes across a fleet. A sandbox lives in the store like the default world: its pets, limits and journal
// are the same whichever instance serves it (/sandboxes/<name>/v1/…), and still apart from every other world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatePets } from '../../src/core/catalogue/seed-pets.ts'
import { scenarioPetCount, scenarioSeed } from '../support/api-target.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import {
  apiBase,
  callApi,
  controlOk,
  freezeClock,
  startInstances,
  stopInstances,
  storeArgs,
  type StoreInstance,
} from '../support/store-fleet.ts'

const seededPets = generatePets({ seed: scenarioSeed, count: scenarioPetCount })
const frozenAt = '2030-06-15T10:00:30.000Z'
const key = 'sandbox-key'
const tiny = 'sandbox-tiny-key'

let server: RedisServer
let fleet: StoreInstance[]
let first: StoreInstance
let second: StoreInstance

beforeAll(async () => {
  server = await startRedisServer()
  fleet = await startInstances(2, storeArgs(server, 'fleet-sandboxes', { [key]: 'enterprise:1000/100000', [tiny]: 'enterprise:3/1000' }))
  ;[first, second] = fleet as [StoreInstance, StoreInstance]
}, 60_000)

afterAll(async () => {
  await stopInstances(fleet ?? [])
  await server?.stop()
})

const create = (instance: StoreInstance, sandbox: string | undefined, name: string) =>
  callApi(instance, '/pets', { key, sandbox, method: 'POST', body: { name, categoryId: 3 } })

describe('a sandbox served by several instances', () => {
  it("has the same pets on every instance, apart from another sandbox's and the default world's", async () => {
    const created = await create(first, 'team-a', 'Team A Rex')
    expect(created.status).toBe(201)
    expect(created.body.id).toBe(scenarioPetCount + 1)
    expect(created.headers.get('location')).toBe(`${apiBase('team-a')}/pets/${created.body.id}`)
    const read = await callApi(second, `/pets/${created.body.id}`, { key, sandbox: 'team-a' })
    expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: created.body })
    expect((await callApi(second, '/pets?limit=100', { key, sandbox: 'team-a' })).body).toEqual([...seededPets, created.body])
    // Not in team-b, not in the default world, on either instance; team-b's ids are its own.
    for (const instance of fleet) {
      expect((await callApi(instance, `/pets/${created.body.id}`, { key, sandbox: 'team-b' })).status).toBe(404)
      expect((await callApi(instance, `/pets/${created.body.id}`, { key })).status).toBe(404)
      expect((await callApi(instance, '/pets?limit=100', { key })).body).toEqual(seededPets)
    }
    const other = await create(second, 'team-b', 'Team B Rex')
    expect(other.body).toMatchObject({ id: scenarioPetCount + 1, name: 'Team B Rex' })
    expect((await callApi(first, `/pets/${other.body.id}`, { key, sandbox: 'team-a' })).body.name).toBe('Team A Rex')
  })

  it('makes a sandbox first reached on two instances at once from one seed: one catalogue, one id sequence', async () => {
    const created = await Promise.all(Array.from({ length: 10 }, (_, index) => create(fleet[index % 2]!, 'team-new', `New ${index}`)))
    expect(created.map((answer) => answer.status)).toEqual(Array(10).fill(201))
    expect(created.map((answer) => answer.body.id as number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, index) => scenarioPetCount + 1 + index),
    )
    const lists = await Promise.all(
      fleet.map(async (instance) => (await callApi(instance, '/pets?limit=100', { key, sandbox: 'team-new' })).body),
    )
    expect(lists[0]).toHaveLength(scenarioPetCount + 10)
    expect(lists[0].slice(0, scenarioPetCount)).toEqual(seededPets)
    expect(lists[1]).toEqual(lists[0])
  })

  it("counts a key's requests to a sandbox once across instances, apart from its counts elsewhere", async () => {
    await freezeClock(first, frozenAt, 'team-limits')
    await freezeClock(second, frozenAt, 'team-other')
    await freezeClock(second, frozenAt)
    const statuses = []
    for (const instance of [first, second, first, second, first]) {
      statuses.push((await callApi(instance, '/pets?limit=1', { key: tiny, sandbox: 'team-limits' })).status)
    }
    // 3 a minute in team-limits, whichever instance answers.
    expect(statuses).toEqual([200, 200, 200, 429, 429])
    // The same key is fresh in another sandbox and in the default world.
    for (const [instance, sandbox] of [
      [second, 'team-other'],
      [first, undefined],
    ] as const) {
      const answer = await callApi(instance, '/pets?limit=1', { key: tiny, sandbox })
      expect({ status: answer.status, remaining: answer.headers.get('x-ratelimit-remaining') }).toEqual({ status: 200, remaining: '2' })
    }
  })

  it("has one journal on every instance, holding that sandbox's requests only", async () => {
    const sent = Array.from({ length: 6 }, (_, index) => `journal-${index}`)
    for (const [index, id] of sent.entries()) {
      await callApi(fleet[index % 2]!, '/pets?limit=1', { key, sandbox: 'team-journal', headers: { 'x-request-id': id } })
    }
    await callApi(first, '/pets?limit=1', { key, sandbox: 'team-quiet', headers: { 'x-request-id': 'quiet-0' } })
    await callApi(second, '/pets?limit=1', { key, headers: { 'x-request-id': 'default-0' } })
    const ids = async (instance: StoreInstance, sandbox: string | undefined) =>
      ((await controlOk(instance, '/requests', { sandbox })).requests as Array<{ request: { headers: Record<string, string> } }>).map(
        (entry) => entry.request.headers['x-request-id'],
      )
    for (const instance of fleet) {
      expect(await ids(instance, 'team-journal')).toEqual(sent)
      expect(await ids(instance, 'team-quiet')).toEqual(['quiet-0'])
      const defaults = await ids(instance, undefined)
      expect(defaults).toContain('default-0')
      expect(defaults.filter((id) => id?.startsWith('journal-') || id === 'quiet-0')).toEqual([])
    }
    const entries = (await controlOk(second, '/requests', { sandbox: 'team-journal' })).requests as Array<{
      path: string
      sequence: number
    }>
    expect(entries.map((entry) => entry.path)).toEqual(Array(sent.length).fill(`${apiBase('team-journal')}/pets?limit=1`))
    expect(entries.map((entry) => entry.sequence)).toEqual(sent.map((_, index) => index + 1))
  })

  it('lists the fleet’s sandboxes on every instance', async () => {
    const names = async (instance: StoreInstance) =>
      ((await controlOk(instance, '/sandboxes')).sandboxes as Array<{ name: string }>).map((sandbox) => sandbox.name).sort()
    const listed = await names(first)
    expect(listed).toEqual(expect.arrayContaining(['team-a', 'team-b', 'team-journal', 'team-limits', 'team-new']))
    expect(await names(second)).toEqual(listed)
  })
})
