import { petCategories, statusWeights } from './catalogue.ts'
import { parseGeneratedPet } from './fixture-pets.ts'
import { petNames } from './pet-names.ts'
import { createPetFaker, type PetFaker } from './pet-faker.ts'
import type { NewPet, Pet, PetStatus } from '../api/pet-types.ts'

/** The seed used when none is given, so every run is reproducible. */
export const defaultSeed = 20301205

/** How many pets are generated when no count is given. */
export const defaultPetCount = 50

/** What `generatePet` is called with, once per pet, in id order. */
export interface PetGeneratorContext {
  /** faker, seeded with the simulator's seed: draw from it (and nothing else random) to stay deterministic. */
  readonly faker: PetFaker
  /** The pet's id (1, 2, 3…): ids are given, not chosen. */
  readonly id: number
  /** The pet the simulator would have generated for this id, to keep or change: `{ ...pet, name: … }`. */
  readonly pet: Pet
}

/**
 * Shapes each generated pet: returns the pet for `context.id`, as a fixture
 * is written (`name`, `categoryId`, optional `status` and `id`), validated
 * like fixtures. A `status` left out is the simulator's `defaultStatus`.
 */
export type GeneratePet = (context: PetGeneratorContext) => NewPet & { id?: number }

export interface GeneratePetsOptions {
  /** Seed of the catalogue. Default 20301205. */
  seed?: number
  /** How many pets, ids 1..count. Default 50. */
  count?: number
  /** Shapes each pet with faker's API; see {@link GeneratePet}. Default: the simulator's own pets. */
  generatePet?: GeneratePet
  /** The status of a pet `generatePet` returns without one. Default `available`. */
  defaultStatus?: PetStatus
}

/**
 * Generates a realistic catalogue of pets, ids 1..count, from a seed, with
 * faker (`SimpleFaker`, bundled at a pinned version). The same seed and count
 * give the same pets in every run and runtime. Each call has a faker of its
 * own: nothing is shared between simulators or with the caller.
 *
 * @example
 * generatePets({ seed: 7, count: 3 })
 * // [{ id: 1, name: '…', categoryId: 2, status: 'available' }, …]
 * generatePets({ count: 3, generatePet: ({ faker, pet }) => ({ ...pet, name: `Rex ${faker.string.numeric(3)}` }) })
 */
export function generatePets(options: GeneratePetsOptions = {}): Pet[] {
  const count = options.count ?? defaultPetCount
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new RangeError(`The number of pets to seed must be a whole number of 0 or more (got ${count})`)
  }
  const { faker, next } = createPetFaker(options.seed ?? defaultSeed)
  const { generatePet, defaultStatus = 'available' } = options
  const pets: Pet[] = new Array(count)
  for (let index = 0; index < count; index++) {
    const id = index + 1
    const pet = drawPet(Math.floor(next() * drawSize), id)
    // Frozen here, as the store keeps them: the store would otherwise copy every pet to freeze it.
    pets[index] = Object.freeze(generatePet === undefined ? pet : shapePet(generatePet, { faker, id, pet }, defaultStatus))
  }
  return pets
}

/** The status mix as 100 slots: a draw of 0..99 picks a status as often as its weight (in percent) says. */
const statusSlots: readonly PetStatus[] = statusWeights.flatMap((entry) => new Array<PetStatus>(entry.weight).fill(entry.value))

/**
 * One draw per pet, as `faker.number.int(drawSize - 1)` would make it, read
 * as three digits of a mixed-radix number (name, category, status slot):
 * each is uniform and independent, as three draws would be. Three faker
 * calls per pet (`helpers.arrayElement` twice and `weightedArrayElement`)
 * took ~370 ms for 1,000,000 pets instead of ~125 ms (speed runs,
 * 2026-11-23), past the 1.2x start-up target of `--pets 1000000`.
 */
const drawSize = petNames.length * petCategories.length * statusSlots.length

function drawPet(draw: number, id: number): Pet {
  const name = petNames[draw % petNames.length]!
  const rest = Math.floor(draw / petNames.length)
  const category = petCategories[rest % petCategories.length]!
  const status = statusSlots[Math.floor(rest / petCategories.length)]!
  return { id, name, categoryId: category.id, status }
}

function shapePet(generatePet: GeneratePet, context: PetGeneratorContext, defaultStatus: PetStatus): Pet {
  let shaped: unknown
  try {
    shaped = generatePet(context)
  } catch (error) {
    throw new TypeError(`generatePet failed for pet ${context.id}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
  }
  return parseGeneratedPet(shaped, context.id, defaultStatus)
}
