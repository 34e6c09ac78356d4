import type { Faker } from '@faker-js/faker'
import { faker as englishFaker } from '@faker-js/faker/locale/en'
import { petCategories, statusWeights } from './catalogue.ts'
import type { Pet } from './schemas.ts'

/** The seed used when none is given, so every run is reproducible. */
export const defaultSeed = 20301205

/** How many pets are generated when no count is given. */
export const defaultPetCount = 50

/**
 * Generates a realistic catalogue of pets, ids 1..count, from a seed.
 * The same seed and count give the same pets in every run and runtime.
 * Each call uses a Faker instance of its own: nothing is shared between
 * simulators or with the caller's own `faker`.
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
  const faker = createFaker(options.seed ?? defaultSeed)
  const pets: Pet[] = []
  for (let id = 1; id <= count; id++) {
    const category = faker.helpers.arrayElement(petCategories)
    pets.push({
      id,
      name: faker.animal.petName(),
      categoryId: category.id,
      status: faker.helpers.weightedArrayElement(statusWeights),
    })
  }
  return pets
}

/**
 * A fresh, seeded English Faker. The `Faker` class is reached through the
 * English instance because `@faker-js/faker`'s main entry loads every locale
 * (about 200 ms), while `locale/en` loads one.
 */
function createFaker(seed: number): Faker {
  const FakerClass = englishFaker.constructor as typeof Faker
  return new FakerClass({ locale: englishFaker.rawDefinitions, seed })
}
