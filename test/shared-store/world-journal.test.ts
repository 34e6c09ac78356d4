import { describe, expect, it } from 'vitest'
import type { RecordInput } from '../../src/core/journal/request-journal.ts'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { decodeStreamRecords, storeCorrupt } from '../../src/node/shared-store/store-values.ts'
import { createWorldJournal, encodeEntry } from '../../src/node/shared-store/world-journal.ts'

// The fleet's journal stream applied to one instance's journal, pact and coverage (issue 45, High 3 and 1): each entry
// carries the journal, pact and coverage versions it was written in; an entry of before the journal's last clear feeds
// only the pact and coverage; one of a clear the copy has not synced yet waits for the copy's catch-up.
const getPet = (path: string, status = 200): RecordInput => ({
  atMs: Date.UTC(2030, 0, 1),
  method: 'GET',
  path,
  status,
  operation: 'getPet',
  caller: 'anonymous',
  plan: 'anonymous',
  durationMs: 1,
  exchange: { rawHeaders: ['Host', 'localhost'], requestBody: undefined, responseHeaders: {}, responseBody: '{}' },
})

function setUp() {
  const core = createSimulatorCore({ seed: 1, pets: 2 })
  let catchUps = 0
  const journal = createWorldJournal(
    () => core,
    'me',
    async () => {
      catchUps++
    },
  )
  const calls = () => core.coverage().operations.find((operation) => operation.operation === 'getPet')!.calls
  const paths = () => core.journal.entries().map((entry) => entry.path)
  const pact = () => core.pact.entries().length
  return { core, journal, calls, paths, pact, catchUps: () => catchUps }
}

/** Flattened entries as the store's replies carry them, decoded at the seam as the instance decodes them. */
const records = (flat: readonly unknown[]) =>
  decodeStreamRecords(flat, 'test:journal', (key, problem) => storeCorrupt('the test store', key, problem))

/** A stream entry of another instance, flattened as the store's replies are. */
const other = (id: string, sequence: number, path: string, generation: string) => [
  id,
  String(sequence),
  'other:1',
  encodeEntry(getPet(path), 64 * 1024),
  generation,
]

describe("an instance's copy of the fleet's journal", () => {
  it('holds the entries of the current journal; those of before its last clear feed the pact and coverage only', () => {
    const { journal, calls, paths, pact } = setUp()
    journal.generations('1', '', '')
    expect(journal.apply(records([...other('1-0', 1, '/v1/pets/1', '1//'), ...other('1-1', 2, '/v1/pets/2', '1//')]), 0)).toBe(true)
    expect(paths()).toEqual(['/v1/pets/1', '/v1/pets/2'])
    // A reset elsewhere: journal version 2. An entry written before it, read after it.
    journal.generations('2', '', '')
    expect(paths()).toEqual([])
    expect(journal.apply(records(other('1-2', 3, '/v1/pets/3', '1//')), 0)).toBe(true)
    expect(paths()).toEqual([])
    expect(calls()).toBe(3)
    expect(pact()).toBe(1)
    expect(journal.apply(records(other('1-3', 1, '/v1/pets/1', '2//')), 0)).toBe(true)
    expect(paths()).toEqual(['/v1/pets/1'])
    expect(calls()).toBe(4)
  })

  it('leaves out of the pact and coverage the entries of before their own clear', () => {
    const { journal, calls, pact } = setUp()
    journal.generations('1', '1', '1')
    journal.apply(records(other('1-0', 1, '/v1/pets/1', '1/1/1')), 0)
    expect([calls(), pact()]).toEqual([1, 1])
    journal.generations('2', '2', '2')
    expect([calls(), pact()]).toEqual([0, 0])
    journal.apply(records(other('1-1', 2, '/v1/pets/2', '1/1/1')), 0)
    expect([calls(), pact()]).toEqual([0, 0])
  })

  it('waits for the catch-up on an entry of a clear the copy has not synced, then applies it', () => {
    const { journal, paths, catchUps } = setUp()
    journal.generations('1', '', '')
    journal.apply(records(other('1-0', 1, '/v1/pets/1', '1//')), 0)
    // Read before the copy synced the reset that made journal version 2: not applied (the restore would drop it).
    expect(journal.apply(records(other('1-1', 1, '/v1/pets/2', '2//')), 0)).toBe(false)
    expect(paths()).toEqual(['/v1/pets/1'])
    expect(journal.lastId).toBe('1-0')
    expect(catchUps()).toBe(1)
    journal.generations('2', '', '')
    expect(journal.apply(records(other('1-1', 1, '/v1/pets/2', '2//')), 0)).toBe(true)
    expect(paths()).toEqual(['/v1/pets/2'])
  })

  it("resolves this instance's own entry from a deferred read once a read moves past it, with the fleet's sequence when it carries it", async () => {
    const { journal, paths } = setUp()
    journal.generations('1', '', '')
    const first = journal.begin(getPet('/v1/pets/1'))
    const second = journal.begin(getPet('/v1/pets/2'))
    expect(journal.apply(records(['1-0', '1', first.origin, '', '2//']), 0)).toBe(false)
    journal.generations('2', '', '')
    // The catch-up's read carries the first one; the second's own reply then comes, past it.
    expect(journal.apply(records(['1-0', '1', first.origin, '', '2//']), 0)).toBe(true)
    expect((await first.recorded).sequence).toBe(1)
    expect(journal.apply(records(['1-1', '2', second.origin, '', '2//']), 0)).toBe(true)
    expect((await second.recorded).sequence).toBe(2)
    expect(paths()).toEqual(['/v1/pets/1', '/v1/pets/2'])
  })

  it('records an own entry a deferred read carried, and no read carried again, from what it holds', async () => {
    const { journal, paths } = setUp()
    journal.generations('1', '', '')
    const lost = journal.begin(getPet('/v1/pets/1'))
    expect(journal.apply(records(['1-0', '1', lost.origin, '', '2//']), 0)).toBe(false)
    journal.generations('2', '', '')
    // Another instance's entry past it, without it (the store trimmed it, or this was another of its own replies).
    expect(journal.apply(records(other('1-5', 2, '/v1/pets/2', '2//')), 0)).toBe(true)
    await lost.recorded
    expect(paths()).toEqual(['/v1/pets/2', '/v1/pets/1'])
  })
})

describe('an entry as the stream holds it (issue 45, High 1)', () => {
  it('keeps each body cut to the cap, whole characters only, and shows it truncated with the size sent', () => {
    const { journal, core } = setUp()
    journal.generations('1', '', '')
    const request = new TextEncoder().encode(`{"name":"${'r'.repeat(5000)}"}`)
    const response = `{"note":"${'é'.repeat(3000)}"}`
    const input: RecordInput = {
      ...getPet('/v1/pets/1'),
      exchange: { ...getPet('').exchange, requestBody: request, responseBody: response },
    }
    const payload = encodeEntry(input, 1001)
    expect(payload.length).toBeLessThan(1001 * 2 + 1000)
    journal.apply(records(['1-0', '1', 'other:1', payload, '1//']), 0)
    const [entry] = core.journal.entries()
    expect(entry!.request.body).toMatchObject({
      size: request.byteLength,
      truncated: true,
      text: new TextDecoder().decode(request.subarray(0, 1001)),
    })
    // 9 bytes of `{"note":"`, then 496 two-byte characters: the 497th would end past the cap.
    expect(entry!.response.body).toMatchObject({ size: Buffer.byteLength(response), truncated: true, text: `{"note":"${'é'.repeat(496)}` })
  })

  it('keeps a body within the cap whole', () => {
    const { journal, core } = setUp()
    journal.generations('1', '', '')
    const input: RecordInput = {
      ...getPet('/v1/pets/1'),
      exchange: { ...getPet('').exchange, requestBody: new TextEncoder().encode('{}'), responseBody: '{"id":1}' },
    }
    journal.apply(records(['1-0', '1', 'other:1', encodeEntry(input, 1001), '1//']), 0)
    const [entry] = core.journal.entries()
    expect(entry!.request.body).toEqual({ size: 2, encoding: 'utf8', text: '{}', truncated: false })
    expect(entry!.response.body).toEqual({ size: 8, encoding: 'utf8', text: '{"id":1}', truncated: false })
  })

  it("keeps another instance's refusal (a foreign Host) in the journal and out of the pact and coverage, as in memory", () => {
    const { journal, core, calls, pact } = setUp()
    journal.generations('1', '', '')
    const refused: RecordInput = { ...getPet('/v1/pets/1', 403), refused: true }
    journal.apply(records(['1-0', '1', 'other:1', encodeEntry(refused, 1001), '1//']), 0)
    expect(core.journal.entries().map((entry) => entry.status)).toEqual([403])
    expect([calls(), pact()]).toEqual([0, 0])
    journal.apply(records(['1-1', '2', 'other:2', encodeEntry(getPet('/v1/pets/1'), 1001), '1//']), 0)
    expect([calls(), pact()]).toEqual([1, 1])
  })
})
