import { describe, expect, it } from 'vitest'
import { SimulatorOptionError } from '../../../src/core/state/state-control.ts'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'

// Scenarios as docs/state-and-scenarios.md describes them ("Scenarios"): what a definition may hold, what switching
// to one puts in force, and the messages that name what is wrong. The definitions' checks come first and in one test:
// the scenario schema is built once, on first use, so the first scenario checked in the file is the one that builds it.

const start = '2030-06-15T10:00:30.000Z'
const simulator = (options: Parameters<typeof createSimulatorCore>[0] = {}) =>
  createSimulatorCore({ clock: createManualClock(start), pets: 4, ...options })

describe('a scenario', () => {
  it('may hold usage (a count or "all") and a clock (set, freeze), and nothing else there', () => {
    const sim = simulator({
      keys: { 'one-key': 'free', 'two-key': 'pro' },
      scenarios: {
        busy: { usage: { 'one-key': { minute: 'all' }, '*': { minute: 2 } } },
        still: { clock: { set: '2031-02-03T04:05:06.000Z', freeze: true } },
      },
    })
    for (const usage of [{ minute: -1 }, { minute: 'some' }, { hour: 1 }])
      expect(() => simulator({ scenarios: { odd: { usage: { '*': usage } } } as never })).toThrow(/^Scenario odd: usage\./)
    expect(() => simulator({ scenarios: { odd: { clock: { at: 1 } } } as never })).toThrow(/^Scenario odd: clock/)
    expect(() => simulator({ scenarios: { odd: { pets: 1, colour: 'red' } } as never })).toThrow(
      new RangeError('Scenario odd: Unrecognized key: "colour"'),
    )
    sim.useScenario('busy')
    const used = Object.fromEntries(sim.state().keys.map((key) => [key.plan, key.minute.used]))
    expect(used).toEqual({ free: 60, pro: 2 })
    sim.useScenario('still')
    expect(sim.clock.frozen).toBe(true)
    expect(new Date(sim.clock.now()).toISOString()).toBe('2031-02-03T04:05:06.000Z')
  })

  it('with usage for one key leaves the others untouched', () => {
    const sim = simulator({
      keys: { 'one-key': 'free', 'two-key': 'pro' },
      scenarios: { one: { usage: { 'one-key': { minute: 3 } } } },
    })
    sim.useScenario('one')
    expect(sim.state().keys.map((key) => [key.plan, key.minute.used, key.day.used])).toEqual([
      ['free', 3, 3],
      ['pro', 0, 0],
    ])
  })

  it('with a seed of its own generates its pets, rather than take the options’ fixtures', () => {
    const sim = simulator({ fixtures: [{ name: 'Tom', categoryId: 2 }], scenarios: { seeded: { seed: 5 } } })
    expect(sim.store.all().map((pet) => pet.name)).toEqual(['Tom'])
    sim.useScenario('seeded')
    expect(sim.store.all().map((pet) => pet.name)).not.toEqual(['Tom'])
  })

  it('is listed with its description, or an empty one', () => {
    const sim = simulator({ scenarios: { plain: {} } })
    expect(sim.scenarios().at(-1)).toEqual({ name: 'plain', description: '' })
  })

  it('that does not exist is refused, naming the ones that do', () => {
    const sim = simulator({ scenarios: { mine: {} } })
    expect(() => sim.useScenario('nowhere')).toThrow(
      new RangeError('No scenario "nowhere" (there are default, empty, all-sold, sunset, rate-limited, degraded, mine)'),
    )
  })
})

describe('the options a scenario falls back on', () => {
  it('a bad fault rule is named by its option and index, not by the scenario', () => {
    const error = (() => {
      try {
        simulator({
          faults: [
            { operation: 'listPets', status: 503 },
            { operation: 'feedPets', status: 503 },
          ],
        })
      } catch (caught) {
        return caught
      }
    })() as SimulatorOptionError
    expect(error).toBeInstanceOf(SimulatorOptionError)
    expect(error.message).toMatch(/^faults\[1\]: Invalid fault rule: no operation feedPets/)
    expect([error.option, error.index]).toEqual(['faults', 1])
    expect(error.problem).toMatch(/^Invalid fault rule: no operation feedPets/)
  })

  it('a bad key is named by its option', () => {
    expect(() => simulator({ keys: { k: 'platinum' } })).toThrow(SimulatorOptionError)
    expect(() => simulator({ keys: { k: 'platinum' } })).toThrow(/^keys: .*platinum/)
  })

  it("a scenario's own bad rule is named by the scenario, the rule's error as its cause", () => {
    const error = (() => {
      try {
        simulator({ scenarios: { broken: { faults: [{ operation: 'feedPets', status: 503 }] } } })
      } catch (caught) {
        return caught
      }
    })() as RangeError
    expect(error).not.toBeInstanceOf(SimulatorOptionError)
    expect(error.message).toMatch(/^Scenario broken: Invalid fault rule: no operation feedPets/)
    expect((error.cause as Error).message).toMatch(/^Invalid fault rule: no operation feedPets/)
  })

  it('reconfigure checks every scenario, not only the one in use, and changes nothing when one is bad', () => {
    const sim = simulator()
    sim.store.create({ name: 'Kept', categoryId: 1 })
    expect(() => sim.reconfigure({ scenarios: { broken: { faults: [{ operation: 'feedPets', status: 503 }] } } })).toThrow(
      /^Scenario broken: /,
    )
    expect(sim.store.size).toBe(5)
    expect(sim.scenarios().map((scenario) => scenario.name)).not.toContain('broken')
  })
})

describe('the state as read', () => {
  it('says no ban when the simulator bans no one', () => {
    expect(simulator({ ban: false }).state().ban).toBe(false)
  })

  it('a snapshot reader gives the snapshot without its pets, and the pets a slice at a time', () => {
    const sim = simulator()
    sim.store.create({ name: 'Rex', categoryId: 1 })
    const reader = sim.snapshotReader()
    const whole = sim.snapshot()
    expect(reader.snapshot).toEqual({ ...whole, catalogue: { ...whole.catalogue, pets: [] } })
    const pets = []
    for (let slice = reader.pets(2); slice.length > 0; slice = reader.pets(2)) pets.push(...slice)
    expect(pets).toEqual(whole.catalogue.pets)
  })
})
