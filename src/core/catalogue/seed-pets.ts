import { petCategories, statusWeights } from './catalogue.ts'
import { petNames } from './pet-names.ts'
import type { Pet, PetStatus } from '../api/pet-types.ts'
import { createSeededRandom } from '../simulator/seeded-random.ts'

/** The seed used when none is given, so every run is reproducible. */
export const defaultSeed = 20301205

/** How many pets are generated when no count is given. */
export const defaultPetCount = 50

/**
 * Generates a realistic catalogue of pets, ids 1..count, from a seed.
 * The same seed and count give the same pets in every run and runtime.
 * Each call has a random sequence of its own: nothing is shared between
 * simulators or with the caller.
 *
 * @example
 * generatePets({ seed: 7, count: 3 })
 * // [{ id: 1, name: '…', categoryId: 2, status: 'available' }, …]
 */
export function generatePets(options: { seed?: number; count?: number } = {}): Pet[] {
  const count = options.count ?? defaultPetCount
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new RangeError(`The number of pets to seed must be a whole number of 0 or more (got ${count})`)
  }
  const random = createSeededRandom(options.seed ?? defaultSeed)
  const pickStatus = createWeightedPick(statusWeights)
  const pets: Pet[] = new Array(count)
  for (let index = 0; index < count; index++) {
    const category = petCategories[Math.floor(random() * petCategories.length)]!
    const name = petNames[Math.floor(random() * petNames.length)]!
    // Frozen here, as the store keeps them: the store would otherwise copy every pet to freeze it.
    pets[index] = Object.freeze({ id: index + 1, name, categoryId: category.id, status: pickStatus(random()) })
  }
  return pets
}

/** Maps a number in [0, 1) to a status, each as often as its weight says. */
function createWeightedPick(weights: ReadonlyArray<{ readonly value: PetStatus; readonly weight: number }>): (draw: number) => PetStatus {
  const total = weights.reduce((sum, entry) => sum + entry.weight, 0)
  return (draw) => {
    let remaining = draw * total
    for (const entry of weights) {
      if (remaining < entry.weight) return entry.value
      remaining -= entry.weight
    }
    return weights.at(-1)!.value
  }
}
