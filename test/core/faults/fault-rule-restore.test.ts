import { describe, expect, it } from 'vitest'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'

// A snapshot's fault rules (docs/state-and-scenarios.md: `simulator.restore`, `--state`): put back with their ids and
// what is left of `times`, or refused whole, naming the rule, when an id is not `f<n>`, is repeated, or is not below
// the next id.

const rule = { operation: 'listPets', status: 503 }

function restored(rules: readonly object[], nextId: number) {
  const simulator = createSimulatorCore()
  const snapshot = { ...simulator.snapshot(), faults: { nextId, rules } }
  simulator.restore(snapshot)
  return simulator
}

describe('restoring fault rules', () => {
  it('puts back ids of any length, and the next id after them', () => {
    const simulator = restored(
      [
        { id: 'f12', ...rule, remaining: 2 },
        { id: 'f3', operation: 'getPet', status: 404 },
      ],
      13,
    )
    expect(simulator.faults.list()).toEqual([
      { id: 'f12', ...rule, remaining: 2 },
      { id: 'f3', operation: 'getPet', status: 404 },
    ])
    expect(simulator.faults.add({ operation: 'createPet', status: 500 })).toBe('f13')
  })

  it.each([
    [[{ id: 'xf1', ...rule }], 5, 'Invalid snapshot: Fault rule #0: the id "xf1" is not f<n> or is repeated'],
    [[{ id: 'f1x', ...rule }], 5, 'Invalid snapshot: Fault rule #0: the id "f1x" is not f<n> or is repeated'],
    [
      [
        { id: 'f1', ...rule },
        { id: 'f1', ...rule },
      ],
      5,
      'Invalid snapshot: Fault rule #1: the id "f1" is not f<n> or is repeated',
    ],
    [[{ id: 'f5', ...rule }], 5, "Invalid snapshot: The next fault rule id (5) must be a whole number above every rule's"],
  ])('refuses %j with next id %d, and changes nothing', (rules, nextId, message) => {
    const simulator = createSimulatorCore()
    simulator.faults.add({ operation: 'getPet', status: 404 })
    const before = simulator.snapshot()
    expect(() => simulator.restore({ ...before, faults: { nextId, rules } })).toThrow(new RangeError(message))
    expect(simulator.faults.list()).toEqual(before.faults.rules)
  })

  it('takes a next id just above the highest rule', () => {
    expect(restored([{ id: 'f5', ...rule }], 6).faults.add(rule)).toBe('f6')
  })
})
