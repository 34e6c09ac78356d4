import { petCategories, statusWeights } from './catalogue.ts'
import { createCompactPets, type CompactPets } from './compact-pets.ts'
import { parseGeneratedPet } from './fixture-pets.ts'
import { petNames } from './pet-names.ts'
import { createPetFaker, createPetRandom, type PetFaker } from './pet-faker.ts'
import { defaults } from '../defaults.ts'
import { petStatuses, type NewPet, type Pet, type PetStatus } from '../model/pet-types.ts'

/** The seed used when none is given, so every run is reproducible (`defaults.seed`). */
export const defaultSeed = defaults.seed

/** How many pets are generated when no count is given (`defaults.pets`). */
export const defaultPetCount = defaults.pets

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
  const count = checkedCount(options.count)
  const { generatePet, defaultStatus = 'available' } = options
  if (generatePet === undefined) return generateCompactPets(options.seed, count).toArray()
  const { faker, next } = createPetFaker(options.seed ?? defaultSeed)
  const pets: Pet[] = new Array(count)
  for (let index = 0; index < count; index++) {
    const id = index + 1
    const draw = Math.floor(next() * drawSize)
    const pet = { id, name: petNames[nameIndex(draw)]!, categoryId: categoryId(draw), status: petStatuses[statusIndex(draw)]! }
    // Frozen here, as the store keeps them: the store would otherwise copy every pet to freeze it.
    pets[index] = Object.freeze(shapePet(generatePet, { faker, id, pet }, defaultStatus))
  }
  return pets
}

/**
 * The pets `generatePets` makes without `generatePet`, held as columns
 * (`compact-pets.ts`): what the simulator keeps, so that a catalogue of
 * millions is not millions of objects.
 */
export function generateCompactPets(seed: number | undefined, count: number | undefined): CompactPets {
  const total = checkedCount(count)
  const next = createPetRandom(seed ?? defaultSeed)
  const nameIndexes = new Uint16Array(total)
  const categoryIds = new Uint8Array(total)
  const statusIndexes = new Uint8Array(total)
  for (let index = 0; index < total; index++) {
    const draw = Math.floor(next() * drawSize)
    nameIndexes[index] = nameIndex(draw)
    categoryIds[index] = categoryId(draw)
    statusIndexes[index] = statusIndex(draw)
  }
  return createCompactPets({ names: petNames, nameIndexes, categoryIds, statusIndexes })
}

function checkedCount(count: number | undefined): number {
  const checked = count ?? defaultPetCount
  if (!Number.isSafeInteger(checked) || checked < 0) {
    throw new RangeError(`The number of pets to seed must be a whole number of 0 or more (got ${checked})`)
  }
  return checked
}

/** The status mix as 100 slots: a draw of 0..99 picks a status as often as its weight (in percent) says. */
const statusSlots: readonly number[] = statusWeights.flatMap((entry) =>
  new Array<number>(entry.weight).fill(petStatuses.indexOf(entry.value)),
)

/**
 * One draw per pet, as `faker.number.int(drawSize - 1)` would make it, read
 * as three digits of a mixed-radix number (name, category, status slot):
 * each is uniform and independent, as three draws would be. Three faker
 * calls per pet (`helpers.arrayElement` twice and `weightedArrayElement`)
 * took several times as long for a million pets (speed runs, 2026-11-23;
 * test/bench/HISTORY.md, "Figures moved out of source comments"), past the
 * 1.2x start-up target of `--pets 1000000`.
 */
const drawSize = petNames.length * petCategories.length * statusSlots.length

const nameIndex = (draw: number): number => draw % petNames.length
const categoryId = (draw: number): number => petCategories[Math.floor(draw / petNames.length) % petCategories.length]!.id
const statusIndex = (draw: number): number => statusSlots[Math.floor(Math.floor(draw / petNames.length) / petCategories.length)]!

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
