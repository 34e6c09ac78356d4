import { describe, expect, it } from 'vitest'
import { fingerprint } from '../../../src/core/access/fingerprint.ts'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'

// What a restore refuses (docs/state-and-scenarios.md, "The format"): each field's bounds, named in a RangeError,
// with the state untouched. The refusals are one test, the file's first: the snapshot's schema is built once, on first
// use, so the first restore of the file is the one that builds it.

const start = '2030-06-15T10:00:30.000Z'
const pet = (id: number, name = 'Rex') => ({ id, name, categoryId: 1, status: 'available' })
// 200 dogs: 400 UTF-16 units but 200 characters, a valid name that the hand-written check leaves to the schema.
const longName = '🐶'.repeat(200)

function setUp() {
  const simulator = createSimulatorCore({ clock: createManualClock(start), pets: 3 })
  const base = JSON.parse(JSON.stringify(simulator.snapshot()))
  const bucket = { caller: 'anonymous:10.0.0.1', minute: 0, minuteCount: 1, day: 0, dayCount: 1, refusedInARow: 0 }
  return { simulator, base, bucket }
}

describe('a restore refuses', () => {
  it('each snapshot outside the format, naming the problem, and changes nothing', () => {
    const { simulator, base, bucket } = setUp()
    const before = JSON.stringify(simulator.snapshot())
    const with_ = (change: object) => ({ ...base, ...change })
    const catalogue = (pets: unknown, nextId = 10) => with_({ catalogue: { nextId, pets } })
    const cases: [unknown, string][] = [
      [null, 'A snapshot must be a JSON object'],
      [42, 'A snapshot must be a JSON object'],
      [[], 'A snapshot must be a JSON object'],
      [with_({ format: 2 }), 'Invalid snapshot: format: must be 1 (this version reads format 1 only)'],
      [catalogue({}), 'Invalid snapshot: catalogue.pets: must be an array'],
      [catalogue([pet(0)]), 'Invalid snapshot: catalogue.pets.0: id: must be at least 1'],
      [catalogue([{ ...pet(1), categoryId: 0 }]), 'Invalid snapshot: catalogue.pets.0: categoryId:'],
      [catalogue([pet(1, '   ')]), 'Invalid snapshot: catalogue.pets.0: name: must not be empty'],
      [catalogue([{ ...pet(1), name: 5 }]), 'Invalid snapshot: catalogue.pets.0: name: must be a string'],
      [catalogue([null]), 'Invalid snapshot: catalogue.pets.0: Invalid input: expected object, received null'],
      [with_({ extra: true }), 'Invalid snapshot: Unrecognized key: "extra"'],
      [catalogue([{ id: 1, name: 'Rex', categoryId: 1 }]), 'Invalid snapshot: catalogue.pets.0: status:'],
      [catalogue([pet(10)]), 'Invalid snapshot: catalogue.pets.0 has the id 10, not below nextId 10'],
      [catalogue([pet(10, longName)]), 'Invalid snapshot: catalogue.pets.0 has the id 10, not below nextId 10'],
      [catalogue([pet(2, longName), pet(2, longName)]), 'Invalid snapshot: catalogue.pets.1 repeats the id 2'],
      [with_({ rateLimits: [{ ...bucket, caller: 'x-anonymous:1' }] }), 'must be key#<fingerprint> or anonymous:<address>'],
      [with_({ rateLimits: [{ ...bucket, caller: 'key#abc-x' }] }), 'must be key#<fingerprint> or anonymous:<address>'],
      [with_({ rateLimits: [{ ...bucket, minute: 2 ** 40 }] }), 'Invalid snapshot: rateLimits.0.minute:'],
      [with_({ rateLimits: [{ ...bucket, day: 2 ** 33 }] }), 'Invalid snapshot: rateLimits.0.day:'],
      [
        with_({ rateLimits: [{ ...bucket, minuteCount: 5, dayCount: 3 }] }),
        'Invalid snapshot: rateLimits.0: minuteCount is above dayCount in the same day',
      ],
      [
        with_({ rateLimits: [{ ...bucket, minute: 1440, day: 1, minuteCount: 5, dayCount: 3 }] }),
        'Invalid snapshot: rateLimits.0: minuteCount is above dayCount in the same day',
      ],
      [with_({ faults: { nextId: 2, rules: [{ operation: 'listPets', status: 503 }] } }), 'Invalid snapshot: faults.rules.0.id:'],
    ]
    for (const [snapshot, message] of cases) {
      expect(() => simulator.restore(snapshot), JSON.stringify(snapshot)?.slice(0, 200)).toThrow(RangeError)
      expect(() => simulator.restore(snapshot), JSON.stringify(snapshot)?.slice(0, 200)).toThrow(message)
      expect(JSON.stringify(simulator.snapshot())).toBe(before)
    }
  })

  it('what is left to check: a valid name of more UTF-16 units than characters, minutes in another day', () => {
    const { simulator, base, bucket } = setUp()
    simulator.restore({ ...base, catalogue: { nextId: 3, pets: [pet(2, longName), pet(1)] } })
    expect(simulator.store.all().map((each) => [each.id, each.name])).toEqual([
      [1, 'Rex'],
      [2, longName],
    ])
    // Yesterday's day count, this minute's: a new day has begun since the day counted.
    simulator.restore({ ...base, rateLimits: [{ ...bucket, minute: 1440, minuteCount: 5, day: 0, dayCount: 3 }] })
    expect(simulator.snapshot().rateLimits).toHaveLength(1)
  })
})

describe('a restore', () => {
  it('keeps the journal when it refuses, for a bad fault rule or a clock out of range, and empties it when it restores', async () => {
    const { simulator, base } = setUp()
    const get = () =>
      simulator.pipeline.respond({
        method: 'GET',
        path: '/v1/pets',
        query: '',
        authority: 'localhost',
        header: (name) => (name === 'authorization' ? 'Bearer demo-pro-key' : undefined),
        headerList: () => ['authorization', 'Bearer demo-pro-key'],
        readBody: async () => new Uint8Array(),
        transport: { clientAddress: '127.0.0.1' },
      })
    await get()
    await get()
    expect(simulator.journal.entries()).toHaveLength(2)
    const badRule = { ...base, faults: { nextId: 5, rules: [{ id: 'f1', operation: 'feedPets', status: 503 }] } }
    expect(() => simulator.restore(badRule)).toThrow(/Invalid snapshot: Fault rule #0 \(f1\)/)
    const badClock = { ...base, clock: { offsetMs: -1e15, frozenAt: null } }
    expect(() => simulator.restore(badClock)).toThrow(/Invalid snapshot: .*outside the clock's range/)
    expect(simulator.journal.entries()).toHaveLength(2)
    simulator.restore(base)
    expect(simulator.journal.entries()).toEqual([])
  })

  it('drops a bucket of a key no longer in force: its counts limit nothing', () => {
    const { simulator, base, bucket } = setUp()
    const gone = { ...bucket, caller: fingerprint('a-key-of-another-run') }
    const kept = { ...bucket, caller: fingerprint('demo-pro-key') }
    simulator.restore({ ...base, rateLimits: [gone, kept] })
    expect(simulator.snapshot().rateLimits.map((each) => each.caller)).toEqual([kept.caller])
  })
})
