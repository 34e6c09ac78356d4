import { expect, it } from 'vitest'
import { baseOptions, describeWorlds, frozenAt, newPet, tinyKey, type Instance } from './targets.ts'

// The world contract: sandboxes, made, listed and deleted through a and seen so on every instance, each a world of
// its own (pets and ids, clock, fault rules, limits, journal) apart from the default world and from each other.
const seeded = baseOptions.pets!

interface Listed {
  readonly name: string
  readonly pets: number
  readonly requests: number
}

const listed = async (reader: Instance) => {
  const body = await reader.controlOk('/sandboxes')
  return {
    names: (body.sandboxes as Listed[]).map((sandbox) => sandbox.name).sort(),
    byName: Object.fromEntries((body.sandboxes as Listed[]).map((sandbox) => [sandbox.name, sandbox])),
    total: body.total as { sandboxes: number; pets: number; requests: number },
  }
}

describeWorlds(
  'the world contract: sandboxes',
  (world) => {
    it('lists a sandbox made through a on every instance, and serves it there', async () => {
      const made = await world().a.control('/sandboxes/team-a', { method: 'PUT' })
      expect([made.status, made.body.created]).toEqual([201, true])
      const again = await world().a.control('/sandboxes/team-a', { method: 'PUT' })
      expect([again.status, again.body.created]).toEqual([200, false])
      for (const reader of world().readers) {
        const { names, byName } = await listed(reader)
        expect(names, reader.name).toEqual(['team-a'])
        expect(byName['team-a']?.pets, reader.name).toBe(seeded)
        expect((await reader.controlOk('/health', { sandbox: 'team-a' })).pets, reader.name).toBe(seeded)
      }
    })

    it('makes a sandbox on the first API request to it, and every instance lists it', async () => {
      const listedPets = await world().a.api('/pets?limit=100', { sandbox: 'team-b' })
      expect(listedPets.body).toHaveLength(seeded)
      for (const reader of world().readers) {
        const { names, total } = await listed(reader)
        expect(names, reader.name).toEqual(['team-b'])
        expect(total, reader.name).toEqual({ sandboxes: 1, pets: seeded, requests: 1 })
      }
    })

    it("keeps a sandbox's pets and ids apart from the default world and from another sandbox", async () => {
      const created = await world().a.api('/pets', { method: 'POST', body: newPet('Sandboxed'), sandbox: 'team-a' })
      expect([created.status, created.body.id]).toEqual([201, seeded + 1])
      expect(created.headers.get('location')).toBe(`/sandboxes/team-a/v1/pets/${seeded + 1}`)
      const other = await world().a.api('/pets', { method: 'POST', body: newPet('Elsewhere'), sandbox: 'team-b' })
      expect(other.body.id).toBe(seeded + 1)
      for (const reader of world().readers) {
        expect((await reader.api(`/pets/${seeded + 1}`, { sandbox: 'team-a' })).body.name, reader.name).toBe('Sandboxed')
        expect((await reader.api(`/pets/${seeded + 1}`, { sandbox: 'team-b' })).body.name, reader.name).toBe('Elsewhere')
        expect((await reader.api(`/pets/${seeded + 1}`)).status, `${reader.name}: default world`).toBe(404)
        const { byName } = await listed(reader)
        expect([byName['team-a']?.pets, byName['team-b']?.pets], reader.name).toEqual([seeded + 1, seeded + 1])
      }
    })

    it("keeps a sandbox's clock, fault rules, limits and journal to itself", async () => {
      await world().a.controlOk('/clock', { method: 'POST', body: { set: frozenAt, freeze: true }, sandbox: 'team-a' })
      await world().a.controlOk('/faults', { method: 'POST', body: { operation: 'getPet', status: 503 }, sandbox: 'team-a' })
      for (let call = 0; call < 3; call++)
        expect((await world().a.api('/pets?limit=1', { key: tinyKey, sandbox: 'team-a' })).status).toBe(200)
      for (const reader of world().readers) {
        expect(await reader.controlOk('/clock', { sandbox: 'team-a' }), reader.name).toMatchObject({ now: frozenAt, frozen: true })
        expect((await reader.controlOk('/clock')).frozen, `${reader.name}: default world`).toBe(false)
        expect((await reader.api('/pets/1', { sandbox: 'team-a' })).status, reader.name).toBe(503)
        expect((await reader.api('/pets/1')).status, `${reader.name}: default world`).toBe(200)
        expect((await reader.api('/pets?limit=1', { key: tinyKey, sandbox: 'team-a' })).status, reader.name).toBe(429)
      }
      // The default world's tiny key is untouched: its first request there has 2 left.
      const fresh = await world().a.api('/pets?limit=1', { key: tinyKey })
      expect([fresh.status, fresh.headers.get('x-ratelimit-remaining')]).toEqual([200, '2'])
      // Its journal holds its own requests (3, then 2 through each instance), and the default world's only its own.
      for (const reader of world().readers) {
        expect((await reader.controlOk('/requests/count', { sandbox: 'team-a' })).count, reader.name).toBe(3 + 2 * world().readers.length)
        expect((await reader.controlOk('/requests/count')).count, `${reader.name}: default world`).toBe(world().readers.length + 1)
      }
    })

    it('resets a sandbox through a on every instance, the default world left as it is', async () => {
      expect((await world().a.api('/pets', { method: 'POST', body: newPet('Default Kept') })).status).toBe(201)
      expect((await world().a.api('/pets', { method: 'POST', body: newPet('Sandbox Gone'), sandbox: 'team-a' })).status).toBe(201)
      await world().a.controlOk('/reset', { method: 'POST', sandbox: 'team-a' })
      for (const reader of world().readers) {
        expect((await reader.controlOk('/health', { sandbox: 'team-a' })).pets, reader.name).toBe(seeded)
        expect((await reader.controlOk('/health')).pets, `${reader.name}: default world`).toBe(seeded + 1)
      }
    })

    it('holds the cap over the whole world, whichever instance makes the sandbox', async () => {
      const made = []
      for (const [index, name] of ['cap-1', 'cap-2', 'cap-3'].entries()) {
        const reader = world().readers[(index + 1) % world().readers.length]!
        made.push((await reader.control(`/sandboxes/${name}`, { method: 'PUT' })).status)
      }
      expect(made).toEqual([201, 201, 201])
      for (const reader of world().readers) {
        const refused = await reader.control('/sandboxes/cap-4', { method: 'PUT' })
        expect([refused.status, refused.body.code], reader.name).toEqual([503, 'too_many_sandboxes'])
        expect(refused.headers.get('retry-after'), reader.name).toMatch(/^[1-9]\d*$/)
        expect((await listed(reader)).names, reader.name).toEqual(['cap-1', 'cap-2', 'cap-3'])
      }
    })

    it("forgets a sandbox deleted through a, in every instance's list", async () => {
      expect((await world().a.api('/pets', { method: 'POST', body: newPet('Forgotten'), sandbox: 'team-a' })).status).toBe(201)
      await world().a.controlOk('/sandboxes/team-b', { method: 'PUT' })
      expect((await world().a.control('/sandboxes/team-a', { method: 'DELETE' })).status).toBe(204)
      for (const reader of world().readers) expect((await listed(reader)).names, reader.name).toEqual(['team-b'])
      // On a, which deleted it, it is gone (the other instance keeps its copy: issue 46).
      expect((await world().a.control('/sandboxes/team-a', { method: 'DELETE' })).status).toBe(404)
      const gone = await world().a.control('/health', { sandbox: 'team-a' })
      expect([gone.status, gone.body.code]).toEqual([404, 'sandbox_not_found'])
      // Made again by the next request with a key: fresh, from the configured scenario.
      expect((await world().readers.at(-1)!.api('/pets?limit=100', { sandbox: 'team-a' })).body).toHaveLength(seeded)
    })
  },
  { sandboxes: { max: 3 } },
)
