import { petStatuses, type NewPet, type Pet, type PetStatus } from '../api/pet-types.ts'
import { describeIssues, english, NewPetSchema } from '../api/schemas.ts'

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
  /** At most `limit` pets, ascending by id, optionally of one status; costs O(limit) whatever the store's size. */
  list(query: PetQuery): Pet[]
  get(id: number): Pet | undefined
  /** Adds a pet with the next id; `status` defaults to the store's default status. */
  /**
   * Adds a pet with the next id; `status` defaults to the store's default status. The pet is checked as a createPet
   * body is: a `TypeError` naming the field, and the store unchanged, for anything else.
   */
  create(newPet: NewPet): Pet
  /** Whether `create` has added as many pets as it may until a reset (see {@link PetStoreOptions.maxCreated}). */
  readonly full: boolean
  /** The pet `create` would make, without making it. */
  preview(newPet: NewPet): Pet
  /** Every pet, ascending by id: a frozen copy, so changing it changes nothing in the store. */
  all(): readonly Pet[]
  /** Puts the store back to its initial pets; ids start again after the highest of them. Costs O(pets created since). */
  reset(): void
  readonly size: number
  /** The id the next created pet gets. */
  readonly nextId: number
  /**
   * Replaces what the store holds (a restored snapshot): these pets, and ids
   * from `nextId` on. The initial pets, which `reset` returns to, stay. The
   * caller validates: ids unique and below `nextId`.
   */
  load(pets: readonly Pet[], nextId: number): void
  /** New initial pets (a scenario's catalogue), and a reset to them. */
  replaceInitial(pets: readonly Pet[]): void
}

export interface PetStoreOptions {
  readonly initialPets: readonly Pet[]
  /** Status of a pet created without one. Default `available`. */
  readonly defaultStatus?: PetStatus
  /** The most pets `create` may add until a reset (they are never removed otherwise). Default: no bound. */
  readonly maxCreated?: number
}

/**
 * The pets are kept twice, both in id order: in one list, and in one list per
 * status, so that a page of one status is a slice, however rare the status.
 * As pets are only ever added (with ids above every earlier one) and reset
 * drops exactly the added ones, every list is the base pets (the initial
 * ones, or a restored snapshot's) followed by the created ones, and reset
 * truncates each list back to its initial length (after a restore it refills
 * them from the initial pets once, O(pets)).
 * Lookup by id is an array index where ids are dense (generated catalogues,
 * and every created pet: `pets` past the initial ones), a map only for sparse
 * fixture ids.
 */
export function createPetStore(options: PetStoreOptions): PetStore {
  const defaultStatus = options.defaultStatus ?? 'available'
  const maxCreated = options.maxCreated ?? Number.POSITIVE_INFINITY
  let initial = contentsOf(sortedFrozen(options.initialPets), undefined)
  // What the store holds: a base list (the initial pets, or a restored snapshot's) and the pets created since.
  let base = initial
  const pets: Pet[] = []
  const byStatus = new Map<PetStatus, Pet[]>(petStatuses.map((status) => [status, []]))
  const fill = (contents: Contents) => {
    base = contents
    pets.length = 0
    for (const list of byStatus.values()) list.length = 0
    // A loop, not push(...pets): a million arguments overflow the stack.
    for (const pet of contents.pets) {
      pets.push(pet)
      byStatus.get(pet.status)!.push(pet)
    }
  }
  fill(initial)
  const make = (newPet: NewPet): Pet => ({
    id: base.firstCreatedId + (pets.length - base.pets.length),
    name: newPet.name,
    categoryId: newPet.categoryId,
    status: newPet.status ?? defaultStatus,
  })

  return {
    list({ limit, status }) {
      return (status === undefined ? pets : byStatus.get(status)!).slice(0, limit)
    },
    get(id) {
      // Created pets follow the base ones in `pets`, in id order with no gaps.
      return id >= base.firstCreatedId ? pets[base.pets.length + (id - base.firstCreatedId)] : base.byId(id)
    },
    create(newPet) {
      // Checked before anything is stored: `simulator.store.create` is public, and a status outside the lists threw
      // only after the pet was in `pets`, which listPets then served (`status: "lost"`, `name: 42`).
      const checked = NewPetSchema.safeParse(newPet, english)
      if (!checked.success) throw new TypeError(`Invalid pet: ${describeIssues(checked.error)}`)
      if (pets.length - base.pets.length >= maxCreated) throw new RangeError(`The store holds ${maxCreated} created pets, its most`)
      const pet: Pet = Object.freeze(make(checked.data))
      pets.push(pet)
      byStatus.get(pet.status)!.push(pet)
      return pet
    },
    all: () => Object.freeze(pets.slice()),
    preview: make,
    reset() {
      if (base !== initial) return fill(initial)
      pets.length = initial.pets.length
      for (const [status, list] of byStatus) list.length = initial.statusCounts.get(status)!
    },
    get size() {
      return pets.length
    },
    get full() {
      return pets.length - base.pets.length >= maxCreated
    },
    get nextId() {
      return base.firstCreatedId + (pets.length - base.pets.length)
    },
    load(loaded, nextId) {
      fill(contentsOf(sortedFrozen(loaded), nextId))
    },
    replaceInitial(replacement) {
      initial = contentsOf(sortedFrozen(replacement), undefined)
      fill(initial)
    },
  }
}

/** A base list of pets with what lookups and resets need of it. */
interface Contents {
  readonly pets: readonly Pet[]
  readonly firstCreatedId: number
  readonly byId: (id: number) => Pet | undefined
  readonly statusCounts: ReadonlyMap<PetStatus, number>
}

function contentsOf(pets: readonly Pet[], nextId: number | undefined): Contents {
  const statusCounts = new Map<PetStatus, number>(petStatuses.map((status) => [status, 0]))
  for (const pet of pets) statusCounts.set(pet.status, statusCounts.get(pet.status)! + 1)
  return { pets, firstCreatedId: nextId ?? (pets.at(-1)?.id ?? 0) + 1, byId: indexById(pets), statusCounts }
}

/** The pets in id order, each frozen (copied first unless it already is). Sorting is skipped when they are in order. */
function sortedFrozen(pets: readonly Pet[]): readonly Pet[] {
  const frozen = pets.map((pet) => (Object.isFrozen(pet) ? pet : Object.freeze({ ...pet })))
  for (let index = 1; index < frozen.length; index++) {
    if (frozen[index - 1]!.id >= frozen[index]!.id) return frozen.sort((a, b) => a.id - b.id)
  }
  return frozen
}

/** Lookup by id: an index into the list when the ids are 1..n, else a map. */
function indexById(pets: readonly Pet[]): (id: number) => Pet | undefined {
  const dense = pets.every((pet, index) => pet.id === index + 1)
  if (dense) return (id) => pets[id - 1]
  const byId = new Map(pets.map((pet) => [pet.id, pet]))
  return (id) => byId.get(id)
}
