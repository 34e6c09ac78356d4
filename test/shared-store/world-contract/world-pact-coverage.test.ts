import { expect, it } from 'vitest'
import { describeWorlds, freeKey, newPet, type Instance } from './targets.ts'

// The world contract: the pact and the contract coverage. They outlive resets, scenarios and provider states (only
// their own DELETE starts them over), so the same traffic gives the same interactions and the same counts in every
// kind of world as in memory, on the instance that made the changes and on the other. Each flow runs on the world
// (traffic spread over its instances, changes through a) and on a fresh simulator in memory; the figures must match,
// and memory's are checked not to be nothing.

interface Recorded {
  /** The pact's interactions, by description, as exported. */
  readonly interactions: readonly string[]
  /** Coverage: each operation's calls, and each status answered with its count. */
  readonly calls: Readonly<Record<string, number>>
  /** Each status answered with its count, and of those how many were forced or a fault rule's. */
  readonly answered: readonly string[]
  readonly met: number
}

interface CoverageOperation {
  readonly operation: string
  readonly calls: number
  readonly statuses: readonly { readonly status: number; readonly count: number; readonly forced: number; readonly fault: number }[]
}

async function recorded(reader: Instance): Promise<Recorded> {
  const pact = await reader.controlOk('/requests.pact')
  const coverage = await reader.controlOk('/coverage')
  const operations = coverage.operations as CoverageOperation[]
  return {
    interactions: (pact.interactions as { description: string }[]).map((interaction) => interaction.description),
    calls: Object.fromEntries(operations.map((operation) => [operation.operation, operation.calls])),
    answered: operations.flatMap((operation) =>
      operation.statuses
        .filter((status) => status.count > 0)
        .map((status) => `${operation.operation} ${status.status} x${status.count} (forced ${status.forced}, fault ${status.fault})`),
    ),
    met: coverage.summary.met,
  }
}

const everyReader = async (readers: readonly Instance[]) => Promise.all(readers.map(recorded))

/** Five shapes of traffic, sent to the instances in turn; each answer's status checked. */
async function traffic(readers: readonly Instance[], name: string): Promise<void> {
  const on = (step: number) => readers[step % readers.length]!
  expect((await on(0).api('/pets?limit=2')).status).toBe(200)
  expect((await on(1).api('/pets/1')).status).toBe(200)
  expect((await on(2).api('/pets', { method: 'POST', body: newPet(name) })).status).toBe(201)
  expect((await on(3).api('/pets/999999')).status).toBe(404)
  expect((await on(4).api('/pets?limit=1', { key: null })).status).toBe(401)
}

type Flow = (readers: readonly Instance[]) => Promise<void>

const afterResets: Flow = async (readers) => {
  await traffic(readers, 'Before Reset')
  await readers[0]!.controlOk('/reset', { method: 'POST' })
  await traffic(readers, 'After Reset')
  await readers[0]!.controlOk('/reset', { method: 'POST' })
  expect((await readers.at(-1)!.api('/pets', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415)
}

const afterScenarios: Flow = async (readers) => {
  await traffic(readers, 'Before Scenario')
  await readers[0]!.controlOk('/scenario', { method: 'POST', body: { name: 'empty' } })
  const empty = await readers.at(-1)!.api('/pets?limit=5')
  expect([empty.status, empty.body]).toEqual([200, []])
  expect((await readers.at(-1)!.api('/pets/1')).status).toBe(404)
  await readers[0]!.controlOk('/scenario', { method: 'POST', body: { name: 'rate-limited' } })
  expect((await readers.at(-1)!.api('/pets?limit=1', { key: freeKey })).status).toBe(429)
  await readers[0]!.controlOk('/scenario', { method: 'POST', body: { name: 'default' } })
  await traffic(readers, 'After Scenario')
}

const afterProviderStates: Flow = async (readers) => {
  await traffic(readers, 'Before States')
  const state = (body: unknown) => readers[0]!.controlOk('/provider-states', { method: 'POST', body })
  await state({ state: 'a pet with id {id} exists', params: { id: 30, name: 'Provided', categoryId: 1 } })
  expect((await readers.at(-1)!.api('/pets/30')).status).toBe(200)
  await state({ state: 'the catalogue is empty' })
  expect((await readers.at(-1)!.api('/pets?limit=3')).body).toEqual([])
  await state({ state: 'the key {key} has no requests left this minute', params: { key: freeKey } })
  expect((await readers.at(-1)!.api('/pets?limit=1', { key: freeKey })).status).toBe(429)
  await state({ state: '' })
  await traffic(readers, 'After States')
}

const withForcedAnswersAndFaults: Flow = async (readers) => {
  await traffic(readers, 'Before Faults')
  const last = readers.at(-1)!
  expect((await last.api('/pets/1', { headers: { prefer: 'code=404' } })).status).toBe(404)
  expect((await last.api('/pets?limit=1', { key: null, headers: { prefer: 'code=401' } })).status).toBe(401)
  await readers[0]!.controlOk('/faults', { method: 'POST', body: { operation: 'createPet', status: 503, times: 2 } })
  for (const reader of [...readers, ...readers, ...readers].slice(0, 3)) {
    await reader.api('/pets', { method: 'POST', body: newPet('Faulty') })
  }
  await readers[0]!.controlOk('/reset', { method: 'POST' })
  await traffic(readers, 'After Faults')
}

describeWorlds('the world contract: pact and coverage', (world) => {
  const flows: [string, Flow, { interactions: number; calls: number; answered?: readonly string[] }][] = [
    ['after resets', afterResets, { interactions: 5, calls: 11 }],
    ['after scenarios', afterScenarios, { interactions: 7, calls: 13 }],
    ['after provider states', afterProviderStates, { interactions: 7, calls: 13 }],
    [
      'with forced answers and fault rules',
      withForcedAnswersAndFaults,
      {
        interactions: 5,
        calls: 15,
        answered: ['createPet 503 x2 (forced 0, fault 2)', 'getPet 404 x3 (forced 1, fault 0)', 'listPets 401 x3 (forced 1, fault 0)'],
      },
    ],
  ]
  for (const [title, flow, atLeast] of flows) {
    it(`keeps the interactions and counts memory mode keeps ${title}, on every instance`, async () => {
      const memory = await world().inMemory(async (readers) => {
        await flow(readers)
        return recorded(readers[0]!)
      })
      // What the world is held to is not nothing: memory mode recorded the traffic of before and after the changes.
      expect(memory.interactions.length).toBeGreaterThanOrEqual(atLeast.interactions)
      expect(Object.values(memory.calls).reduce((sum, calls) => sum + calls, 0)).toBeGreaterThanOrEqual(atLeast.calls)
      for (const line of atLeast.answered ?? []) expect(memory.answered).toContain(line)
      await flow(world().readers)
      const seen = await everyReader(world().readers)
      expect(seen).toEqual(world().readers.map(() => memory))
    })
  }

  it('clears the pact on every instance through a, and keeps the coverage', async () => {
    await traffic(world().readers, 'Pact Cleared')
    const before = await everyReader(world().readers)
    expect(before[0]!.interactions.length).toBeGreaterThanOrEqual(5)
    expect((await world().a.controlOk('/requests.pact', { method: 'DELETE' })).cleared).toBe(before[0]!.interactions.length)
    for (const [index, reader] of world().readers.entries()) {
      const after = await recorded(reader)
      expect(after.interactions, reader.name).toEqual([])
      expect(after.answered, reader.name).toEqual(before[index]!.answered)
    }
    // Recorded again from the next request, on every instance.
    expect((await world().readers.at(-1)!.api('/pets/2')).status).toBe(200)
    for (const reader of world().readers) expect((await recorded(reader)).interactions, reader.name).toHaveLength(1)
  })

  it('starts the coverage over on every instance through a, and keeps the pact', async () => {
    await traffic(world().readers, 'Coverage Cleared')
    const before = await everyReader(world().readers)
    expect(before[0]!.met).toBeGreaterThanOrEqual(4)
    await world().a.controlOk('/coverage', { method: 'DELETE' })
    for (const [index, reader] of world().readers.entries()) {
      const after = await recorded(reader)
      expect([after.met, after.answered], reader.name).toEqual([0, []])
      expect(after.interactions, reader.name).toEqual(before[index]!.interactions)
    }
    expect((await world().readers.at(-1)!.api('/pets/2')).status).toBe(200)
    for (const reader of world().readers)
      expect((await recorded(reader)).answered, reader.name).toEqual(['getPet 200 x1 (forced 0, fault 0)'])
  })

  it('clears neither with a journal clear, on any instance', async () => {
    await traffic(world().readers, 'Journal Cleared')
    const before = await everyReader(world().readers)
    await world().a.controlOk('/requests', { method: 'DELETE' })
    expect(await everyReader(world().readers)).toEqual(before)
  })
})
