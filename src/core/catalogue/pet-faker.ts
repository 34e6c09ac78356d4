// faker's seeded core, bundled into the package at the exact version pinned in package.json (as zod is), so that a
// user's own faker, or none, never changes the seeded data. `SimpleFaker` and not `Faker`: `npm run size` measured
// a `Faker`, even with a one-entry custom locale, far heavier than `SimpleFaker` in a setupWorker page, against a
// 60 kB budget for the whole package (test/bench/HISTORY.md, "Figures moved out of source comments"). The main entry
// is imported because faker exports SimpleFaker from nowhere else; bundlers keep only what is used (no locale), in
// Node as in browsers. `SimpleFaker` itself comes through `faker-module.ts`, which the Node build loads only when
// `generatePet` needs it; the seeded catalogue draws from faker's generator alone, imported here.
import { generateMersenne53Randomizer, type SimpleFaker } from '@faker-js/faker'
import { loadFaker } from './faker-module.ts'

/**
 * The part of faker's `SimpleFaker` API that `generatePet` is typed with,
 * declared here so that the package's type declarations do not depend on
 * faker (which is bundled). At run time it is a whole `SimpleFaker` of the
 * pinned version (cast to reach the rest of its API): the
 * locale-free modules `number`, `string`, `helpers`, `datatype`, `date`.
 * A compile-time check below keeps it equal to faker's own signatures.
 */
export interface PetFaker {
  readonly number: {
    int(options?: number | { min?: number; max?: number; multipleOf?: number }): number
    float(options?: number | { min?: number; max?: number; fractionDigits?: number; multipleOf?: number }): number
  }
  readonly string: {
    alpha(options?: number | { length?: number | { min: number; max: number }; casing?: 'upper' | 'lower' | 'mixed' }): string
    alphanumeric(options?: number | { length?: number | { min: number; max: number }; casing?: 'upper' | 'lower' | 'mixed' }): string
    numeric(options?: number | { length?: number | { min: number; max: number } }): string
    uuid(): string
  }
  readonly helpers: {
    arrayElement<T>(array: ReadonlyArray<T>): T
    arrayElements<T>(array: ReadonlyArray<T>, count?: number | { min: number; max: number }): T[]
    weightedArrayElement<T>(array: ReadonlyArray<{ weight: number; value: T }>): T
    maybe<T>(callback: () => T, options?: { probability?: number }): T | undefined
    fromRegExp(pattern: string | RegExp): string
  }
  readonly datatype: {
    boolean(options?: number | { probability?: number }): boolean
  }
  readonly date: {
    past(options?: { years?: number; refDate?: string | Date | number }): Date
    future(options?: { years?: number; refDate?: string | Date | number }): Date
    between(options: { from: string | Date | number; to: string | Date | number }): Date
  }
}

/**
 * The date faker's `date` module counts from (`faker.date.past()`…): fixed,
 * so that generated dates depend on the seed only, not on when the
 * simulator starts.
 */
export const petFakerReferenceDate = '2026-01-01T00:00:00.000Z'

/** A seeded faker and the number generator under it. */
export interface SeededPetFaker {
  readonly faker: PetFaker
  /**
   * The next number in [0, 1) of faker's own generator (its Mersenne
   * Twister, faker's default), the one every `faker.*` call draws from:
   * `faker.number.int(max)` is `Math.floor(next() * (max + 1))`, without
   * the option checks it makes on every call (a large share of the time of
   * generating a million pets: test/bench/HISTORY.md, "Figures moved out of
   * source comments").
   */
  readonly next: () => number
}

/**
 * A `SimpleFaker` seeded from all 64 bits of `seed`, so that 1 and 1.5 (or
 * two seeds beyond 2^32 apart) give different sequences: faker's own
 * `seed(number)` keeps 32 bits of an integer.
 */
export function createPetFaker(seed: number): SeededPetFaker {
  const { SimpleFaker, generateMersenne53Randomizer } = loadFaker()
  const randomizer = generateMersenne53Randomizer()
  const faker = new SimpleFaker({ randomizer })
  faker.seed(seedWords(seed))
  faker.setDefaultRefDate(petFakerReferenceDate)
  return { faker, next: () => randomizer.next() }
}

/**
 * `createPetFaker(seed).next` without the `SimpleFaker` around it: the same
 * numbers (`faker.seed` only seeds its randomizer), for the seeded catalogue,
 * which draws nothing else. Building the `SimpleFaker` showed in a CPU
 * profile of `createSimulator()` (cold-start.ts, 2026-11-23; the share:
 * test/bench/HISTORY.md, "Figures moved out of source comments").
 */
export function createPetRandom(seed: number): () => number {
  const randomizer = generateMersenne53Randomizer()
  randomizer.seed(seedWords(seed))
  return () => randomizer.next()
}

/** All 64 bits of a seed, as the two 32-bit words faker's seed takes. */
function seedWords(seed: number): number[] {
  const bits = new DataView(new ArrayBuffer(8))
  bits.setFloat64(0, seed)
  return [bits.getUint32(0), bits.getUint32(4)]
}

// Fails to compile if faker's API no longer has what `PetFaker` promises. Not exported: the package's type
// declarations must not name faker's types (users need not have faker installed).
const fakerHasPetFaker: SimpleFaker extends PetFaker ? true : false = true
void fakerHasPetFaker
