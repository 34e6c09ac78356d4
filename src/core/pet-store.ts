import type { NewPet, Pet, PetStatus } from './schemas.ts'

/** What listPets asks the store for. */
export interface PetQuery {
  readonly limit: number
  readonly status?: PetStatus | undefined
}

/**
 * The simulator's catalogue of pets, in ascending id order. Pets are frozen:
 * the API has no update operation, so a returned pet never changes.
 *
 * @example
 * const store = createPetStore({ initialPets: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }] })
 * store.create({ name: 'Tom', categoryId: 2 }) // { id: 2, name: 'Tom', categoryId: 2, status: 'available' }
 */
export interface PetStore {
  /** At most `limit` pets, ascending by id, optionally of one status. */
  list(query: PetQuery): Pet[]
  get(id: number): Pet | undefined
  /** Adds a pet with the next id; `status` defaults to the store's default status. */
  create(newPet: NewPet): Pet
  /** Every pet, ascending by id. */
  all(): readonly Pet[]
  /** Puts the store back to its initial pets; ids start again after the highest of them. */
  reset(): void
  readonly size: number
}

export interface PetStoreOptions {
  readonly initialPets: readonly Pet[]
  /** Status of a pet created without one. Default `available`. */
  readonly defaultStatus?: PetStatus
}

export function createPetStore(options: PetStoreOptions): PetStore {
  const defaultStatus = options.defaultStatus ?? 'available'
  const initialPets = [...options.initialPets].sort((a, b) => a.id - b.id).map((pet) => Object.freeze({ ...pet }))
  let pets: Pet[] = []
  let byId = new Map<number, Pet>()
  let nextId = 1

  function reset(): void {
    pets = [...initialPets]
    byId = new Map(pets.map((pet) => [pet.id, pet]))
    nextId = (pets.at(-1)?.id ?? 0) + 1
  }
  reset()

  return {
    list({ limit, status }) {
      if (status === undefined) return pets.slice(0, limit)
      const found: Pet[] = []
      for (const pet of pets) {
        if (found.length >= limit) break
        if (pet.status === status) found.push(pet)
      }
      return found
    },
    get: (id) => byId.get(id),
    create(newPet) {
      const pet: Pet = Object.freeze({
        id: nextId++,
        name: newPet.name,
        categoryId: newPet.categoryId,
        status: newPet.status ?? defaultStatus,
      })
      pets.push(pet)
      byId.set(pet.id, pet)
      return pet
    },
    all: () => pets,
    reset,
    get size() {
      return pets.length
    },
  }
}
