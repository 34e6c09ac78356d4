import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from './fleet.ts'

// A fault rule's `times` is the fleet's: each firing is claimed in the store, whichever instance answers.
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(3, { url: redis.socketUrl }, { seed: 7, pets: 5, keys: { 'k-many': 'enterprise:1000/100000' } })
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})
beforeEach(async () => {
  expect((await fleet.control(1, '/__sim/faults', 'DELETE')).status).toBe(200)
})

const json = async (response: Response) => (await response.json()) as any
const getPet = (index: number) => fleet.api(index, '/pets/1', { key: 'k-many' })
const addRules = async (index: number, rules: unknown) =>
  (await json(await fleet.control(index, '/__sim/faults', 'POST', rules))).ids as string[]
const listed = async (index: number) =>
  (await json(await fleet.control(index, '/__sim/faults'))).faults as Array<{ id: string; remaining?: number }>

describe("a fault rule's times across instances", () => {
  it('fires exactly `times` times however many requests reach however many instances at once', async () => {
    const [id] = await addRules(0, { operation: 'getPet', status: 503, times: 5 })
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => getPet(index % 3)))
    const faulted = answers.filter((answer) => answer.headers.get('petstore-sim-fault') === id)
    expect(faulted).toHaveLength(5)
    expect(faulted.map((answer) => answer.status)).toEqual(Array(5).fill(503))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(25)
    // Spent for the fleet: no instance lists it any more.
    for (const index of [0, 1, 2]) expect(await listed(index)).toEqual([])
  })

  it('shows on every instance what is left of it across the fleet', async () => {
    const [id] = await addRules(2, { operation: 'getPet', status: 503, times: 3 })
    expect((await getPet(0)).status).toBe(503)
    expect(await listed(2)).toMatchObject([{ id, remaining: 2 }])
    expect((await getPet(1)).status).toBe(503)
    expect(await listed(0)).toMatchObject([{ id, remaining: 1 }])
    expect(await listed(1)).toMatchObject([{ id, remaining: 1 }])
  })

  it('lets the next rule try when the fleet has spent a rule this instance still holds, as a spent rule does in memory', async () => {
    const [once, always] = await addRules(0, [
      { operation: 'getPet', status: 503, times: 1 },
      { operation: 'getPet', status: 500 },
    ])
    // Every instance's copy holds both rules before any fires.
    for (const index of [0, 1, 2]) expect((await listed(index)).map((rule) => rule.id)).toEqual([once, always])
    const first = await getPet(0)
    expect({ status: first.status, fault: first.headers.get('petstore-sim-fault') }).toEqual({ status: 503, fault: once })
    // Instance 1's copy still counts one firing of `once`: the store says it is spent, so `always` answers.
    const next = await getPet(1)
    expect({ status: next.status, fault: next.headers.get('petstore-sim-fault') }).toEqual({ status: 500, fault: always })
    expect((await listed(1)).map((rule) => rule.id)).toEqual([always])
  })

  it('counts a rule added after the rules were cleared from its own times', async () => {
    await addRules(0, { operation: 'getPet', status: 503, times: 1 })
    expect((await fleet.control(2, '/__sim/faults', 'DELETE')).status).toBe(200)
    // The ids start over after a clear: the new f1 is counted from its own times, not the old one's.
    const [again] = await addRules(1, { operation: 'getPet', status: 503, times: 2 })
    expect(again).toBe('f1')
    expect((await getPet(2)).status).toBe(503)
    expect((await getPet(0)).status).toBe(503)
    expect((await getPet(1)).status).toBe(200)
  })
})
