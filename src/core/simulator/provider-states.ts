import { ApiError } from '../http/api-error.ts'
import { checkParams, clipped, quoted, type ProviderStateParam, type ProviderStateParams } from './provider-state-params.ts'
import { providerStates, type ProviderStateDefinition } from './provider-state-table.ts'
import type { SimulatorCore } from './simulator-core.ts'

export { providerStates, type ProviderStateDefinition }

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
export function applyProviderState(simulator: SimulatorCore, body: unknown): ProviderStateResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('Send {"state": "…", "params": {…}, "action": "setup"}')
  const { state, params = {}, action = 'setup' } = body as ProviderStateRequest
  if (typeof state !== 'string') throw invalid('state must be a string')
  if (action !== 'setup' && action !== 'teardown') throw invalid('action must be "setup" or "teardown"')
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw invalid('params must be a JSON object')
  if (state.trim() === '') return { state, action, params: {} }
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

/**
 * Each state's name as a pattern, compiled once from the package's own templates (never from a client's text):
 * `{id}` matches what the client wrote there. A template has one parameter at most and a literal tail, so a lazy
 * group anchored at both ends finds it in time linear in the name (the 16 KiB adversarial test holds it).
 */
const statePatterns = /* @__PURE__ */ compileStatePatterns()

// Pure (built from constants, no effect): a bundle that never answers a provider state leaves this module out.
function compileStatePatterns(): readonly { definition: ProviderStateDefinition; pattern: RegExp; names: readonly string[] }[] {
  return providerStates.map((definition) => {
    const names: string[] = []
    const source = definition.name
      .split(/(\{[a-zA-Z]+\})/)
      .map((part) => {
        if (!/^\{[a-zA-Z]+\}$/.test(part)) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        names.push(part.slice(1, -1))
        return '(.+?)'
      })
      .join('')
    return { definition, pattern: new RegExp(`^${source}$`), names }
  })
}

/** The definition a state's name is, with the parameter values its name spells out (`a pet with id 7 exists`). */
export function findState(name: string): { definition: ProviderStateDefinition; fromName: Record<string, string> } | undefined {
  for (const { definition, pattern, names } of statePatterns) {
    const match = pattern.exec(name.trim())
    if (match === null) continue
    const fromName: Record<string, string> = {}
    // `{id}` as written (the template itself) names no value: the params give it.
    names.forEach((parameter, index) => {
      const value = match[index + 1]!
      if (value !== `{${parameter}}`) fromName[parameter] = value
    })
    return { definition, fromName }
  }
  return undefined
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

function invalid(problem: string): ApiError {
  return new ApiError(
    'invalid_provider_state',
    `${problem}. The provider states are: ${providerStates.map((state) => JSON.stringify(state.name)).join(', ')} (and "" for none)`,
  )
}
