/**
 * The API's data types, declared plainly so that the package's type
 * declarations need no schema library: `schemas.ts` checks at compile time
 * that its zod schemas describe exactly these types.
 */

/** The spec's PetStatus enumeration. */
export const petStatuses = ['available', 'pending', 'sold'] as const
export type PetStatus = (typeof petStatuses)[number]

/**
 * The highest id a pet may have: 2^53 - 2, so that the id after it (a store's `nextId`, a snapshot's) is still a safe
 * integer. Every way a pet gets an id keeps to it (created, given as a fixture, set up by a provider state), so every
 * catalogue the simulator holds has a snapshot it restores.
 */
export const maxPetId = Number.MAX_SAFE_INTEGER - 1

/** The createPet request body: the spec's NewPet. */
export interface NewPet {
  name: string
  /** A positive integer (int64 in the spec; the simulator keeps to the safe-integer range). */
  categoryId: number
  status?: PetStatus | undefined
}

/** A pet as the simulator returns it: a NewPet with its `id`, `status` always filled in. */
export interface Pet {
  id: number
  name: string
  categoryId: number
  status: PetStatus
}
