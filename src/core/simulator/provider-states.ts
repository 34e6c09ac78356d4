import { ApiError } from '../http/api-error.ts'
import { checkParams, clipped, quoted, type ProviderStateParam, type ProviderStateParams } from './provider-state-params.ts'
import { providerStates } from './provider-state-table.ts'
import { findState } from './provider-state-names.ts'
import { prepareMappedState, setUpMappedState, type MappedProviderStates } from './mapped-provider-states.ts'
import type { SimulatorCore } from './simulator-core.ts'

export { findState, providerStates }

/**
 * What Pact's verifier posts to a provider-state URL before (`setup`) and after (`teardown`) each interaction:
 * the state's name as the pact gives it, and its parameters. `state` is `""` for an interaction without one.
 */
export interface ProviderStateRequest {
  readonly state: string
  readonly params?: Readonly<Record<string, unknown>> | undefined
  readonly action?: 'setup' | 'teardown' | undefined
}

/** What a state change did: the state as understood, its parameters as applied (Pact's verifier may read them). */
export interface ProviderStateResult {
  readonly state: string
  readonly action: 'setup' | 'teardown'
  readonly params: Readonly<ProviderStateParams>
}

/** A provider state as `GET /__sim/provider-states` lists it: its declaration, in JSON. */
export interface ProviderStateDescription {
  /** The phrase; `{id}` stands for a value, given in `params` or written in its place (`a pet with id 7 exists`). */
  readonly name: string
  readonly params: readonly ProviderStateParam[]
  /** What holds after setup. */
  readonly setup: string
  /** What teardown does. */
  readonly teardown: 'a reset' | 'nothing'
}

/**
 * Puts the simulator into a provider state (`POST /__sim/provider-states`): a setup resets the simulator, then
 * makes the state hold; a teardown resets it again for states that would leak into the next interaction, and does
 * nothing otherwise. The empty state (`""`) changes nothing. An unknown state, parameters that do not fit, or a
 * body of another shape is a 400 `invalid_provider_state` naming the known states; the simulator is unchanged.
 */
export function applyProviderState(simulator: SimulatorCore, body: unknown, mapped?: MappedStates): ProviderStateResult {
  const invalid = (problem: string) => invalidState(problem, mapped)
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('Send {"state": "…", "params": {…}, "action": "setup"}')
  const { state, params = {}, action = 'setup' } = body as ProviderStateRequest
  if (typeof state !== 'string') throw invalid('state must be a string')
  if (action !== 'setup' && action !== 'teardown') throw invalid('action must be "setup" or "teardown"')
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw invalid('params must be a JSON object')
  if (state.trim() === '') return { state, action, params: {} }
  const name = state.trim()
  const own = mapped !== undefined && Object.hasOwn(mapped.states, name) ? mapped.states[name]! : undefined
  if (own !== undefined) {
    let prepared: ReturnType<typeof prepareMappedState>
    try {
      prepared = prepareMappedState(own, params, simulator)
    } catch (error) {
      if (!(error instanceof RangeError)) throw error
      throw invalid(`Provider state ${JSON.stringify(name)}: ${error.message}`)
    }
    // Teardown always returns to the configured scenario: the state may have switched to another.
    if (action === 'teardown') simulator.useScenario(mapped!.configuredScenario)
    else setUpMappedState(simulator, own, prepared, mapped!.configuredScenario)
    return { state: name, action, params: prepared.params }
  }
  const found = findState(state)
  if (found === undefined) throw invalid(`Unknown provider state ${quoted(state)}`)
  // Everything checked before the reset: a state refused (or an id that could not be set up) changed nothing.
  let checked: ProviderStateParams
  try {
    for (const [name, value] of Object.entries(found.fromName)) {
      if (name in params && String(params[name]) !== value)
        throw new RangeError(`${name} is ${clipped(value)} in the state's name but ${clipped(String(params[name]))} in params`)
    }
    checked = checkParams(found.definition.params, { ...params, ...found.fromName })
    found.definition.check?.(checked, simulator)
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw invalid(`Provider state ${JSON.stringify(found.definition.name)}: ${error.message}`)
  }
  if (action === 'teardown') {
    if (found.definition.teardownResets) simulator.reset()
  } else {
    simulator.reset()
    found.definition.setup(simulator, checked)
  }
  return { state: found.definition.name, action, params: checked }
}

/** The provider states as `GET /__sim/provider-states` lists them, the empty one last: their declarations, as data. */
export function describeProviderStates(): ProviderStateDescription[] {
  return [
    ...providerStates.map((definition) => ({
      name: definition.name,
      params: definition.params,
      setup: definition.holds,
      teardown: definition.teardownResets ? ('a reset' as const) : ('nothing' as const),
    })),
    { name: '', params: [], setup: 'nothing changes', teardown: 'nothing' },
  ]
}

/** The team's own states (`providerStates`), and the scenario the simulator was started in, where their teardown returns. */
export interface MappedStates {
  readonly states: MappedProviderStates
  readonly configuredScenario: string
}

function invalidState(problem: string, mapped: MappedStates | undefined): ApiError {
  const names = (list: readonly string[]) => list.map((name) => JSON.stringify(name)).join(', ')
  const own = mapped === undefined ? [] : Object.keys(mapped.states)
  return new ApiError(
    'invalid_provider_state',
    `${problem}. ${own.length === 0 ? '' : `The mapped provider states (providerStates) are: ${names(own)}; the built-in ones: `}${own.length === 0 ? 'The provider states are: ' : ''}${names(providerStates.map((state) => state.name))} (and "" for none)`,
  )
}
