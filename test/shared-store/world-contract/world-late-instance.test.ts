import { expect, it } from 'vitest'
import { calls, journalOf, journalSize, serveMoreThanTheJournalHolds } from './late-instance.ts'
import { describeWorlds } from './targets.ts'

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
  },
  { journalSize },
)
