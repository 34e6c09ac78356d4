import { expect, it } from 'vitest'
import { calls, journalOf, journalSize, serveMoreThanTheJournalHolds } from './late-instance.ts'
import { baseOptions, describeWorlds, tinyKey } from './targets.ts'

// The world contract: an instance that starts after the world has served more than its journal holds (journalSize 5,
// 30 calls) reports the same capped journal as the instance that served them: the same entries, the same numbers,
// the same count. In memory there is no other instance: the late one is a itself, and the figures are memory's.

describeWorlds(
  'the world contract: an instance that starts late',
  (world) => {
    it('reports the capped journal the first instance reports', async () => {
      await serveMoreThanTheJournalHolds(world().a)
      const late = await world().startLate()
      const expected = Array.from({ length: journalSize }, (_, index) => {
        const sequence = calls - journalSize + index + 1
        return { sequence, path: `/v1/pets/${((sequence - 1) % 6) + 1}`, status: 200 }
      })
      expect(await journalOf(world().a)).toEqual(expected)
      expect(await journalOf(late)).toEqual(expected)
      expect((await late.controlOk('/requests/count')).count).toBe(journalSize)
      expect((await late.controlOk('/requests?path=/v1/pets/1')).requests).toHaveLength(
        expected.filter((line) => line.path === '/v1/pets/1').length,
      )
    })

    it('journals what it serves after the others, in one numbering', async () => {
      await serveMoreThanTheJournalHolds(world().a)
      const late = await world().startLate()
      expect((await late.api('/pets?limit=1')).status).toBe(200)
      for (const reader of [...world().readers, late]) {
        const journal = await journalOf(reader)
        expect(journal, reader.name).toHaveLength(journalSize)
        expect(journal.at(-1), reader.name).toEqual({ sequence: calls + 1, path: '/v1/pets?limit=1', status: 200 })
      }
    })

    it('starts in the world as the others left it: pets, clock, fault rules, limits and sandboxes', async () => {
      const { a } = world()
      expect((await a.api('/pets', { method: 'POST', body: { name: 'Before The Late One', categoryId: 1 } })).status).toBe(201)
      // Before getPet's sunset, so that it answers 200 once the rule is spent.
      const frozenAt = '2029-05-06T07:08:09.000Z'
      await a.controlOk('/clock', { method: 'POST', body: { set: frozenAt, freeze: true } })
      await a.controlOk('/faults', { method: 'POST', body: { operation: 'getPet', status: 503, times: 3 } })
      expect((await a.api('/pets/1')).status).toBe(503)
      for (let call = 0; call < 2; call++) expect((await a.api('/pets?limit=1', { key: tinyKey })).status).toBe(200)
      await a.controlOk('/sandboxes/late-team', { method: 'PUT' })
      const late = await world().startLate()
      expect(await late.controlOk('/health'), 'health').toMatchObject({ pets: baseOptions.pets! + 1, now: frozenAt, frozen: true })
      expect(((await late.controlOk('/faults')).faults as { remaining?: number }[]).map((rule) => rule.remaining)).toEqual([2])
      expect(((await late.controlOk('/sandboxes')).sandboxes as { name: string }[]).map((sandbox) => sandbox.name)).toEqual(['late-team'])
      const limited = await late.api('/pets?limit=1', { key: tinyKey })
      expect([limited.status, limited.headers.get('x-ratelimit-remaining')]).toEqual([200, '0'])
      expect((await late.api('/pets?limit=1', { key: tinyKey })).status).toBe(429)
      expect([(await late.api('/pets/1')).status, (await late.api('/pets/1')).status, (await late.api('/pets/1')).status]).toEqual([
        503, 503, 200,
      ])
      expect((await late.api(`/pets/${baseOptions.pets! + 1}`)).body.name).toBe('Before The Late One')
    })

    it('starts in the scenario the others are in', async () => {
      await world().a.controlOk('/scenario', { method: 'POST', body: { name: 'empty' } })
      const late = await world().startLate()
      expect((await late.controlOk('/scenario')).active).toBe('empty')
      expect((await late.controlOk('/health')).pets).toBe(0)
      expect((await late.api('/pets?limit=5')).body).toEqual([])
    })
  },
  { journalSize },
)
