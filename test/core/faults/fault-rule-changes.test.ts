import { describe, expect, it } from 'vitest'
import { defaultHangMs } from '../../../src/core/faults/fault-rules.ts'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'

// The rules in force as they change (simulator.faults: add, remove, clear, and `times` counted down), each change one
// `faults` event for the dashboard and the `--state` file; and what a rule that fires gives the pipeline.

function setUp() {
  const simulator = createSimulatorCore()
  let changes = 0
  simulator.events.subscribe((event) => {
    if (event.type === 'faults') changes++
  })
  const route = (operation: string) => simulator.pipeline.table.routes.find((candidate) => candidate.operation === operation)!
  return { simulator, faults: simulator.faults, changes: () => changes, route }
}

describe('the rules in force change', () => {
  it('remove: true and one change for a rule in force, false and none for an id that is not', () => {
    const { faults, changes } = setUp()
    const [first, second] = faults.addAll([
      { operation: 'listPets', status: 503 },
      { operation: 'getPet', status: 404 },
    ])
    expect(changes()).toBe(1)
    expect(faults.remove('f9')).toBe(false)
    expect(changes()).toBe(1)
    expect(faults.remove(first!)).toBe(true)
    expect(changes()).toBe(2)
    expect(faults.list().map((rule) => rule.id)).toEqual([second])
    expect(faults.remove(first!)).toBe(false)
  })

  it('clear: one change when there were rules, none when there were not; ids start again at f1', () => {
    const { faults, changes } = setUp()
    faults.clear()
    expect(changes()).toBe(0)
    faults.add({ operation: 'listPets', status: 503 })
    faults.clear()
    expect(changes()).toBe(2)
    expect(faults.list()).toEqual([])
    expect(faults.add({ operation: 'listPets', status: 503 })).toBe('f1')
  })

  it('addAll of no rules adds nothing and changes nothing', () => {
    const { faults, changes } = setUp()
    expect(faults.addAll([])).toEqual([])
    expect(changes()).toBe(0)
    expect(faults.nextId).toBe(1)
  })

  it('spend: a rule a shared store found spent is dropped, once; an unknown id changes nothing', () => {
    const { faults, changes } = setUp()
    const id = faults.add({ operation: 'listPets', status: 503, times: 3 })
    faults.spend('f9')
    expect(changes()).toBe(1)
    faults.spend(id)
    expect(faults.list()).toEqual([])
    expect(changes()).toBe(2)
    faults.spend(id)
    expect(changes()).toBe(2)
  })

  it('times is counted down, one change a firing; a rule without times changes nothing when it fires', () => {
    const { faults, changes, route } = setUp()
    faults.add({ operation: 'listPets', status: 503 })
    faults.fire(route('listPets'), 'GET', '/v1/pets', undefined)
    expect(changes()).toBe(1)
    faults.clear()
    faults.add({ operation: 'listPets', status: 503, times: 2 })
    const before = changes()
    faults.fire(route('listPets'), 'GET', '/v1/pets', undefined)
    expect(faults.list()[0]!.remaining).toBe(1)
    expect(changes()).toBe(before + 1)
  })
})

describe('a rule that fires', () => {
  it('hangs for hangMs, or 30 s by default', () => {
    const { faults, route } = setUp()
    faults.add({ operation: 'listPets', fault: 'hang' })
    faults.add({ operation: 'getPet', fault: 'hang', hangMs: 250 })
    expect(faults.fire(route('listPets'), 'GET', '/v1/pets', undefined)).toMatchObject({ fault: 'hang', hangMs: defaultHangMs })
    expect(defaultHangMs).toBe(30_000)
    expect(faults.fire(route('getPet'), 'GET', '/v1/pets/1', undefined)).toMatchObject({ fault: 'hang', hangMs: 250 })
  })

  it('with probability 1 fires every time; with 0.2, about a fifth of the time, the same for the same seed', () => {
    const share = (probability: number) => {
      const { faults, route } = setUp()
      faults.add({ operation: 'listPets', status: 503, probability })
      let fired = 0
      for (let index = 0; index < 1000; index++) if (faults.fire(route('listPets'), 'GET', '/v1/pets', undefined)) fired++
      return fired
    }
    expect(share(1)).toBe(1000)
    const fifth = share(0.2)
    expect(fifth).toBeGreaterThan(150)
    expect(fifth).toBeLessThan(250)
    expect(share(0.2)).toBe(fifth)
  })

  it('for a key, never for a caller without one', () => {
    const { simulator, faults, route } = setUp()
    faults.add({ operation: 'listPets', status: 503, key: 'demo-pro-key' })
    const pro = simulator.keys.find((key) => key.token === 'demo-pro-key')
    const free = simulator.keys.find((key) => key.token === 'demo-free-key')
    expect(faults.fire(route('listPets'), 'GET', '/v1/pets', undefined)).toBeUndefined()
    expect(faults.fire(route('listPets'), 'GET', '/v1/pets', free)).toBeUndefined()
    expect(faults.fire(route('listPets'), 'GET', '/v1/pets', pro)?.status).toBe(503)
  })

  it('with times, says its place among the rules (a shared store goes on from there); without, says none', () => {
    const { faults, route } = setUp()
    faults.add({ operation: 'getPet', status: 404 })
    faults.add({ operation: 'listPets', status: 503, times: 2 })
    faults.add({ operation: 'listPets', status: 500 })
    expect(faults.fire(route('listPets'), 'GET', '/v1/pets', undefined)).toMatchObject({ ruleId: 'f2', status: 503, at: 1 })
    expect(faults.fire(route('getPet'), 'GET', '/v1/pets/1', undefined)).toMatchObject({ ruleId: 'f1', at: undefined })
    // From the third rule on, the second is passed over.
    expect(faults.fire(route('listPets'), 'GET', '/v1/pets', undefined, 2)).toMatchObject({ ruleId: 'f3', status: 500 })
  })
})
