import { describe, expect, it } from 'vitest'
import { FaultRuleLimitError, maxFaultRulesPerAdd } from '../../../src/core/faults/fault-rules.ts'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'

// What a fault rule may say (docs/error-states.md, the rule's fields), each refusal with the message the API gives in
// its `400 invalid_body` and `simulator.faults.add` in its RangeError. The refusals are one test, the file's first: the
// rule schema is built once, on first use, so the first rule checked in the file is the one that builds it.

describe('a fault rule is refused, with the message that names why', () => {
  it('for each thing a rule may not say', () => {
    const cases: [object, string][] = [
      [{ operation: 'listPets' }, 'Invalid fault rule: a rule needs a status, a fault or a delay'],
      [{ operation: 'listPets', status: 503, fault: 'reset' }, 'Invalid fault rule: a rule answers a status or does a fault, not both'],
      [{ operation: 'listPets', fault: 'reset', hangMs: 5 }, 'Invalid fault rule: hangMs goes with fault "hang"'],
      [{ operation: 'listPets', delay: { min: 5, max: 4 } }, 'Invalid fault rule: delay: min must not be above max'],
      [{ operation: 'listPets', path: 'pets', status: 503 }, 'Invalid fault rule: path: Invalid string: must start with "/"'],
      [
        { status: 201 },
        'Invalid fault rule: listPets, getPet, listOrders never answers 201; use one of its documented statuses (200, 400, 401, 429) or 500, 502, 503, 504',
      ],
    ]
    const simulator = createSimulatorCore()
    for (const [rule, message] of cases)
      expect(() => simulator.faults.add(rule as never), JSON.stringify(rule)).toThrow(new RangeError(message))
    expect(simulator.faults.list()).toEqual([])
  })

  it('accepts what those checks allow: a delay range of one value, a hang of its own length, a fault with a delay', () => {
    const simulator = createSimulatorCore()
    simulator.faults.add({ operation: 'listPets', delay: { min: 5, max: 5 } })
    simulator.faults.add({ operation: 'getPet', fault: 'hang', hangMs: 5 })
    simulator.faults.add({ operation: 'createPet', fault: 'reset', delay: 10 })
    simulator.faults.add({ operation: 'listOrders', status: 503, delay: 10 })
    expect(simulator.faults.list()).toHaveLength(4)
  })

  it('a concrete path limits the rule to the operation it names: a status only that operation documents is allowed', () => {
    const simulator = createSimulatorCore()
    // getPet documents 404, listPets does not: `/pets/2` is getPet's path only.
    expect(simulator.faults.add({ path: '/pets/2', status: 404 })).toBe('f1')
    const [getPet, listPets] = ['getPet', 'listPets'].map(
      (name) => simulator.pipeline.table.routes.find((route) => route.operation === name)!,
    )
    expect(simulator.faults.fire(getPet, 'GET', '/v1/pets/2', undefined)?.status).toBe(404)
    expect(simulator.faults.fire(listPets, 'GET', '/v1/pets', undefined)).toBeUndefined()
  })

  it('a refusal for a cap is a FaultRuleLimitError by name', () => {
    const simulator = createSimulatorCore()
    const rules = Array.from({ length: maxFaultRulesPerAdd + 1 }, () => ({ status: 503 }))
    const error = (() => {
      try {
        simulator.faults.addAll(rules)
      } catch (caught) {
        return caught as Error
      }
    })()
    expect(error).toBeInstanceOf(FaultRuleLimitError)
    expect(error?.name).toBe('FaultRuleLimitError')
  })
})
