import { parseSnapshot } from '../state/state-snapshot.ts'
import { checkParams, clipped, type ProviderStateParams } from './provider-state-params.ts'
import { findState } from './provider-state-names.ts'
import type { ProviderStateDefinition } from './provider-state-table.ts'
import type { SimulatorCore } from './simulator-core.ts'

/**
 * A provider state of the team's own: the phrase a consumer's pact uses (`a catalogue with three sold dogs`), mapped
 * onto what the simulator already has: a scenario, a snapshot, then built-in states in order, whose parameters may
 * name the pact's (`"{id}"`). Pact V4 consumers write their own state names; the five built-in phrases rarely match.
 * Names are exact; the pact's params fill the steps' (`"{id}"`).
 *
 * @example
 * const providerStates = {
 *   'a catalogue with three sold dogs': { snapshot: threeSoldDogs },
 *   'a dog for sale': { scenario: 'empty', states: [{ state: 'a pet with id {id} exists', params: { id: '{id}', name: '{name}' } }] },
 * }
 */
export interface MappedProviderState {
  /** What holds after setup, in words: `GET /__sim/provider-states` lists it. */
  readonly description?: string | undefined
  /** The scenario set up first (a reset into it); the configured one when undefined. */
  readonly scenario?: string | undefined
  /** A snapshot (`GET /__sim/snapshot`'s body) restored after the scenario. */
  readonly snapshot?: unknown
  /**
   * Built-in states set up after, in order, each by its phrase and parameters. A parameter's value `"{name}"` is the
   * pact's parameter `name` as sent; `{name}` within a longer text is replaced by it.
   */
  readonly states?: readonly MappedStep[] | undefined
}

/** One built-in state a mapped state sets up. */
export interface MappedStep {
  readonly state: string
  readonly params?: Readonly<Record<string, string | number>> | undefined
}

/** The team's provider states, by their exact names. */
export type MappedProviderStates = Readonly<Record<string, MappedProviderState>>

const fields = ['description', 'scenario', 'snapshot', 'states'] as const

/**
 * The mapped states checked whole, before the simulator serves any: a `RangeError` naming the state and its field
 * (`"a catalogue with three sold dogs".scenario: no scenario "three-dogs" (there are default, empty, …)`).
 * A mapped name may not be a built-in state's (which would it be?).
 */
export function checkMappedProviderStates(data: unknown, scenarioNames: readonly string[]): MappedProviderStates {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new RangeError('must be a JSON object of state name → { scenario?, snapshot?, states?, description? }')
  for (const [name, entry] of Object.entries(data as Record<string, unknown>)) {
    const where = JSON.stringify(name)
    const fail = (problem: string): never => {
      throw new RangeError(`${where}${problem}`)
    }
    if (name.trim() === '' || name.trim() !== name) fail(': a state name must be non-empty, without white space at its ends')
    if (findState(name) !== undefined) fail(': is a built-in state already (GET /__sim/provider-states lists them)')
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      fail(': must be an object of { scenario?, snapshot?, states?, description? }')
    const record = entry as Record<string, unknown>
    const unknown = Object.keys(record).find((key) => !(fields as readonly string[]).includes(key))
    if (unknown !== undefined) fail(`: unknown field ${JSON.stringify(unknown)} (the fields are ${fields.join(', ')})`)
    if (record.description !== undefined && typeof record.description !== 'string') fail('.description: must be a string')
    if (record.scenario !== undefined && (typeof record.scenario !== 'string' || !scenarioNames.includes(record.scenario)))
      fail(`.scenario: no scenario ${clipped(JSON.stringify(record.scenario))} (there are ${scenarioNames.join(', ')})`)
    if (record.snapshot !== undefined) {
      try {
        parseSnapshot(record.snapshot)
      } catch (error) {
        fail(`.snapshot: ${(error as Error).message}`)
      }
    }
    if (record.states !== undefined) {
      if (!Array.isArray(record.states)) fail('.states: must be an array of { state, params? }')
      ;(record.states as unknown[]).forEach((step, index) => {
        const at = `.states[${index}]`
        if (typeof step !== 'object' || step === null || Array.isArray(step)) fail(`${at}: must be { state, params? }`)
        const { state, params } = step as Record<string, unknown>
        if (typeof state !== 'string' || findState(state) === undefined)
          fail(`${at}.state: ${clipped(JSON.stringify(state))} is not a built-in state (GET /__sim/provider-states lists them)`)
        if (
          params !== undefined &&
          (typeof params !== 'object' ||
            params === null ||
            Array.isArray(params) ||
            !Object.values(params).every((value) => typeof value === 'string' || typeof value === 'number'))
        )
          fail(`${at}.params: must be an object of name → string or number`)
      })
    }
  }
  return data as MappedProviderStates
}

/** The pact's parameters a mapped state's steps name (`{id}`), each once, in the order they appear. */
export function mappedParamNames(entry: MappedProviderState): string[] {
  const names = new Set<string>()
  for (const step of entry.states ?? [])
    for (const value of Object.values(step.params ?? {}))
      if (typeof value === 'string') for (const [, name] of value.matchAll(/\{([a-zA-Z]+)\}/g)) names.add(name!)
  return [...names]
}

/** A mapped state made ready: each step's definition and parameters, checked against the simulator as it is. */
export interface PreparedMappedState {
  readonly params: ProviderStateParams
  readonly steps: ReadonlyArray<{ readonly definition: ProviderStateDefinition; readonly params: ProviderStateParams }>
}

/**
 * Checks a mapped state's steps with the pact's parameters, before anything changes; a `RangeError` names what does
 * not fit (a parameter the pact did not send, a value a step refuses).
 */
export function prepareMappedState(
  entry: MappedProviderState,
  given: Readonly<Record<string, unknown>>,
  simulator: SimulatorCore,
): PreparedMappedState {
  const used: ProviderStateParams = {}
  const value = (text: string): string | number => {
    const whole = /^\{([a-zA-Z]+)\}$/.exec(text)
    const lookUp = (name: string) => {
      const sent = given[name]
      if (typeof sent !== 'string' && typeof sent !== 'number')
        throw new RangeError(`the pact's params must give ${name} (a string or a number), for {${name}}`)
      used[name] = sent
      return sent
    }
    if (whole !== null) return lookUp(whole[1]!)
    return text.replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => String(lookUp(name)))
  }
  const steps = (entry.states ?? []).map((step) => {
    const found = findState(step.state)!
    const filled = Object.fromEntries(
      Object.entries(step.params ?? {}).map(([name, raw]) => [name, typeof raw === 'string' ? value(raw) : raw]),
    )
    const params = checkParams(found.definition.params, { ...filled, ...found.fromName })
    found.definition.check?.(params, simulator)
    return { definition: found.definition, params }
  })
  return { params: used, steps }
}

/**
 * Sets a mapped state up: a reset into its scenario (or `configured`, the one the simulator was started in), its
 * snapshot restored, then its steps on that state, each without a reset of its own.
 */
export function setUpMappedState(
  simulator: SimulatorCore,
  entry: MappedProviderState,
  prepared: PreparedMappedState,
  configured: string,
): void {
  simulator.useScenario(entry.scenario ?? configured)
  if (entry.snapshot !== undefined) simulator.restore(entry.snapshot)
  for (const step of prepared.steps) step.definition.setup(simulator, step.params)
}
