// Issue 49, part 6: provider states of the team's own, in-process (applyProviderState's third argument): set up from
// a scenario, a snapshot and built-in steps, all checked before anything changes, and torn down into the scenario the
// simulator was started in.
import { describe, expect, it } from 'vitest'
import { checkMappedProviderStates, type MappedProviderStates } from '../../../src/core/simulator/mapped-provider-states.ts'
import { applyProviderState, type MappedStates } from '../../../src/core/simulator/provider-states.ts'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'

const states: MappedProviderStates = {
  'a dog for sale': {
    scenario: 'empty',
    states: [{ state: 'a pet with id {id} exists', params: { id: '{id}', name: 'Dog {name}', categoryId: 1 } }],
  },
}

function start() {
  const simulator = createSimulatorCore({ seed: 4, pets: 8, scenario: 'all-sold', clock: createManualClock('2030-06-15T10:00:30Z') })
  const names = simulator.scenarios().map((scenario) => scenario.name)
  const mapped: MappedStates = { states: checkMappedProviderStates(states, names), configuredScenario: simulator.scenario }
  return { simulator, mapped }
}

describe('mapped provider states', () => {
  it("sets up the scenario, then the steps with the pact's params, and tears down into the configured scenario", () => {
    const { simulator, mapped } = start()
    const result = applyProviderState(simulator, { state: ' a dog for sale ', params: { id: '9', name: 'Laika' } }, mapped)
    expect(result).toEqual({ state: 'a dog for sale', action: 'setup', params: { id: '9', name: 'Laika' } })
    expect(simulator.scenario).toBe('empty')
    expect([...simulator.snapshot().catalogue.pets]).toEqual([{ id: 9, name: 'Dog Laika', categoryId: 1, status: 'available' }])
    applyProviderState(simulator, { state: 'a dog for sale', params: { id: 9, name: 'Laika' }, action: 'teardown' }, mapped)
    expect(simulator.scenario).toBe('all-sold')
    expect(simulator.store.size).toBe(8)
  })

  it('changes nothing when a param a step needs is missing, or a step refuses its value', () => {
    const { simulator, mapped } = start()
    const before = JSON.stringify(simulator.snapshot())
    expect(() => applyProviderState(simulator, { state: 'a dog for sale', params: { id: 9 } }, mapped)).toThrow(
      /the pact's params must give name/,
    )
    expect(() => applyProviderState(simulator, { state: 'a dog for sale', params: { id: 0, name: 'Laika' } }, mapped)).toThrow(
      /Provider state "a dog for sale": id must be a whole number from 1/,
    )
    expect(JSON.stringify(simulator.snapshot())).toBe(before)
    expect(simulator.scenario).toBe('all-sold')
  })

  it('still answers the built-in states, and lists the mapped ones first when a name is neither', () => {
    const { simulator, mapped } = start()
    expect(applyProviderState(simulator, { state: 'the catalogue is empty' }, mapped).state).toBe('the catalogue is empty')
    expect(() => applyProviderState(simulator, { state: 'a cat for sale' }, mapped)).toThrow(
      'Unknown provider state "a cat for sale". The mapped provider states (providerStates) are: "a dog for sale"; the built-in ones: "a pet with id {id} exists"',
    )
  })
})
