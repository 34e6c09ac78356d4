import { checkNewPet } from '../model/new-pet-check.ts'
import type { Pet } from '../model/pet-types.ts'
import { ApiError } from '../http/api-error.ts'
import { usageBuckets } from '../state/scenarios.ts'
import type { SimulatorCore } from './simulator-core.ts'

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
  readonly params: Readonly<Record<string, string | number>>
}

type Params = Record<string, string | number>

/** One provider state the simulator can put itself into. */
interface ProviderStateDefinition {
  /** The exact phrase, `{name}` for each parameter named in it. */
  readonly name: string
  /** What holds once it is set up (the docs' table). */
  readonly description: string
  /** Checks and completes the parameters; a `RangeError` names what does not fit. */
  readonly params: (given: Readonly<Record<string, unknown>>, simulator: SimulatorCore) => Params
  /** Sets the state up on a clean simulator (just reset). */
  readonly setup: (simulator: SimulatorCore, params: Params) => void
  /** Whether teardown resets: only states whose change would leak into the next interactions (a spent key, the clock). */
  readonly teardownResets: boolean
}

/**
 * The provider states, by their exact phrases. A setup starts from a clean simulator (`reset()`: the active
 * scenario's start, with an empty journal); the empty state changes nothing.
 */
export const providerStates: readonly ProviderStateDefinition[] = [
  {
    name: 'a pet with id {id} exists',
    description:
      'The pet exists with exactly these values: `id` (required), `name` (default `Pet <id>`), `categoryId` (default 1), `status` (default `available`); ids after it are free.',
    params(given) {
      // Below the largest safe integer: the ids after it must stay free.
      const id = wholeNumber(given.id, 'id', 1, Number.MAX_SAFE_INTEGER - 1)
      const pet = checkNewPet({
        name: given.name ?? `Pet ${id}`,
        categoryId: given.categoryId === undefined ? 1 : wholeNumber(given.categoryId, 'categoryId', 1),
        status: given.status ?? 'available',
      })
      if (typeof pet === 'string') throw new RangeError(pet)
      return { id, name: pet.name, categoryId: pet.categoryId, status: pet.status ?? 'available' }
    },
    setup(simulator, params) {
      const pet = { id: params.id, name: params.name, categoryId: params.categoryId, status: params.status } as Pet
      replacePets(simulator, (pets) => [...pets.filter((other) => other.id !== pet.id), pet], pet.id + 1)
    },
    teardownResets: false,
  },
  {
    name: 'no pet with id {id} exists',
    description: 'No pet has the id (`id`, required): getPet answers 404.',
    params: (given) => ({ id: wholeNumber(given.id, 'id', Number.MIN_SAFE_INTEGER) }),
    setup(simulator, params) {
      if (simulator.store.get(params.id as number) !== undefined)
        replacePets(simulator, (pets) => pets.filter((pet) => pet.id !== params.id))
    },
    teardownResets: false,
  },
  {
    name: 'the catalogue is empty',
    description: 'No pets at all: listPets answers `[]`, every getPet 404; createPet still adds pets.',
    params: () => ({}),
    setup: (simulator) => replacePets(simulator, () => []),
    teardownResets: true,
  },
  {
    name: 'the key {key} has no requests left this minute',
    description:
      'The key (`key`: a demo key or one given with `--key`) has used its whole minute: its next request is a 429 with `Retry-After`.',
    params(given, simulator) {
      const { key } = given
      if (typeof key !== 'string' || !simulator.keys.some((known) => known.token === key)) {
        throw new RangeError('key must be an API key the simulator knows (a demo key, or one given with --key)')
      }
      return { key }
    },
    setup(simulator, params) {
      simulator.limiter.load(usageBuckets({ [params.key as string]: { minute: 'all' } }, simulator.keys, simulator.clock.now()))
    },
    teardownResets: true,
  },
  {
    name: 'getPet is past its sunset',
    description: 'The clock at getPet’s removal date (5 December 2030 unless configured): getPet answers 410.',
    params: () => ({}),
    setup: (simulator) => simulator.clock.set(Date.parse(simulator.state().getPet.sunsetAt)),
    teardownResets: true,
  },
]

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
  if (found === undefined) throw invalid(`Unknown provider state ${JSON.stringify(state)}`)
  let checked: Params
  try {
    checked = found.definition.params({ ...found.fromName, ...params }, simulator)
    for (const [name, value] of Object.entries(found.fromName)) {
      if (name in params && String(params[name]) !== value)
        throw new RangeError(`${name} is ${value} in the state's name but ${String(params[name])} in params`)
    }
  } catch (error) {
    throw invalid(`Provider state ${JSON.stringify(found.definition.name)}: ${(error as Error).message}`)
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

/** A whole number from a JSON number or decimal digits, in the safe-integer range and at least `minimum`. */
function wholeNumber(value: unknown, name: string, minimum: number, maximum = Number.MAX_SAFE_INTEGER): number {
  const number = typeof value === 'string' && /^-?[0-9]{1,16}$/.test(value.trim()) ? Number(value) : value
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < minimum || number > maximum) {
    throw new RangeError(`${name} must be a whole number from ${minimum} to ${maximum} (got ${JSON.stringify(value) ?? 'nothing'})`)
  }
  return number
}

/** The catalogue replaced (through a snapshot, so every cache follows), ascending by id; ids from `nextAtLeast` free. */
function replacePets(simulator: SimulatorCore, change: (pets: readonly Pet[]) => Pet[], nextAtLeast = 1): void {
  const snapshot = simulator.snapshot()
  const pets = change(snapshot.catalogue.pets).sort((a, b) => a.id - b.id)
  const nextId = Math.max(snapshot.catalogue.nextId, nextAtLeast, (pets.at(-1)?.id ?? 0) + 1)
  simulator.restore({ ...snapshot, catalogue: { nextId, pets } })
}

function invalid(problem: string): ApiError {
  return new ApiError(
    'invalid_provider_state',
    `${problem}. The provider states are: ${providerStates.map((state) => JSON.stringify(state.name)).join(', ')} (and "" for none)`,
  )
}
