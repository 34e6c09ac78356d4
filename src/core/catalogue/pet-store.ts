import { maxPetId, petStatuses, type NewPet, type Pet, type PetStatus } from '../model/pet-types.ts'
import { CheckedNewPet, checkNewPet } from '../model/new-pet-check.ts'
import { describeIssues, english, petSchemas } from '../model/schemas.ts'
import { isCompactPets, type CompactPets } from './compact-pets.ts'
import { createCreatedPets } from './created-pets.ts'

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
  /**
   * Adds a pet with the next id; `status` defaults to the store's default status. The pet is checked as a createPet
   * body is: a `TypeError` naming the field, and the store unchanged, for anything else.
   */
  create(newPet: NewPet): Pet
  /**
   * Whether `create` may add no pet until a reset: it has added as many as it may (see
   * {@link PetStoreOptions.maxCreated}), or no id is left (`nextId` past `maxPetId`, 2^53 - 2).
   */
  readonly full: boolean
  /** @internal The pet `create` would make, without making it. */
  preview(newPet: NewPet): Pet
  /** Every pet, ascending by id: a frozen copy, so changing it changes nothing in the store. */
  all(): readonly Pet[]
  /**
   * @internal
   * The pets as they stand now, ascending by id, a slice at a time: each call
   * of the function returned gives the next `count` ([] after the last).
   * Creating, resetting or loading afterwards changes nothing it gives. It
   * holds the base and the created pets' columns (neither changed: creates
   * append past the count it took, resets and loads start new columns), and
   * makes pets only as it reads them (`all()` makes every one: 100,000 pets
   * are some 10 MiB of objects).
   */
  reader(): (count: number) => readonly Pet[]
  /** @internal Puts the store back to its initial pets (the simulator's `reset()`); ids start again after the highest of them. Costs O(1): new, empty columns. */
  reset(): void
  readonly size: number
  /** The id the next created pet gets. */
  readonly nextId: number
  /** @internal A number that changes whenever what the store holds does (a create, a reset, a load): what a cache of pages checks. */
  readonly revision: number
  /**
   * @internal
   * Replaces what the store holds (a restored snapshot): these pets, and ids
   * from `nextId` on. The initial pets, which `reset` returns to, stay. The
   * caller validates: ids unique and below `nextId`.
   */
  load(pets: readonly Pet[], nextId: number): void
  /** @internal New initial pets (a scenario's catalogue, possibly a compact one), and a reset to them. */
  replaceInitial(pets: readonly Pet[] | CompactPets): void
}

export interface PetStoreOptions {
  /** The pets the store starts with: objects, or a generated catalogue's columns (`generateCompactPets`). */
  readonly initialPets: readonly Pet[] | CompactPets
  /** Status of a pet created without one. Default `available`. */
  readonly defaultStatus?: PetStatus
  /** The most pets `create` may add until a reset (they are never removed otherwise). Default: no bound. */
  readonly maxCreated?: number
}

/**
 * What the store holds is a base (the initial pets, or a restored
 * snapshot's) followed by the pets created since, whose ids run on from the
 * base's with no gaps. The base never changes; created pets are columns
 * (created-pets.ts) with a list of indexes per status, so a page is the
 * base's page topped up from them (O(limit)), and reset starts new columns
 * and goes back to the initial base (O(1), even after a restore).
 */
export function createPetStore(options: PetStoreOptions): PetStore {
  const defaultStatus = options.defaultStatus ?? 'available'
  const maxCreated = options.maxCreated ?? Number.POSITIVE_INFINITY
  let initial = baseOf(options.initialPets, undefined)
  let base = initial
  let created = createCreatedPets(base.firstCreatedId)
  let revision = 0
  const useBase = (contents: Base) => {
    revision++
    base = contents
    // New columns, not the old ones emptied: a reader taken before may still be reading those.
    created = createCreatedPets(contents.firstCreatedId)
  }
  const nextId = () => created.firstId + created.count
  const make = (newPet: NewPet): Pet => ({
    id: nextId(),
    name: newPet.name,
    categoryId: newPet.categoryId,
    status: newPet.status ?? defaultStatus,
  })

  return {
    list({ limit, status }) {
      const page = base.page(limit, status)
      created.fill(page, limit, status)
      return page
    },
    get(id) {
      return id >= created.firstId ? created.get(id) : base.get(id)
    },
    create(newPet) {
      // Checked before anything is stored: `simulator.store.create` is public, and a status outside the lists threw
      // only after the pet was in `pets`, which listPets then served (`status: "lost"`, `name: 42`).
      // By hand, as NewPetSchema checks it (new-pet-check.ts): zod cost a createPet about a microsecond here. What is
      // not an object at all is left to zod, for its own words.
      // Checked once: what the request parsing checked comes as a CheckedNewPet.
      const checked = newPet instanceof CheckedNewPet ? newPet : isPlainObject(newPet) ? checkNewPet(newPet) : zodProblems(newPet)
      if (typeof checked === 'string') throw new TypeError(`Invalid pet: ${checked}`)
      if (created.count >= maxCreated) throw new RangeError(`The store holds ${maxCreated} created pets, its most`)
      // Ids end at 2^53 - 2, so that `nextId` stays a safe integer: what a snapshot holds, and restores.
      if (nextId() > maxPetId) throw new RangeError(`No id is left for a pet: ids go up to ${maxPetId} (2^53 - 2)`)
      const pet = created.add(checked.name, checked.categoryId, checked.status ?? defaultStatus)
      revision++
      return pet
    },
    all() {
      const pets = base.all()
      created.pushRange(pets, 0, created.count)
      return Object.freeze(pets)
    },
    reader() {
      const from = base
      const createdThen = created
      // Creates append past this count; a reset or load starts new columns and leaves these as they are.
      const createdCount = created.count
      let index = 0
      return (count) => {
        const end = Math.min(index + count, from.size + createdCount)
        const slice = index < from.size ? from.slice(index, Math.min(end, from.size)) : []
        createdThen.pushRange(slice, Math.max(index, from.size) - from.size, end - from.size)
        index = Math.max(index, end)
        return slice
      }
    },
    preview: make,
    reset() {
      useBase(initial)
    },
    get size() {
      return base.size + created.count
    },
    get full() {
      return created.count >= maxCreated || nextId() > maxPetId
    },
    get nextId() {
      return nextId()
    },
    get revision() {
      return revision
    },
    load(loaded, loadedNextId) {
      useBase(baseOf(loaded, loadedNextId))
    },
    replaceInitial(replacement) {
      initial = baseOf(replacement, undefined)
      useBase(initial)
    },
  }
}

/** A base list of pets: what lookups and pages need of it. */
interface Base {
  readonly size: number
  readonly firstCreatedId: number
  get(id: number): Pet | undefined
  /** The first `limit` pets, ascending by id, optionally of one status: a new array. */
  page(limit: number, status: PetStatus | undefined): Pet[]
  /** Every pet, ascending by id: a new array. */
  all(): Pet[]
  /** The pets from index `start` to `end` (excluded), ascending by id: a new array. */
  slice(start: number, end: number): Pet[]
}

function baseOf(pets: readonly Pet[] | CompactPets, nextId: number | undefined): Base {
  if (isCompactPets(pets)) {
    return {
      size: pets.count,
      firstCreatedId: nextId ?? pets.count + 1,
      get: (id) => pets.get(id),
      page: (limit, status) => pets.page(limit, status),
      all: () => pets.toArray(),
      // Ids are 1..count, the pet with id n at index n - 1.
      slice: (start, end) => Array.from({ length: Math.max(0, end - start) }, (_, offset) => pets.get(start + offset + 1)!),
    }
  }
  // Objects are kept twice, in id order: in one list, and in one list per status, so that a page of one status is a
  // slice however rare the status.
  const sorted = sortedFrozen(pets)
  const byStatus = new Map<PetStatus, Pet[]>(petStatuses.map((status) => [status, []]))
  for (const pet of sorted) byStatus.get(pet.status)!.push(pet)
  return {
    size: sorted.length,
    firstCreatedId: nextId ?? (sorted.at(-1)?.id ?? 0) + 1,
    get: indexById(sorted),
    page: (limit, status) => (status === undefined ? sorted : byStatus.get(status)!).slice(0, limit),
    all: () => sorted.slice(),
    slice: (start, end) => sorted.slice(start, end),
  }
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

/** Whether NewPetSchema would read the value's fields: an object, not an array. */
function isPlainObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** What NewPetSchema says of a value that is not an object (it never accepts one). */
function zodProblems(value: unknown): string {
  const checked = petSchemas().NewPetSchema.safeParse(value, english)
  return checked.success ? 'body: must be an object' : describeIssues(checked.error)
}
