import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { newPet, startFleet, type Fleet } from './fleet.ts'

// Control changes made at the same moment through different instances: each is run on a copy of the world and
// published only if the world is still at that copy's version, so none is lost. And a control change the store did
// not take in time (answered 503) is neither the fleet's nor the answering instance's afterwards.
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(3, { url: redis.socketUrl }, { seed: 7, pets: 5, keys: { 'demo-pro-key': 'pro' } })
})
afterAll(async () => {
  redis?.resume()
  await fleet?.close()
  await redis?.stop()
})
const json = async (response: Response) => (await response.json()) as any
const rounds = 4
const faultsOn = async (index: number) =>
  (await json(await fleet.control(index, '/__sim/faults'))).faults as { id: string; operation: string }[]

describe('control changes through several instances at once', () => {
  it('keeps every fault rule added at the same moment, each under its own id, on every instance', async () => {
    for (let round = 0; round < rounds; round++) {
      expect((await fleet.control(0, '/__sim/reset', 'POST', {})).status).toBeLessThan(300)
      const operations = ['getPet', 'listPets', 'createPet']
      const added = await Promise.all(
        operations.map((operation, index) =>
          fleet.control(index, '/__sim/faults', 'POST', { operation, status: 503, key: 'demo-free-key' }),
        ),
      )
      expect(added.map((response) => response.status)).toEqual([201, 201, 201])
      const ids = (await Promise.all(added.map(json))).map((body) => body.ids[0])
      expect(new Set(ids).size).toBe(3)
      for (const index of [0, 1, 2]) {
        const faults = await faultsOn(index)
        expect(faults.map((rule) => rule.operation).sort()).toEqual([...operations].sort())
        expect(faults.map((rule) => rule.id).sort()).toEqual([...ids].sort())
      }
    }
  })

  it('adds up clock advances made at the same moment', async () => {
    for (let round = 0; round < rounds; round++) {
      await fleet.control(0, '/__sim/clock', 'POST', { set: '2030-01-01T00:00:00Z', freeze: true })
      const advanced = await Promise.all([0, 1, 2].map((index) => fleet.control(index, '/__sim/clock', 'POST', { advance: '1h' })))
      expect(advanced.map((response) => response.status)).toEqual([200, 200, 200])
      for (const index of [0, 1, 2]) {
        expect(await json(await fleet.control(index, '/__sim/clock'))).toMatchObject({ now: '2030-01-01T03:00:00.000Z', frozen: true })
      }
    }
  })

  it('leaves one state on every instance after a reset and a fault rule added at the same moment', async () => {
    for (let round = 0; round < rounds; round++) {
      await fleet.control(0, '/__sim/faults', 'POST', { operation: 'getPet', status: 500, key: 'demo-free-key' })
      expect((await fleet.api(1, '/pets', { ...newPet('Rex'), key: 'demo-pro-key' })).status).toBe(201)
      const [reset, fault] = await Promise.all([
        fleet.control(0, '/__sim/reset', 'POST', {}),
        fleet.control(1, '/__sim/faults', 'POST', { operation: 'listPets', status: 503, key: 'demo-free-key' }),
      ])
      expect([reset.status, fault.status]).toEqual([200, 201])
      // The reset first (the new rule kept, alone) or the rule first (the reset removed it): never the old rule back.
      const [first = [], ...others] = await Promise.all([0, 1, 2].map(faultsOn))
      for (const seen of others) expect(seen).toEqual(first)
      expect(first.map((rule) => rule.operation)).toEqual(first.length === 0 ? [] : ['listPets'])
      for (const index of [0, 1, 2]) {
        const pets = await json(await fleet.api(index, '/pets?limit=100', { key: 'demo-pro-key' }))
        expect(pets.map((pet: any) => pet.name)).not.toContain('Rex')
      }
      await fleet.control(2, '/__sim/faults', 'DELETE')
    }
  })
})

describe('a control change the store does not take in time', () => {
  /**
   * Sends a control request, pausing the store as soon as instance 0 has made its change on its copy (`made`: not when
   * its sync before loads the fleet's state, which sends the same events).
   */
  async function pausedWhileMade(
    event: 'faults' | 'reset',
    made: () => boolean,
    path: string,
    method: string,
    body: unknown,
  ): Promise<Response> {
    let paused = false
    const unsubscribe = fleet.apps[0]!.simulator.events.subscribe((seen) => {
      if (seen.type !== event || paused || !made()) return
      paused = true
      redis.pause()
    })
    try {
      return await fleet.control(0, path, method, body)
    } finally {
      unsubscribe()
      redis.resume()
    }
  }

  it('is not a fault rule of the fleet or of the instance that answered 503', async () => {
    await fleet.control(0, '/__sim/reset', 'POST', {})
    const answer = await pausedWhileMade('faults', () => fleet.apps[0]!.simulator.faults.list().length > 0, '/__sim/faults', 'POST', {
      operation: 'getPet',
      status: 503,
    })
    expect(answer.status).toBe(503)
    expect((await json(answer)).code).toBe('store_unavailable')
    // Instance 0's connection first: its late publish, if the store ran it, is ahead of this read in the queue.
    for (const index of [0, 1, 2]) expect(await faultsOn(index)).toEqual([])
  })

  it('is not a restored snapshot of the fleet or of the instance that answered 503', async () => {
    await fleet.control(0, '/__sim/reset', 'POST', {})
    const snapshot = await json(await fleet.control(0, '/__sim/snapshot'))
    expect((await fleet.api(1, '/pets', { ...newPet('Rex'), key: 'demo-pro-key' })).status).toBe(201)
    const answer = await pausedWhileMade('reset', () => fleet.apps[0]!.simulator.store.size === 5, '/__sim/snapshot', 'PUT', snapshot)
    expect(answer.status).toBe(503)
    for (const index of [0, 1, 2]) {
      const pets = await json(await fleet.api(index, '/pets?limit=100', { key: 'demo-pro-key' }))
      expect(pets.map((pet: any) => pet.name)).toContain('Rex')
    }
  })
})
