import { planNames } from '../access/plans.ts'
import { pactApiKeyPlaceholder } from '../contract/pact-interaction.ts'
import { checkNewPet, maxNameLength } from '../model/new-pet-check.ts'
import { maxPetId, petStatuses, type Pet } from '../model/pet-types.ts'
import { usageBuckets } from '../state/scenarios.ts'
import { isInstant } from '../time/clock.ts'
import type { ProviderStateParam, ProviderStateParams } from './provider-state-params.ts'
import type { SimulatorCore } from './simulator-core.ts'

/**
 * One provider state the simulator can put itself into, declared once: `applyProviderState` checks and sets it up
 * from this, `GET /__sim/provider-states` lists it, and docs/pact.md's table is held equal to it.
 */
export interface ProviderStateDefinition {
  /** The exact phrase, `{name}` for each parameter named in it. */
  readonly name: string
  readonly params: readonly ProviderStateParam[]
  /** What holds once it is set up. */
  readonly holds: string
  /** Whether teardown resets: only states whose change would leak into the next interactions (a spent key, the clock). */
  readonly teardownResets: boolean
  /**
   * Checks what the declaration alone cannot (a key the simulator knows, the pet's fields as createPet checks them),
   * before anything changes; a `RangeError` names what does not fit.
   */
  readonly check?: (params: ProviderStateParams, simulator: SimulatorCore) => void
  /** Sets the state up on a clean simulator (just reset). Never throws for parameters that passed the checks. */
  readonly setup: (simulator: SimulatorCore, params: ProviderStateParams) => void
}

const petId = (description: string, minimum: number, maximum: number): ProviderStateParam => ({
  name: 'id',
  type: 'integer',
  required: true,
  minimum,
  maximum,
  description,
})

/**
 * The provider states, by their exact phrases. A setup starts from a clean simulator (`reset()`: the active
 * scenario's start, with an empty journal); the empty state (`""`) changes nothing and is not declared here.
 */
export const providerStates: readonly ProviderStateDefinition[] = [
  {
    name: 'a pet with id {id} exists',
    params: [
      // Up to 2^53 - 2, as every pet id (`maxPetId`): the id after it stays free, and the snapshot restorable.
      petId('the pet’s id', 1, maxPetId),
      { name: 'name', type: 'string', required: false, default: 'Pet {id}', maxLength: maxNameLength, description: 'its name' },
      {
        name: 'categoryId',
        type: 'integer',
        required: false,
        default: 1,
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'its category',
      },
      { name: 'status', type: 'string', required: false, default: 'available', values: petStatuses, description: 'its status' },
    ],
    holds: 'the pet exists with exactly these values; createPet’s next id is after it',
    teardownResets: false,
    check({ name, categoryId, status }) {
      const problem = checkNewPet({ name, categoryId, status })
      if (typeof problem === 'string') throw new RangeError(problem)
    },
    setup(simulator, params) {
      const pet = { id: params.id, name: params.name, categoryId: params.categoryId, status: params.status } as Pet
      replacePets(simulator, (pets) => [...pets.filter((other) => other.id !== pet.id), pet], pet.id + 1)
    },
  },
  {
    name: 'no pet with id {id} exists',
    params: [petId('the id no pet has', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)],
    holds: 'no pet has the id: getPet answers 404',
    teardownResets: false,
    setup(simulator, params) {
      if (simulator.store.get(params.id as number) !== undefined)
        replacePets(simulator, (pets) => pets.filter((pet) => pet.id !== params.id))
    },
  },
  {
    name: 'the catalogue is empty',
    params: [],
    holds: 'no pets: listPets answers `[]`, every getPet 404; createPet still adds pets',
    teardownResets: true,
    setup: (simulator) => replacePets(simulator, () => []),
  },
  {
    name: 'the key {key} has no requests left this minute',
    params: [
      {
        name: 'key',
        type: 'string',
        required: true,
        description: `a key the simulator knows (a demo key, or one given with \`--key\`), or \`${pactApiKeyPlaceholder}\`: every key it knows`,
      },
      {
        name: 'plan',
        type: 'string',
        required: false,
        values: planNames,
        description: `the plan of the key the pact was recorded with (with \`${pactApiKeyPlaceholder}\` every key is spent whatever its plan, since the verifier may send a key of another); with a key, the key’s plan`,
      },
    ],
    holds: `the key has used its whole minute (every key in force, for \`${pactApiKeyPlaceholder}\`): its next request is a 429 with \`Retry-After\``,
    teardownResets: true,
    check: (params, simulator) => void spentKeys(params, simulator),
    setup(simulator, params) {
      simulator.limiter.load(usageBuckets({ '*': { minute: 'all' } }, spentKeys(params, simulator), simulator.clock.now()))
    },
  },
  {
    name: 'getPet is past its sunset',
    params: [],
    holds: 'the clock at getPet’s removal date (5 December 2030 unless configured): getPet answers 410',
    teardownResets: true,
    check(_params, simulator) {
      if (!isInstant(sunsetOf(simulator))) throw new RangeError(`getPet's removal date cannot be set on the clock`)
    },
    setup: (simulator) => simulator.clock.set(sunsetOf(simulator)),
  },
]

const sunsetOf = (simulator: SimulatorCore) => Date.parse(simulator.state().getPet.sunsetAt)

/**
 * The keys the key state spends: the one named, or for the pact's placeholder every key in force. A pact exported
 * from a team's own key says `<API_KEY>` (and the plan it was recorded on); the verifier puts in whichever key it has,
 * of that plan or another, so every key the simulator knows must be spent for that key's next request to be the
 * pact's 429. `plan` is still checked to be a plan's name.
 */
function spentKeys({ key, plan }: ProviderStateParams, simulator: SimulatorCore) {
  const keys = simulator.keys
  if (key === pactApiKeyPlaceholder) {
    if (keys.length === 0) throw new RangeError('no key is in force: start the simulator with a key (--key) to spend')
    return keys
  }
  const known = keys.find((candidate) => candidate.token === key)
  if (known === undefined) {
    throw new RangeError(
      `key must be an API key the simulator knows (a demo key, or one given with --key), or ${pactApiKeyPlaceholder} for every key`,
    )
  }
  if (plan !== undefined && known.plan.name !== plan) throw new RangeError(`the key is of plan ${known.plan.name}, not ${String(plan)}`)
  return [known]
}

/** The catalogue replaced (through a snapshot, so every cache follows), ascending by id; ids from `nextAtLeast` free. */
function replacePets(simulator: SimulatorCore, change: (pets: readonly Pet[]) => Pet[], nextAtLeast = 1): void {
  const snapshot = simulator.snapshot()
  const pets = change(snapshot.catalogue.pets).sort((a, b) => a.id - b.id)
  const nextId = Math.max(snapshot.catalogue.nextId, nextAtLeast, (pets.at(-1)?.id ?? 0) + 1)
  simulator.restore({ ...snapshot, catalogue: { nextId, pets } })
}
