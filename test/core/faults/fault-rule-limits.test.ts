import { describe, expect, it } from 'vitest'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'
import { FaultRuleLimitError, maxFaultRules, maxFaultRulesPerAdd } from '../../../src/core/faults/fault-rules.ts'

// Issue #20, item 1: 170,034 rules were accepted, and an array of 28,339 with one invalid took 271 s to refuse
// (each added rule was taken back one by one, each removal copying the whole list). The work is counted here, not timed.

describe('fault rule limits', () => {
  it('refuses a rule past the cap in force, naming the cap', () => {
    const simulator = createSimulatorCore()
    for (let index = 0; index < maxFaultRules; index++) simulator.faults.add({ status: 503, probability: 0.5 })
    expect(simulator.faults.list()).toHaveLength(maxFaultRules)
    expect(() => simulator.faults.add({ status: 503 })).toThrow(
      new FaultRuleLimitError(`Invalid fault rule: at most ${maxFaultRules} rules are in force at once`),
    )
    expect(simulator.faults.list()).toHaveLength(maxFaultRules)
  })

  it('adds an array all or nothing, checking every rule before it changes anything', () => {
    const simulator = createSimulatorCore()
    let changes = 0
    simulator.events.subscribe((event) => {
      if (event.type === 'faults') changes++
    })
    const rules = Array.from({ length: maxFaultRulesPerAdd }, () => ({ status: 503 }))
    rules[maxFaultRulesPerAdd - 1] = { status: 99 }
    expect(() => simulator.faults.addAll(rules)).toThrow(/^Rule #99: Invalid fault rule: status/)
    // Refused before anything was added: no rule, and no change for the dashboard to redraw.
    expect(simulator.faults.list()).toEqual([])
    expect(changes).toBe(0)

    const ids = simulator.faults.addAll(rules.slice(0, -1))
    expect(ids).toHaveLength(maxFaultRulesPerAdd - 1)
    expect(ids[0]).toBe('f1')
    // One change for the whole array.
    expect(changes).toBe(1)
  })

  it('refuses an array over the per-request cap, or one that would pass the cap in force', () => {
    const simulator = createSimulatorCore()
    const rules = Array.from({ length: maxFaultRulesPerAdd + 1 }, () => ({ status: 503 }))
    expect(() => simulator.faults.addAll(rules)).toThrow(
      new FaultRuleLimitError(`Invalid fault rules: at most ${maxFaultRulesPerAdd} rules at a time (got ${maxFaultRulesPerAdd + 1})`),
    )
    for (let index = 0; index < maxFaultRules / maxFaultRulesPerAdd - 1; index++) simulator.faults.addAll(rules.slice(1))
    simulator.faults.addAll(rules.slice(2))
    expect(() => simulator.faults.addAll(rules.slice(0, 2))).toThrow(
      new FaultRuleLimitError(
        `Invalid fault rules: at most ${maxFaultRules} rules are in force at once (${maxFaultRules - 1} now, 2 more sent)`,
      ),
    )
    expect(simulator.faults.list()).toHaveLength(maxFaultRules - 1)
  })
})
