import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/core/http/api-error.ts'
import { maxPetId } from '../../../src/core/model/pet-types.ts'
import { createSimulatorCore, type SimulatorCore } from '../../../src/core/simulator/simulator-core.ts'
import { applyProviderState, describeProviderStates, providerStates } from '../../../src/core/simulator/provider-states.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'

// Issue 36, item 5: provider states validated before anything changes, and none leading to a snapshot the simulator
// cannot restore (`--state` then refused to start).

const keys = { 'team-pro-key': 'pro', 'team-free-key': 'free', 'other-pro-key': 'pro' }

function simulator(maxPets?: number): SimulatorCore {
  return createSimulatorCore({ seed: 4, pets: 8, keys, clock: createManualClock('2030-06-15T10:00:30Z'), maxPets })
}

/** What a refused state must leave as it was: the whole snapshot (catalogue, clock, buckets), and the journal. */
function everything(sim: SimulatorCore) {
  const { takenAt: _taken, ...rest } = sim.snapshot()
  return { snapshot: rest, journal: sim.journal.count() }
}

const nearTop = fc.integer({ min: maxPetId - 200_000, max: Number.MAX_SAFE_INTEGER + 2 })
const anyId = fc.oneof(fc.integer({ min: -5, max: 100 }), nearTop, fc.constantFrom(2 ** 53 - 100_001, 2 ** 53 - 2, 2 ** 53 - 1, 2 ** 53))
const petState = fc.record(
  {
    id: fc.oneof(anyId, anyId.map(String)),
    name: fc.oneof(fc.string({ maxLength: 260 }), fc.constantFrom('Rex', ' ', '\u0085x', 'é'.repeat(255), 'é'.repeat(256))),
    categoryId: fc.oneof(fc.integer({ min: -1, max: 9 }), fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53, 1.5)),
    status: fc.constantFrom('available', 'pending', 'sold', 'lost'),
  },
  { requiredKeys: [] },
)
const stateBody = fc.oneof(
  petState.map((params) => ({ state: 'a pet with id {id} exists', params })),
  anyId.map((id) => ({ state: 'no pet with id {id} exists', params: { id } })),
  anyId.map((id) => ({ state: `a pet with id ${id} exists`, params: {} })),
  fc.constant({ state: 'the catalogue is empty' }),
  fc.constant({ state: 'getPet is past its sunset' }),
  fc
    .record({
      key: fc.constantFrom('<API_KEY>', 'team-pro-key', 'team-free-key', 'not-a-key', 'demo-pro-key'),
      plan: fc.constantFrom(undefined, 'free', 'pro', 'business', 'gold'),
    })
    .map((params) => ({ state: 'the key {key} has no requests left this minute', params })),
  fc.constant({ state: 'a pet called Rex exists' }),
)

describe('applyProviderState', () => {
  it('refuses a state with nothing changed, or sets up one whose snapshot restores, with room to create pets', () => {
    fc.assert(
      fc.property(stateBody, fc.integer({ min: 0, max: 3 }), (body, creates) => {
        const sim = simulator()
        sim.store.create({ name: 'Before', categoryId: 2 })
        sim.clock.advance(61_000)
        const before = everything(sim)
        let accepted = true
        try {
          applyProviderState(sim, body)
        } catch (error) {
          // Refused: a 400 (never a 500), and nothing changed.
          expect(error).toBeInstanceOf(ApiError)
          expect((error as ApiError).code).toBe('invalid_provider_state')
          expect(everything(sim)).toEqual(before)
          accepted = false
        }
        if (!accepted) return
        for (let index = 0; index < creates && !sim.store.full; index++) sim.store.create({ name: `After ${index}`, categoryId: 1 })
        const written = JSON.parse(JSON.stringify(sim.snapshot()))
        const other = simulator()
        other.restore(written)
        expect(other.snapshot().catalogue).toEqual(written.catalogue)
      }),
      { numRuns: 300, seed: 3636 },
    )
  })

  it.each([2 ** 53 - 100_001, 2 ** 53 - 50_000, 2 ** 53 - 2])('sets up a pet with id %d (documented as valid)', (id) => {
    const sim = simulator()
    expect(applyProviderState(sim, { state: 'a pet with id {id} exists', params: { id } }).params.id).toBe(id)
    expect(sim.store.get(id)).toEqual({ id, name: `Pet ${id}`, categoryId: 1, status: 'available' })
    expect(sim.store.nextId).toBe(id + 1)
  })

  it.each([
    [{ state: 'a pet with id {id} exists', params: { id: 2 ** 53 - 1 } }, /id must be a whole number from 1 to 9007199254740990/],
    [{ state: 'the key {key} has no requests left this minute', params: { key: '<API_KEY>', plan: 'platinum' } }, /plan/],
    [
      { state: 'the key {key} has no requests left this minute', params: { key: 'team-free-key', plan: 'pro' } },
      /is of plan free, not pro/,
    ],
  ])('refuses %j before the reset: the journal, a created pet and a clock move stay', (body, message) => {
    const sim = simulator()
    sim.store.create({ name: 'Kept', categoryId: 2 })
    sim.clock.advance(90_000)
    const before = everything(sim)
    expect(() => applyProviderState(sim, body)).toThrow(message)
    expect(everything(sim)).toEqual(before)
  })

  it('takes <API_KEY> as whichever key the verifier puts in: every key spent, whatever plan the pact recorded', () => {
    const spent = (sim: SimulatorCore) =>
      sim
        .state()
        .keys.filter((key) => key.minute.remaining === 0)
        .map((key) => key.plan)
    const sim = simulator()
    expect(applyProviderState(sim, { state: 'the key <API_KEY> has no requests left this minute' }).params).toEqual({ key: '<API_KEY>' })
    expect(spent(sim).sort()).toEqual(['free', 'pro', 'pro'])
    expect(
      applyProviderState(sim, { state: 'the key {key} has no requests left this minute', params: { key: '<API_KEY>', plan: 'pro' } })
        .params,
    ).toEqual({
      key: '<API_KEY>',
      plan: 'pro',
    })
    // The verifier may send a key of another plan than the one the pact was recorded on: every key is spent still.
    expect(spent(sim).sort()).toEqual(['free', 'pro', 'pro'])
  })

  it('lists each declared state with its params, what holds after setup and its teardown, and the empty one', () => {
    const listed = describeProviderStates()
    expect(listed.map((state) => state.name)).toEqual([...providerStates.map((state) => state.name), ''])
    expect(listed[0]).toMatchObject({
      name: 'a pet with id {id} exists',
      teardown: 'nothing',
      params: [
        { name: 'id', type: 'integer', required: true, minimum: 1, maximum: 2 ** 53 - 2 },
        { name: 'name', type: 'string', required: false, default: 'Pet {id}', maxLength: 255 },
        { name: 'categoryId', type: 'integer', required: false, default: 1, minimum: 1 },
        { name: 'status', type: 'string', required: false, default: 'available', values: ['available', 'pending', 'sold'] },
      ],
    })
  })
})
