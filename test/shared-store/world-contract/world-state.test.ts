import { expect, it } from 'vitest'
import { baseOptions, describeWorlds, newPet, type Instance } from './targets.ts'

// The world contract: pets, reset, scenarios, snapshots and provider states, each made through instance a and read
// back on every instance, health first (before any API request there: an instance must not wait for traffic to show
// the fleet's state).
const seeded = baseOptions.pets!

const names = async (reader: Instance) => {
  const listed = await reader.api('/pets?limit=100')
  expect(listed.status, `${reader.name}: listPets`).toBe(200)
  return (listed.body as { name: string }[]).map((pet) => pet.name)
}
const health = async (reader: Instance) => (await reader.controlOk('/health')) as { pets: number; now: string; frozen: boolean }

describeWorlds('the world contract: pets and state', (world) => {
  it('shows a pet created through a in every instance: health, list and get', async () => {
    const created = await world().a.api('/pets', { method: 'POST', body: newPet('Contract Rex') })
    expect(created.status).toBe(201)
    expect(created.body.id).toBe(seeded + 1)
    for (const reader of world().readers) {
      expect((await health(reader)).pets, `${reader.name}: health`).toBe(seeded + 1)
      const listed = await names(reader)
      expect(listed).toHaveLength(seeded + 1)
      expect(listed.at(-1)).toBe('Contract Rex')
      const got = await reader.api(`/pets/${created.body.id}`)
      expect([got.status, got.body.name], reader.name).toEqual([200, 'Contract Rex'])
    }
  })

  it('gives ids in order whichever instance creates', async () => {
    const ids: number[] = []
    for (let round = 0; round < 3; round++) {
      for (const reader of world().readers) {
        const created = await reader.api('/pets', { method: 'POST', body: newPet(`Pet ${round}-${reader.name}`) })
        expect(created.status).toBe(201)
        ids.push(created.body.id)
      }
    }
    expect(ids).toEqual(ids.map((_, index) => seeded + 1 + index))
    for (const reader of world().readers) expect(await names(reader), reader.name).toHaveLength(seeded + ids.length)
  })

  it('resets every instance: the created pet gone, health back to the catalogue', async () => {
    const created = await world().a.api('/pets', { method: 'POST', body: newPet('Gone Soon') })
    expect(created.status).toBe(201)
    for (const reader of world().readers) expect((await reader.api(`/pets/${created.body.id}`)).status).toBe(200)
    expect((await world().a.controlOk('/reset', { method: 'POST' })).status).toBe('reset')
    for (const reader of world().readers) {
      expect((await health(reader)).pets, `${reader.name}: health`).toBe(seeded)
      expect(await names(reader), reader.name).not.toContain('Gone Soon')
      expect((await reader.api(`/pets/${created.body.id}`)).status, reader.name).toBe(404)
    }
    // And ids start again after the catalogue.
    expect(
      (
        await world()
          .readers.at(-1)!
          .api('/pets', { method: 'POST', body: newPet('Again') })
      ).body.id,
    ).toBe(seeded + 1)
  })

  it('puts every instance in a scenario chosen through a, and back', async () => {
    expect(await world().a.controlOk('/scenario', { method: 'POST', body: { name: 'empty' } })).toMatchObject({ active: 'empty', pets: 0 })
    for (const reader of world().readers) {
      expect((await health(reader)).pets, `${reader.name}: health`).toBe(0)
      expect((await reader.controlOk('/scenario')).active, reader.name).toBe('empty')
      expect(await names(reader), reader.name).toEqual([])
    }
    // A reset stays in the scenario, on every instance.
    await world().a.controlOk('/reset', { method: 'POST' })
    for (const reader of world().readers) expect((await reader.controlOk('/scenario')).active, reader.name).toBe('empty')
    await world().a.controlOk('/scenario', { method: 'POST', body: { name: 'all-sold' } })
    for (const reader of world().readers) {
      const listed = await reader.api('/pets?limit=100')
      expect(listed.body, reader.name).toHaveLength(seeded)
      expect(new Set((listed.body as { status: string }[]).map((pet) => pet.status)), reader.name).toEqual(new Set(['sold']))
    }
  })

  it('moves every instance to a scenario that sets the clock, and one that counts the quota', async () => {
    await world().a.controlOk('/scenario', { method: 'POST', body: { name: 'sunset' } })
    for (const reader of world().readers) {
      const clock = await health(reader)
      expect(Date.parse(clock.now), `${reader.name}: health`).toBeGreaterThanOrEqual(Date.parse('2030-12-06T00:00:00.000Z'))
      expect(Date.parse(clock.now), `${reader.name}: health`).toBeLessThan(Date.parse('2030-12-06T00:01:00.000Z'))
      const removed = await reader.api('/pets/1')
      expect([removed.status, removed.body.code], reader.name).toEqual([410, 'endpoint_removed'])
    }
    await world().a.controlOk('/scenario', { method: 'POST', body: { name: 'rate-limited' } })
    for (const reader of world().readers) {
      const refused = await reader.api('/pets?limit=1')
      expect([refused.status, refused.headers.get('x-ratelimit-remaining')], reader.name).toEqual([429, '0'])
    }
  })

  it('gives the same snapshot and state on every instance', async () => {
    await world().a.controlOk('/clock', { method: 'POST', body: { set: '2032-02-02T02:02:02.000Z', freeze: true } })
    expect((await world().a.api('/pets', { method: 'POST', body: newPet('In Every Snapshot') })).status).toBe(201)
    for (const reader of world().readers) expect((await reader.api('/pets?limit=1')).status, reader.name).toBe(200)
    await world().a.controlOk('/faults', { method: 'POST', body: { operation: 'getPet', status: 503, times: 2 } })
    const snapshots = []
    const states = []
    for (const reader of world().readers) {
      snapshots.push(await reader.controlOk('/snapshot'))
      states.push(await reader.controlOk('/state'))
    }
    expect(snapshots[0].catalogue.pets.at(-1).name).toBe('In Every Snapshot')
    for (const snapshot of snapshots) expect(snapshot).toEqual(snapshots[0])
    const used = (states[0].keys as { plan: string; minute: { used: number } }[]).find((key) => key.plan === 'pro')
    expect(used?.minute.used).toBe(1 + world().readers.length)
    for (const state of states) expect(state).toEqual(states[0])
  })

  it("answers an instance's first API request after a change through a from the changed world", async () => {
    // No health or control read on the other instance between the change and its request: the request itself
    // must see the change.
    const last = () => world().readers.at(-1)!
    await world().a.controlOk('/scenario', { method: 'POST', body: { name: 'empty' } })
    expect((await last().api('/pets?limit=5')).body).toEqual([])
    await world().a.controlOk('/scenario', { method: 'POST', body: { name: 'default' } })
    expect((await last().api('/pets?limit=100')).body).toHaveLength(seeded)
    // Past getPet's sunset (2030-12-05): 410, and the request journaled at that instant.
    await world().a.controlOk('/clock', { method: 'POST', body: { set: '2031-01-01T00:00:00.000Z', freeze: true } })
    const removed = await last().api('/pets/1')
    expect([removed.status, removed.body.code]).toEqual([410, 'endpoint_removed'])
    await world().a.controlOk('/clock', { method: 'POST', body: { set: '2030-06-01T00:00:00.000Z', freeze: true } })
    const deprecated = await last().api('/pets/1')
    expect([deprecated.status, deprecated.headers.get('deprecation'), deprecated.headers.get('sunset')]).toEqual([
      200,
      expect.any(String),
      expect.any(String),
    ])
    const { requests } = await last().controlOk('/requests?operation=getPet')
    expect((requests as { at: string }[]).map((entry) => entry.at)).toEqual(['2031-01-01T00:00:00.000Z', '2030-06-01T00:00:00.000Z'])
    await world().a.controlOk('/provider-states', { method: 'POST', body: { state: 'a pet with id {id} exists', params: { id: 33 } } })
    expect((await last().api('/pets/33')).status).toBe(200)
    await world().a.controlOk('/faults', { method: 'POST', body: { operation: 'listPets', status: 503 } })
    expect((await last().api('/pets?limit=1')).status).toBe(503)
    await world().a.controlOk('/faults', { method: 'DELETE' })
    expect((await last().api('/pets?limit=1')).status).toBe(200)
  })

  it('restores on every instance a snapshot put through a', async () => {
    expect((await world().a.api('/pets', { method: 'POST', body: newPet('Snapshotted') })).status).toBe(201)
    await world().a.controlOk('/clock', { method: 'POST', body: { set: '2032-02-02T02:02:02.000Z', freeze: true } })
    const snapshot = await world().a.controlOk('/snapshot')
    await world().a.controlOk('/reset', { method: 'POST' })
    await world().a.controlOk('/clock', { method: 'POST', body: { freeze: false } })
    for (const reader of world().readers) expect(await names(reader), reader.name).not.toContain('Snapshotted')
    expect(await world().a.controlOk('/snapshot', { method: 'PUT', body: snapshot })).toMatchObject({
      status: 'restored',
      pets: seeded + 1,
    })
    for (const reader of world().readers) {
      expect(await health(reader), `${reader.name}: health`).toMatchObject({
        pets: seeded + 1,
        now: '2032-02-02T02:02:02.000Z',
        frozen: true,
      })
      expect((await names(reader)).at(-1), reader.name).toBe('Snapshotted')
    }
  })

  it('sets up provider states through a for every instance', async () => {
    const exists = await world().a.controlOk('/provider-states', {
      method: 'POST',
      body: { state: 'a pet with id {id} exists', params: { id: 40, name: 'Stateful', categoryId: 2 } },
    })
    expect(exists.state).toBe('a pet with id {id} exists')
    for (const reader of world().readers) {
      const got = await reader.api('/pets/40')
      expect([got.status, got.body.name], reader.name).toEqual([200, 'Stateful'])
    }
    await world().a.controlOk('/provider-states', { method: 'POST', body: { state: 'no pet with id {id} exists', params: { id: 40 } } })
    for (const reader of world().readers) expect((await reader.api('/pets/40')).status, reader.name).toBe(404)
    await world().a.controlOk('/provider-states', { method: 'POST', body: { state: 'the catalogue is empty' } })
    for (const reader of world().readers) {
      expect((await health(reader)).pets, `${reader.name}: health`).toBe(0)
      expect(await names(reader), reader.name).toEqual([])
    }
    await world().a.controlOk('/provider-states', {
      method: 'POST',
      body: { state: 'the key {key} has no requests left this minute', params: { key: 'contract-free-key' } },
    })
    for (const reader of world().readers) {
      const refused = await reader.api('/pets', { key: 'contract-free-key' })
      expect([refused.status, refused.headers.get('x-ratelimit-remaining')], reader.name).toEqual([429, '0'])
    }
  })
})
