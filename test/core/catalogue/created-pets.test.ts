import { describe, expect, it } from 'vitest'
import { createCreatedPets } from '../../../src/core/catalogue/created-pets.ts'
import { createPetStore, type PetStore } from '../../../src/core/catalogue/pet-store.ts'
import { generateCompactPets } from '../../../src/core/catalogue/seed-pets.ts'
import { petStatuses, type Pet, type PetStatus } from '../../../src/core/model/pet-types.ts'

/** Past the pets kept as objects (4096): these are made from the columns when read. */
const pastKept = 5000

/** Names a createPet body may hold, every one to come back exactly: non-ASCII, astral, emoji, lone surrogates, the longest. */
const unusualNames = [
  'Élodie',
  'Ünal ß',
  '小白',
  'Пёс',
  '🐶',
  'Rex 🐕‍🦺 the 2nd',
  '👨‍👩‍👧‍👦',
  'a\u{1F600}b\u{10FFFF}',
  'lone \uD800 high',
  'lone \uDC00 low',
  '\uDBFF',
  'reversed \uDC00\uD800',
  '\uFEFF BOM',
  '𝔊'.repeat(255),
  'x'.repeat(255),
]

const statusOf = (index: number): PetStatus => petStatuses[(index * 7) % petStatuses.length]!
const newPet = (index: number) => ({ name: `Pet ${index} ${'ñ'.repeat(index % 5)}`, categoryId: (index % 13) + 1, status: statusOf(index) })

/** A store with three initial pets (ids 1-3) and `count` created ones, and the created pets as create returned them. */
function storeWith(count: number): { store: PetStore; created: Pet[] } {
  const store = createPetStore({
    initialPets: [
      { id: 1, name: 'One', categoryId: 1, status: 'sold' },
      { id: 2, name: 'Two', categoryId: 2, status: 'available' },
      { id: 3, name: 'Three', categoryId: 3, status: 'pending' },
    ],
  })
  const created: Pet[] = []
  for (let index = 0; index < count; index++) created.push(store.create(newPet(index)))
  return { store, created }
}

describe('created pets, held as columns', () => {
  it('get ids running on from the base, with no gaps, through several doublings of the columns', () => {
    const { store, created } = storeWith(pastKept)
    expect(created.map(({ id }) => id)).toEqual(Array.from({ length: pastKept }, (_, index) => index + 4))
    expect(store.size).toBe(pastKept + 3)
    expect(store.nextId).toBe(pastKept + 4)
    const expected = created.map((_, index) => ({ id: index + 4, ...newPet(index) }))
    expect(created).toEqual(expected)
    expect(store.all().slice(3)).toEqual(expected)
    for (const id of [4, 5, 100, 4099, 4100, 4101, pastKept + 3]) expect(store.get(id)).toEqual(expected[id - 4])
  })

  it('give back every name exactly as created, code unit for code unit, when read from the columns', () => {
    const { store } = storeWith(pastKept)
    const made = unusualNames.map((name, index) => store.create({ name, categoryId: index + 1 }))
    expect(made.map((pet) => pet.name)).toEqual(unusualNames)
    const read = made.map((pet) => store.get(pet.id)!)
    for (const [index, pet] of read.entries()) {
      expect(pet).not.toBe(made[index])
      expect(pet.name).toBe(unusualNames[index])
      expect(pet.name.length).toBe(unusualNames[index]!.length)
    }
    expect(JSON.stringify(store.all().slice(-unusualNames.length))).toBe(JSON.stringify(made))
    expect(JSON.stringify(store.list({ limit: pastKept + 100 }).slice(-unusualNames.length))).toBe(JSON.stringify(made))
  })

  it('keep categoryIds whole across the safe-integer range, negative ones too (the columns take what the store has checked)', () => {
    const categoryIds = [1, 255, 256, 65_536, 2 ** 31, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER, 0, -1, -(2 ** 40), Number.MIN_SAFE_INTEGER]
    const columns = createCreatedPets(10)
    for (let index = 0; index < pastKept; index++) columns.add('Filler', 2, 'sold')
    for (const categoryId of categoryIds) columns.add('Cat', categoryId, 'pending')
    const read = categoryIds.map((_, index) => columns.get(10 + pastKept + index)!.categoryId)
    expect(read).toEqual(categoryIds)
    const { store } = storeWith(pastKept)
    const huge = store.create({ name: 'Huge', categoryId: Number.MAX_SAFE_INTEGER, status: 'sold' })
    expect(store.get(huge.id)).toEqual({ id: huge.id, name: 'Huge', categoryId: Number.MAX_SAFE_INTEGER, status: 'sold' })
  })

  it('page each status in id order, the base first, topped up from the created pets', () => {
    const { store, created } = storeWith(pastKept)
    const base = store.all().slice(0, 3)
    for (const status of [undefined, ...petStatuses]) {
      const all = [...base, ...created].filter((pet) => status === undefined || pet.status === status)
      for (const limit of [0, 1, 2, 3, 20, 100, 2000, pastKept + 10]) {
        expect(store.list({ limit, status }), `${status} ${limit}`).toEqual(all.slice(0, limit))
      }
    }
  })

  it('give the same frozen object for a pet among the first created, however it is read', () => {
    const { store, created } = storeWith(pastKept)
    for (const pet of created) expect(Object.isFrozen(pet)).toBe(true)
    for (const pet of [created[0]!, created[1]!, created[4095]!]) {
      expect(store.get(pet.id)).toBe(pet)
      expect(store.all()[pet.id - 1]).toBe(pet)
      expect(store.reader()(pet.id).at(-1)).toBe(pet)
    }
    const page = store.list({ limit: 100, status: 'pending' })
    expect(store.list({ limit: 100, status: 'pending' }).every((pet, index) => pet === page[index])).toBe(true)
    expect(page.slice(1).every((pet) => created.includes(pet))).toBe(true)
    const later = store.get(pastKept + 3)!
    expect(Object.isFrozen(later)).toBe(true)
    expect(later).toEqual(created.at(-1))
  })

  it('answer undefined for ids outside them, and the base for ids below', () => {
    const { store } = storeWith(20)
    expect(store.get(3)).toEqual({ id: 3, name: 'Three', categoryId: 3, status: 'pending' })
    for (const id of [0, -1, 24, 25, 1000, 4.5, 23.000001, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(store.get(id), String(id)).toBeUndefined()
    }
    const columns = createCreatedPets(100)
    columns.add('Only', 1, 'sold')
    expect(columns.get(100)?.name).toBe('Only')
    for (const id of [99, 101, 100.5, -100]) expect(columns.get(id)).toBeUndefined()
  })

  it('are dropped by a reset, ids starting again after the initial pets', () => {
    const { store } = storeWith(pastKept)
    store.reset()
    expect(store.size).toBe(3)
    expect(store.nextId).toBe(4)
    expect(store.get(4)).toBeUndefined()
    expect(store.list({ limit: 10, status: 'sold' })).toEqual([{ id: 1, name: 'One', categoryId: 1, status: 'sold' }])
    expect(store.create({ name: 'Again', categoryId: 9 })).toEqual({ id: 4, name: 'Again', categoryId: 9, status: 'available' })
    expect(store.list({ limit: 10, status: 'available' }).map((pet) => pet.id)).toEqual([2, 4])
  })

  // Issue 36: ids end at 2^53 - 2, so that nextId (what a snapshot holds) stays a safe integer.
  it('give no id past 2^53 - 2: the store is full there, and unchanged', () => {
    const store = createPetStore({ initialPets: [] })
    store.load([], Number.MAX_SAFE_INTEGER - 2)
    expect(store.create({ name: 'Next to last', categoryId: 1 }).id).toBe(Number.MAX_SAFE_INTEGER - 2)
    expect(store.full).toBe(false)
    expect(store.create({ name: 'Last', categoryId: 1 }).id).toBe(Number.MAX_SAFE_INTEGER - 1)
    expect([store.full, store.nextId]).toEqual([true, Number.MAX_SAFE_INTEGER])
    expect(() => store.create({ name: 'Past', categoryId: 1 })).toThrow(/No id is left/)
    expect([store.size, store.nextId]).toEqual([2, Number.MAX_SAFE_INTEGER])
  })

  it('leave the store as it was when a pet is refused, or the store is full', () => {
    const store = createPetStore({ initialPets: [], maxCreated: 3 })
    store.create({ name: 'A', categoryId: 1 })
    const state = () => [store.size, store.nextId, store.full, store.all(), store.list({ limit: 10, status: 'available' })]
    const was = JSON.stringify(state())
    for (const bad of [
      { name: '', categoryId: 1 },
      { name: 'B', categoryId: 0 },
      { name: 'B', categoryId: 1, status: 'lost' },
      'B',
      null,
    ]) {
      expect(() => store.create(bad as never)).toThrow(TypeError)
      expect(JSON.stringify(state())).toBe(was)
    }
    store.create({ name: 'B', categoryId: 1 })
    store.create({ name: 'C', categoryId: 1 })
    expect(store.full).toBe(true)
    const full = JSON.stringify(state())
    expect(() => store.create({ name: 'D', categoryId: 1 })).toThrow(RangeError)
    expect(JSON.stringify(state())).toBe(full)
    const lost = createPetStore({ initialPets: [], defaultStatus: 'lost' as PetStatus })
    expect(() => lost.create({ name: 'E', categoryId: 1 })).toThrow(TypeError)
    expect([lost.size, lost.nextId, lost.all()]).toEqual([0, 1, []])
  })
})

describe("the store's reader over created pets", () => {
  it('reads the pets as they stood, whatever is created, reset or loaded afterwards (the columns growing meanwhile)', () => {
    const { store } = storeWith(100)
    const expected = store.all()
    const read = store.reader()
    const slices: (readonly Pet[])[] = [read(40)]
    // Past several doublings of the columns the reader holds, then new columns twice over.
    for (let index = 0; index < pastKept; index++) store.create({ name: `Later ${index}`, categoryId: 2, status: 'sold' })
    slices.push(read(40))
    store.reset()
    for (let index = 0; index < 50; index++) store.create({ name: `After reset ${index}`, categoryId: 3 })
    slices.push(read(1))
    store.load([{ id: 7, name: 'Loaded', categoryId: 1, status: 'sold' }], 8)
    store.create({ name: 'After load', categoryId: 4 })
    for (let slice = read(40); slice.length > 0; slice = read(40)) slices.push(slice)
    expect(slices.map((slice) => slice.length)).toEqual([40, 40, 1, 22])
    expect(slices.flat()).toEqual(expected)
    expect(read(10)).toEqual([])
  })

  it('reads a compact base and the created pets past the kept ones, in id order', () => {
    const store = createPetStore({ initialPets: generateCompactPets(4, 300) })
    for (let index = 0; index < pastKept; index++) store.create(newPet(index))
    const expected = store.all()
    const read = store.reader()
    store.reset()
    const slices: Pet[] = []
    for (let slice = read(700); slice.length > 0; slice = read(700)) slices.push(...slice)
    expect(slices).toEqual(expected)
    expect(slices.map((pet) => pet.id)).toEqual(Array.from({ length: 300 + pastKept }, (_, index) => index + 1))
  })
})
