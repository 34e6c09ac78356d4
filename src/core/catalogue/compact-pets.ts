import { petStatuses, type Pet, type PetStatus } from '../model/pet-types.ts'

/**
 * A generated catalogue held as columns instead of one object per pet: ids
 * are implicit (1..count), a name is an index into the name list, and the
 * category and status are small integers, all in typed arrays. A million
 * pets as objects are a million objects for every full GC to trace (a long
 * pause each, and far more resident memory: test/bench/HISTORY.md, "Figures
 * moved out of source comments"); as columns they are a handful of buffers
 * the GC does not look into. Pets are made as objects only when read,
 * and the few read often (pages start at the lowest id) are kept, so that a
 * pet read twice is the same frozen object and its JSON text stays cached.
 */
export interface CompactPets {
  readonly count: number
  /** The pet with this id, or undefined (ids are 1..count). */
  get(id: number): Pet | undefined
  /** The first `limit` pets, ascending by id, optionally of one status: O(limit). */
  page(limit: number, status: PetStatus | undefined): Pet[]
  /** Every pet, ascending by id, as objects (not kept by the catalogue). */
  toArray(): Pet[]
  /** The same pets, every one with this status (a scenario's `status`). */
  withStatus(status: PetStatus): CompactPets
}

/** The columns of a compact catalogue, one entry per pet, the pet with id `n` at index `n - 1`. */
export interface PetColumns {
  /** The list `nameIndexes` point into. */
  readonly names: readonly string[]
  readonly nameIndexes: Uint16Array
  readonly categoryIds: Uint8Array
  /** Indexes into `petStatuses`. */
  readonly statusIndexes: Uint8Array
}

/** How many materialised pets a catalogue keeps: the first pages many times over, bounded whatever the catalogue's size. */
const keptPets = 4096

export function isCompactPets(pets: readonly Pet[] | CompactPets): pets is CompactPets {
  return !Array.isArray(pets)
}

export function createCompactPets(columns: PetColumns): CompactPets {
  const { names, nameIndexes, categoryIds, statusIndexes } = columns
  const count = nameIndexes.length
  if (names.length > 2 ** 16 || categoryIds.length !== count || statusIndexes.length !== count) {
    throw new RangeError('Compact pets: the columns must have one entry per pet, and at most 65,536 names')
  }
  // The ids of each status, ascending: a page of one status is the start of its list, however rare the status.
  const statusCounts = petStatuses.map(() => 0)
  for (let index = 0; index < count; index++) statusCounts[statusIndexes[index]!]!++
  const idsByStatus = statusCounts.map((statusCount) => new Uint32Array(statusCount))
  const filled = petStatuses.map(() => 0)
  for (let index = 0; index < count; index++) {
    const status = statusIndexes[index]!
    idsByStatus[status]![filled[status]!++] = index + 1
  }
  const kept = new Map<number, Pet>()
  const make = (id: number): Pet =>
    Object.freeze({
      id,
      name: names[nameIndexes[id - 1]!]!,
      categoryId: categoryIds[id - 1]!,
      status: petStatuses[statusIndexes[id - 1]!]!,
    })
  const pet = (id: number): Pet => {
    let found = kept.get(id)
    if (found === undefined) {
      found = make(id)
      if (kept.size < keptPets) kept.set(id, found)
    }
    return found
  }
  return {
    count,
    get: (id) => (Number.isInteger(id) && id >= 1 && id <= count ? pet(id) : undefined),
    page(limit, status) {
      const ids = status === undefined ? undefined : idsByStatus[petStatuses.indexOf(status)]!
      const length = Math.min(limit, ids === undefined ? count : ids.length)
      const result: Pet[] = new Array(length)
      for (let index = 0; index < length; index++) result[index] = pet(ids === undefined ? index + 1 : ids[index]!)
      return result
    },
    toArray() {
      const result: Pet[] = new Array(count)
      for (let index = 0; index < count; index++) result[index] = kept.get(index + 1) ?? make(index + 1)
      return result
    },
    withStatus: (status) =>
      createCompactPets({ names, nameIndexes, categoryIds, statusIndexes: new Uint8Array(count).fill(petStatuses.indexOf(status)) }),
  }
}
