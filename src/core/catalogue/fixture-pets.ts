import { maxPetId, type Pet, type PetStatus } from '../model/pet-types.ts'
import { describeIssues, english, lazily, petSchemas } from '../model/schemas.ts'
import { loadZod } from '../model/zod-module.ts'

/** A pet given as data: like a created pet, with an optional `id` and no unknown fields. */
const fixturePetSchema = lazily(() => {
  const z = loadZod()
  return z.strictObject({
    ...petSchemas().NewPetSchema.shape,
    id: z.optional(z.int({ error: 'must be a positive integer' }).check(z.minimum(1, 'must be a positive integer'))),
  })
})

/**
 * Validates pets given as data and gives them ids: an entry without an `id`
 * gets the next one after the highest so far. Throws a `TypeError` naming the
 * first bad entry (by index and field) or a duplicated id.
 *
 * @example
 * parseFixturePets([{ name: 'Rex', categoryId: 1 }], 'available') // [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]
 */
export function parseFixturePets(data: unknown, defaultStatus: PetStatus = 'available'): Pet[] {
  if (!Array.isArray(data)) {
    throw new TypeError('Pet fixtures must be a JSON array of pets')
  }
  const pets: Pet[] = []
  const ids = new Set<number>()
  let highest = 0
  data.forEach((entry: unknown, index) => {
    const result = fixturePetSchema().safeParse(entry, english)
    if (!result.success) {
      throw new TypeError(`Pet fixture #${index} (${JSON.stringify(entry)}) is invalid: ${describeIssues(result.error)}`)
    }
    const id = result.data.id ?? highest + 1
    // Past it the next id is no safe integer: the catalogue's snapshot could not be restored (`--state` refused to start).
    if (id > maxPetId) throw new TypeError(`Pet fixture #${index} has the id ${id}: ids go up to ${maxPetId} (2^53 - 2)`)
    if (ids.has(id)) {
      throw new TypeError(`Pet fixture #${index} repeats the id ${id}`)
    }
    ids.add(id)
    highest = Math.max(highest, id)
    pets.push({ id, name: result.data.name, categoryId: result.data.categoryId, status: result.data.status ?? defaultStatus })
  })
  return pets
}

/**
 * Validates what `generatePet` returned for pet `id`, as a fixture is
 * validated. Throws a `TypeError` naming the pet id and the problem.
 *
 * @example
 * parseGeneratedPet({ name: 'Rex', categoryId: 1 }, 3, 'available') // { id: 3, name: 'Rex', categoryId: 1, status: 'available' }
 */
export function parseGeneratedPet(data: unknown, id: number, defaultStatus: PetStatus): Pet {
  const result = fixturePetSchema().safeParse(data, english)
  if (!result.success) {
    throw new TypeError(`generatePet returned an invalid pet for id ${id} (${describeValue(data)}): ${describeIssues(result.error)}`)
  }
  if (result.data.id !== undefined && result.data.id !== id) {
    throw new TypeError(`generatePet returned the id ${result.data.id} for pet ${id}: ids are given, not chosen (leave id out)`)
  }
  return { id, name: result.data.name, categoryId: result.data.categoryId, status: result.data.status ?? defaultStatus }
}

/** The value as JSON for an error message, or its type when it has no JSON form (a function, a BigInt, a cycle). */
function describeValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value
  } catch {
    return typeof value
  }
}
