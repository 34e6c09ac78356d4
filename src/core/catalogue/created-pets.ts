import { petStatuses, type Pet, type PetStatus } from '../model/pet-types.ts'

/**
 * The pets created since a base, held as columns in typed arrays that double
 * as they fill: ids implicit (`firstId` + index), names as UTF-16 code units
 * in one arena, the category and status as numbers, and one list of indexes
 * per status. Kept as frozen objects in arrays, created pets grew the traced
 * heap in a POST benchmark (each object and its name string promoted to the
 * old generation, mark-compacts during the run: test/bench/HISTORY.md,
 * "Figures moved out of source comments"); columns are a handful of buffers
 * the GC does not look into. Pets are made as objects when read, except the
 * first `keptPets`, kept as created, so a page (pages start at the lowest id)
 * gives the same frozen objects each time and their JSON text stays cached
 * (`JsonCache` is keyed by identity).
 * Dropped in issue 38 for frozen objects, back in issue 47 by its A/B (less
 * than half the memory a pet, a cheaper add, the same server CPU: the figures
 * are in test/bench/HISTORY.md).
 *
 * Columns only grow: a reset or a load starts new ones, so whoever holds these
 * (a store's reader) reads them, up to the count it took, unchanged.
 */
export interface CreatedPets {
  /** The id of the first pet created. */
  readonly firstId: number
  /** How many pets are held; the next one gets id `firstId + count`. */
  readonly count: number
  /**
   * Adds a pet with the next id and returns it, frozen. The caller has checked the pet (`checkNewPet`); nothing is
   * stored when this throws.
   */
  add(name: string, categoryId: number, status: PetStatus): Pet
  /** The pet with this id, or undefined. */
  get(id: number): Pet | undefined
  /** Pushes pets onto `page` in id order, of one status if given, until it holds `limit` or there are no more: O(limit). */
  fill(page: Pet[], limit: number, status: PetStatus | undefined): void
  /** Pushes the pets at indexes `start` to `end` (excluded) onto `into`, in id order. */
  pushRange(into: Pet[], start: number, end: number): void
}

/** How many created pets are kept as objects: the first pages many times over, bounded whatever the count (as compact-pets.ts). */
const keptPets = 4096

/** The most code units the name arena may hold: its offsets are 32-bit. Some 8 GiB of names, far past any `maxPets`. */
const maxNameUnits = 2 ** 32 - 1

export function createCreatedPets(firstId: number): CreatedPets {
  let count = 0
  // Empty until the first pet: a reset, which starts new columns, allocates no buffer until a pet is created.
  let categoryIds = new Float64Array(0)
  let statusIndexes = new Uint8Array(0)
  /** Where each name ends in `nameUnits`; it starts where the one before ends (0 for the first). */
  let nameEnds = new Uint32Array(0)
  let nameUnits = new Uint16Array(0)
  let nameUnitCount = 0
  const byStatus = petStatuses.map(() => ({ indexes: new Uint32Array(0), count: 0 }))
  const kept: Pet[] = []

  const nameAt = (index: number): string => {
    const units = nameUnits.subarray(index === 0 ? 0 : nameEnds[index - 1]!, nameEnds[index]!)
    // A name is at most 255 code points (510 units: checkNewPet), well within the arguments `apply` may pass. Code
    // units, not UTF-16 decoding: lone surrogates, which a name may hold, come back as they went in.
    return String.fromCharCode.apply(null, units as unknown as number[])
  }
  const make = (index: number): Pet =>
    Object.freeze({
      id: firstId + index,
      name: nameAt(index),
      categoryId: categoryIds[index]!,
      status: petStatuses[statusIndexes[index]!]!,
    })
  const pet = (index: number): Pet => kept[index] ?? make(index)

  return {
    firstId,
    get count() {
      return count
    },
    add(name, categoryId, status) {
      const statusIndex = petStatuses.indexOf(status)
      if (statusIndex < 0) throw new TypeError(`Invalid pet: status: not a pet status (${JSON.stringify(status)})`)
      if (nameUnitCount + name.length > maxNameUnits) throw new RangeError('The created pets hold as many name characters as they may')
      const list = byStatus[statusIndex]!
      // Every column grown before anything is written: if an allocation fails, the pets held are as they were.
      if (count === categoryIds.length) {
        const capacity = Math.max(16, count * 2)
        categoryIds = copied(categoryIds, new Float64Array(capacity))
        statusIndexes = copied(statusIndexes, new Uint8Array(capacity))
        nameEnds = copied(nameEnds, new Uint32Array(capacity))
      }
      if (nameUnitCount + name.length > nameUnits.length) {
        nameUnits = copied(nameUnits, new Uint16Array(Math.max(256, nameUnitCount + name.length, nameUnits.length * 2)))
      }
      if (list.count === list.indexes.length) list.indexes = copied(list.indexes, new Uint32Array(Math.max(16, list.count * 2)))

      for (let unit = 0; unit < name.length; unit++) nameUnits[nameUnitCount + unit] = name.charCodeAt(unit)
      nameUnitCount += name.length
      nameEnds[count] = nameUnitCount
      categoryIds[count] = categoryId
      statusIndexes[count] = statusIndex
      list.indexes[list.count++] = count
      const created: Pet = Object.freeze({ id: firstId + count, name, categoryId, status })
      if (count < keptPets) kept.push(created)
      count++
      return created
    },
    get(id) {
      const index = id - firstId
      return Number.isInteger(index) && index >= 0 && index < count ? pet(index) : undefined
    },
    fill(page, limit, status) {
      if (status === undefined) {
        for (let index = 0; index < count && page.length < limit; index++) page.push(pet(index))
        return
      }
      const list = byStatus[petStatuses.indexOf(status)]!
      for (let at = 0; at < list.count && page.length < limit; at++) page.push(pet(list.indexes[at]!))
    },
    pushRange(into, start, end) {
      for (let index = Math.max(0, start); index < Math.min(end, count); index++) into.push(pet(index))
    },
  }
}

/** The larger column, holding the smaller's entries first. */
function copied<Column extends Float64Array | Uint32Array | Uint16Array | Uint8Array>(from: Column, to: Column): Column {
  to.set(from)
  return to
}
