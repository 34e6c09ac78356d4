import { describe, expect, it } from 'vitest'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'
import { keyCallerPrefix } from '../../../src/core/access/rate-limiter.ts'

const start = '2030-06-15T10:00:30.000Z'
const keys = { 'alpha-key': 'enterprise:3/5', 'beta-key': 'pro' }

function simulator(options: Parameters<typeof createSimulatorCore>[0] = {}) {
  return createSimulatorCore({ seed: 7, pets: 10, keys, clock: createManualClock(start), ...options })
}

/** A simulator with something of every kind in its state. */
function busySimulator() {
  const sim = simulator()
  sim.store.create({ name: 'Rex', categoryId: 2 })
  sim.store.create({ name: 'Tom', categoryId: 3, status: 'sold' })
  sim.clock.advance(90_000)
  const alpha = sim.keys.find((key) => key.token === 'alpha-key')!
  for (let index = 0; index < 4; index++) sim.limiter.consume(`${keyCallerPrefix}alpha-key`, alpha.plan)
  sim.limiter.consume('anonymous:10.0.0.7', alpha.plan)
  sim.faults.add({ operation: 'listPets', status: 503, times: 2 })
  sim.faults.add({ operation: 'getPet', delay: { min: 5, max: 10 }, key: 'beta-key' })
  return sim
}

describe('simulator.snapshot() and restore()', () => {
  it('is plain versioned JSON with no token in it, and restores into another simulator exactly', () => {
    const source = busySimulator()
    const text = JSON.stringify(source.snapshot())
    expect(text).not.toContain('alpha-key')
    expect(text).not.toContain('beta-key')
    const snapshot = JSON.parse(text)
    expect(snapshot).toMatchObject({
      format: 1,
      scenario: 'default',
      catalogue: { nextId: 13 },
      clock: { offsetMs: 90_000, frozenAt: null },
    })
    expect(snapshot.catalogue.pets).toHaveLength(12)

    const target = simulator({ seed: 99, pets: 3 })
    target.restore(snapshot)
    expect(target.store.all()).toEqual(source.store.all())
    expect(target.store.create({ name: 'Next', categoryId: 1 }).id).toBe(13)
    expect(target.clock.now()).toBe(source.clock.now())
    expect(target.faults.list()).toEqual(source.faults.list())
    expect(target.faults.add({ operation: 'createPet', status: 500 })).toBe('f3')
    expect(target.state().keys).toEqual(source.state().keys)
    expect(target.state().anonymous.buckets).toBe(1)
    // The alpha key (3 a minute, 5 a day) was allowed 3 and refused 1: in the next minute, two more, then 429.
    const alpha = target.keys.find((key) => key.token === 'alpha-key')!
    target.clock.advance(60_000)
    const outcomes = [1, 2, 3].map(() => target.limiter.consume(`${keyCallerPrefix}alpha-key`, alpha.plan).outcome)
    expect(outcomes).toEqual(['allowed', 'allowed', 'limited'])
  })

  it('keeps a frozen clock frozen at its instant', () => {
    const source = simulator()
    source.clock.set('2031-01-01T00:00:00Z')
    source.clock.freeze()
    const target = simulator()
    target.restore(JSON.parse(JSON.stringify(source.snapshot())))
    expect(target.clock.frozen).toBe(true)
    expect(new Date(target.clock.now()).toISOString()).toBe('2031-01-01T00:00:00.000Z')
  })

  it('leaves reset to return to the start, not to the snapshot', () => {
    const target = simulator()
    target.restore(busySimulator().snapshot())
    target.reset()
    expect(target.store.size).toBe(10)
    expect(target.faults.list()).toEqual([])
    expect(target.clock.now()).toBe(Date.parse(start))
  })

  const refusals: [string, (snapshot: any) => unknown, RegExp][] = [
    ['another format', (snapshot) => ({ ...snapshot, format: 2 }), /format: must be 1/],
    ['an unknown field', (snapshot) => ({ ...snapshot, extra: true }), /extra/],
    [
      'a pet with a bad name',
      (snapshot) => ({ ...snapshot, catalogue: { ...snapshot.catalogue, pets: [{ id: 1, name: '', categoryId: 1, status: 'sold' }] } }),
      /catalogue\.pets\.0: name: must not be empty/,
    ],
    [
      'a repeated id',
      (snapshot) => ({ ...snapshot, catalogue: { ...snapshot.catalogue, pets: [snapshot.catalogue.pets[0], snapshot.catalogue.pets[0]] } }),
      /repeats the id 1/,
    ],
    ['an id not below nextId', (snapshot) => ({ ...snapshot, catalogue: { ...snapshot.catalogue, nextId: 2 } }), /not below nextId 2/],
    [
      'a fault rule for no operation',
      (snapshot) => ({ ...snapshot, faults: { nextId: 5, rules: [{ id: 'f1', operation: 'feedPets', status: 503 }] } }),
      /Fault rule #0 \(f1\).*no operation feedPets/,
    ],
    ['a clock out of range', (snapshot) => ({ ...snapshot, clock: { offsetMs: -1e15, frozenAt: null } }), /outside the clock's range/],
    ['an unknown scenario', (snapshot) => ({ ...snapshot, scenario: 'mars' }), /No scenario "mars"/],
    ['not an object', () => [1, 2], /must be a JSON object/],
  ]

  it.each(refusals)('refuses %s, naming it, and changes nothing', (_name, spoil, message) => {
    const source = busySimulator()
    const snapshot = JSON.parse(JSON.stringify(source.snapshot()))
    const target = busySimulator()
    const before = JSON.stringify(target.snapshot())
    expect(() => target.restore(spoil(snapshot))).toThrow(message)
    expect(JSON.stringify(target.snapshot())).toBe(before)
  })
})

describe('scenarios', () => {
  it('lists the built-in ones with descriptions, and the user’s', () => {
    const sim = simulator({
      scenarios: {
        'two-cats': {
          description: 'Two cats',
          fixtures: [
            { name: 'Tom', categoryId: 2 },
            { name: 'Kit', categoryId: 2 },
          ],
        },
      },
    })
    expect(sim.scenarios().map((scenario) => scenario.name)).toEqual([
      'default',
      'empty',
      'all-sold',
      'sunset',
      'rate-limited',
      'degraded',
      'two-cats',
    ])
    expect(sim.scenarios().every((scenario) => scenario.description.length > 0)).toBe(true)
    sim.useScenario('two-cats')
    expect(sim.store.all().map((pet) => pet.name)).toEqual(['Tom', 'Kit'])
  })

  it('empty has no pets, all-sold only sold ones, and reset returns to the active scenario', () => {
    const sim = simulator()
    sim.useScenario('empty')
    expect(sim.scenario).toBe('empty')
    expect(sim.store.size).toBe(0)
    sim.store.create({ name: 'Rex', categoryId: 1 })
    sim.reset()
    expect(sim.store.size).toBe(0)
    sim.useScenario('all-sold')
    expect(sim.store.size).toBe(10)
    expect(new Set(sim.store.all().map((pet) => pet.status))).toEqual(new Set(['sold']))
  })

  it('sunset moves the clock past getPet’s removal; rate-limited spends every key’s minute; degraded adds seeded faults', () => {
    const sim = simulator()
    sim.useScenario('sunset')
    expect(sim.clock.now()).toBeGreaterThan(sim.state().clock.epochMs - 1)
    expect(sim.clock.now()).toBeGreaterThan(Date.parse(sim.state().getPet.sunsetAt))
    sim.useScenario('rate-limited')
    expect(sim.clock.now()).toBe(Date.parse(start))
    expect(sim.state().keys.map((key) => key.minute.remaining)).toEqual([0, 0])
    sim.useScenario('degraded')
    expect(sim.faults.list().map((rule) => rule.status ?? rule.delay)).toEqual([503, { min: 200, max: 2000 }])
    sim.useScenario('default')
    expect(sim.faults.list()).toEqual([])
  })

  it('brings its own keys and usage', () => {
    const sim = simulator({ scenarios: { solo: { keys: { 'solo-key': 'free' }, usage: { 'solo-key': { minute: 10, day: 500 } } } } })
    sim.useScenario('solo')
    expect(sim.keys.map((key) => key.token)).toEqual(['solo-key'])
    expect(sim.state().keys[0]).toMatchObject({ minute: { used: 10 }, day: { used: 500 } })
    sim.useScenario('default')
    expect(sim.keys.map((key) => key.token)).toEqual(['alpha-key', 'beta-key'])
  })

  it('refuses an unknown or invalid scenario and changes nothing', () => {
    expect(() => simulator({ scenarios: { 'bad one': {} } })).toThrow(/Scenario name "bad one"/)
    expect(() => simulator({ scenarios: { odd: { pets: -1 } } })).toThrow(/Scenario odd: pets/)
    // Every scenario is checked when the simulator is created, not only the one chosen (issue 26).
    expect(() => simulator({ scenarios: { broken: { faults: [{ operation: 'feedPets', status: 503 }] } } })).toThrow(
      /Scenario broken: .*no operation feedPets/,
    )
    expect(() => simulator({ scenarios: { keyless: { keys: { k: 'platinum' } } } })).toThrow(/Scenario keyless: .*platinum/)
    expect(() => simulator({ scenarios: { nameless: { fixtures: [{ name: '', categoryId: 1 }] } } })).toThrow(/Scenario nameless: /)
    expect(() => simulator({ scenarios: { late: { clock: { set: '10000-01-01T00:00:00Z' } } } })).toThrow(/Scenario late: /)
    const sim = simulator()
    sim.store.create({ name: 'Rex', categoryId: 1 })
    expect(() => sim.useScenario('nowhere')).toThrow(/No scenario "nowhere"/)
    expect(sim.scenario).toBe('default')
    expect(sim.store.size).toBe(11)
  })

  it('starts in the scenario the options name, and a snapshot carries it', () => {
    const sim = simulator({ scenario: 'empty' })
    expect(sim.store.size).toBe(0)
    const other = simulator()
    other.restore(sim.snapshot())
    expect(other.scenario).toBe('empty')
    other.reset()
    expect(other.store.size).toBe(0)
  })
})

describe('simulator.reconfigure()', () => {
  it('replaces catalogue, keys, faults and scenarios, and resets into the active scenario', () => {
    const sim = simulator({ scenario: 'all-sold' })
    sim.store.create({ name: 'Gone', categoryId: 1 })
    sim.reconfigure({
      fixtures: [{ name: 'Fixed', categoryId: 3, status: 'available' }],
      keys: { 'new-key': 'free' },
      faults: [{ operation: 'getPet', status: 503 }],
    })
    expect(sim.scenario).toBe('all-sold')
    expect(sim.store.all()).toEqual([{ id: 1, name: 'Fixed', categoryId: 3, status: 'sold' }])
    expect(sim.keys.map((key) => key.token)).toEqual(['new-key'])
    expect(sim.faults.list()).toMatchObject([{ operation: 'getPet', status: 503 }])
    sim.reconfigure({ pets: 2, scenarios: { mine: { description: 'Mine', pets: 1 } }, scenario: 'mine' })
    expect(sim.scenario).toBe('mine')
    expect(sim.store.size).toBe(1)
  })

  it('refuses a bad configuration and changes nothing', () => {
    const sim = simulator()
    sim.store.create({ name: 'Kept', categoryId: 1 })
    expect(() => sim.reconfigure({ fixtures: [{ name: '' }] })).toThrow(/Scenario default: Pet fixture #0/)
    expect(() => sim.reconfigure({ scenario: 'nowhere' })).toThrow(/No scenario "nowhere"/)
    expect(() => sim.reconfigure({ scenarios: { 'bad name': {} } })).toThrow(/Scenario name/)
    expect(sim.store.size).toBe(11)
    expect(sim.keys.map((key) => key.token)).toEqual(['alpha-key', 'beta-key'])
  })
})

// Issue 36: a catalogue given with ids near 2^53 wrote snapshots its own restore refused (nextId past "room for
// --max-pets more"), and `--state` then refused to start.
describe('every snapshot a simulator writes, it restores', () => {
  it.each([Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER - 50_000, Number.MAX_SAFE_INTEGER - 100_001])(
    'with a fixture of id %d',
    (id) => {
      const sim = simulator({ fixtures: [{ id, name: 'Top', categoryId: 1 }] })
      if (!sim.store.full) sim.store.create({ name: 'After', categoryId: 1 })
      const written = JSON.parse(JSON.stringify(sim.snapshot()))
      expect(() => sim.restore(written)).not.toThrow()
      expect(sim.snapshot().catalogue).toEqual(written.catalogue)
    },
  )
})
