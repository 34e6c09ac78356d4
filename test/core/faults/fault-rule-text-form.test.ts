import { describe, expect, it } from 'vitest'
import { formatFaultRule, parseFaultText } from '../../../src/core/faults/fault-text.ts'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'

// A rule in force, in the text form `--fault` reads (the `--state` banner's "fault rules:" line,
// docs/state-and-scenarios.md): its id, then what `--fault` would say, then what is left of `times`.

describe('formatFaultRule (a rule in force, as the --state banner shows it)', () => {
  it.each([
    ['getPet 404 times=2', 'f1: getPet 404 (2 left)'],
    ['GET /v1/pets 503 p=0.5', 'f1: GET /v1/pets 503 p=0.5'],
    ['* delay=100-500', 'f1: * delay=100-500'],
    ['createPet reset delay=250', 'f1: createPet reset delay=250'],
    ['getPet hang=250', 'f1: getPet hang=250'],
    ['getPet hang', 'f1: getPet hang'],
    ['GET /v1/pets/{petId} empty', 'f1: GET /v1/pets/{petId} empty'],
  ])('%j is listed as %j', (text, listed) => {
    const simulator = createSimulatorCore()
    simulator.faults.add(parseFaultText(text, '/v1'))
    expect(formatFaultRule(simulator.faults.list()[0]!, '/v1')).toBe(listed)
  })

  it('shows a key as its fingerprint, never the key', () => {
    const simulator = createSimulatorCore()
    simulator.faults.add(parseFaultText('listPets 503 key=demo-free-key', '/v1'))
    const listed = formatFaultRule(simulator.faults.list()[0]!, '/v1')
    expect(listed).toMatch(/^f1: listPets 503 key=key#[0-9a-f]+$/)
    expect(listed).not.toContain('demo-free-key')
  })

  it('reads back, past its id and what is left, as the rule it lists', () => {
    const simulator = createSimulatorCore()
    for (const text of ['GET /v1/pets 503 p=0.25', 'POST /v1/pets delay=5-9', 'listOrders 500', 'getPet hang=40'])
      simulator.faults.add(parseFaultText(text, '/v1'))
    for (const rule of simulator.faults.list()) {
      const text = formatFaultRule(rule, '/v1').replace(/^f\d+: /, '')
      const { id: _id, ...fields } = rule
      expect(parseFaultText(text, '/v1')).toEqual(fields)
    }
  })
})
