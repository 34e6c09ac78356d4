import { describe, expect, it } from 'vitest'
import { createCompactPets } from '../../../src/core/catalogue/compact-pets.ts'
import { createPetStore } from '../../../src/core/catalogue/pet-store.ts'
import { generateCompactPets, generatePets } from '../../../src/core/catalogue/seed-pets.ts'
import type { Pet } from '../../../src/core/model/pet-types.ts'

describe('a compact catalogue (pets as columns)', () => {
  it('holds the seeded pets byte for byte: the same JSON as generatePets, pinned first pets included', () => {
    const compact = generateCompactPets(undefined, 5)
    expect(JSON.stringify(compact.toArray())).toBe(
      '[{"id":1,"name":"Tucker","categoryId":6,"status":"available"},' +
        '{"id":2,"name":"Button","categoryId":4,"status":"sold"},' +
        '{"id":3,"name":"Opal","categoryId":6,"status":"available"},' +
        '{"id":4,"name":"Shelly","categoryId":3,"status":"available"},' +
        '{"id":5,"name":"Maestro","categoryId":5,"status":"pending"}]',
    )
    for (const seed of [1, 7, 20301205]) {
      expect(JSON.stringify(generateCompactPets(seed, 2000).toArray())).toBe(JSON.stringify(generatePets({ seed, count: 2000 })))
    }
  })

  it('answers get, and pages of each status in id order, as the objects would', () => {
    const compact = generateCompactPets(3, 3000)
    const objects = generatePets({ seed: 3, count: 3000 })
    expect(compact.count).toBe(3000)
    for (const id of [1, 2, 1500, 3000]) expect(compact.get(id)).toEqual(objects[id - 1])
    for (const id of [0, -1, 1.5, 3001, Number.NaN]) expect(compact.get(id)).toBeUndefined()
    for (const status of ['available', 'pending', 'sold'] as const) {
      expect(compact.page(100, status)).toEqual(objects.filter((pet) => pet.status === status).slice(0, 100))
    }
    expect(compact.page(5000, undefined)).toEqual(objects)
    expect(compact.page(0, 'sold')).toEqual([])
  })

  it('gives frozen pets, the same object when read again', () => {
    const compact = generateCompactPets(1, 10)
    const pet = compact.get(4)!
    expect(Object.isFrozen(pet)).toBe(true)
    expect(compact.get(4)).toBe(pet)
    expect(compact.page(10, undefined)[3]).toBe(pet)
  })

  it('puts a scenario status on every pet, the rest unchanged', () => {
    const compact = generateCompactPets(2, 50)
    expect(compact.withStatus('sold').toArray()).toEqual(compact.toArray().map((pet) => ({ ...pet, status: 'sold' })))
    expect(compact.withStatus('sold').page(100, 'available')).toEqual([])
  })

  it('refuses columns of different lengths', () => {
    const column = new Uint8Array(2)
    expect(() => createCompactPets({ names: ['A'], nameIndexes: new Uint16Array(3), categoryIds: column, statusIndexes: column })).toThrow(
      RangeError,
    )
  })
})

describe('the store over a compact catalogue', () => {
  const objectStore = () => createPetStore({ initialPets: generatePets({ seed: 9, count: 500 }) })
  const compactStore = () => createPetStore({ initialPets: generateCompactPets(9, 500) })
  const run = (store: ReturnType<typeof createPetStore>) => {
    const seen: unknown[] = []
    seen.push(store.size, store.nextId, store.get(500), store.get(501))
    seen.push(store.create({ name: 'New', categoryId: 2, status: 'pending' }), store.create({ name: 'Next', categoryId: 3 }))
    seen.push(store.size, store.nextId, store.get(501), store.get(502), store.get(503))
    for (const status of [undefined, 'available', 'pending', 'sold'] as const) {
      seen.push(store.list({ limit: 1000, status }), store.list({ limit: 7, status }))
    }
    const all = store.all()
    seen.push(all, Object.isFrozen(all))
    const snapshot: readonly Pet[] = all
    store.reset()
    seen.push(store.size, store.nextId, store.get(501), store.list({ limit: 3, status: 'pending' }))
    store.load(snapshot.slice(0, 10), 600)
    seen.push(store.size, store.nextId, store.list({ limit: 1000 }), store.create({ name: 'After', categoryId: 1 }))
    store.reset()
    seen.push(store.size, store.nextId, store.list({ limit: 1000 }))
    return seen
  }

  it('behaves as the store over the same pets as objects: list, get, create, all, reset, load', () => {
    expect(JSON.stringify(run(compactStore()))).toBe(JSON.stringify(run(objectStore())))
  })

  it('goes back to the compact catalogue on reset after a restore, and to new initial pets on replaceInitial', () => {
    const store = createPetStore({ initialPets: [] })
    store.replaceInitial(generateCompactPets(9, 500))
    store.load([{ id: 3, name: 'Only', categoryId: 1, status: 'sold' }], 4)
    expect(store.size).toBe(1)
    store.reset()
    expect(store.size).toBe(500)
    expect(store.all()).toEqual(generatePets({ seed: 9, count: 500 }))
  })
})

describe("the store's reader: the pets as they stood, a slice at a time (issue #20)", () => {
  for (const [kind, initialPets] of [
    ['a compact catalogue', generateCompactPets(5, 1200)],
    ['objects', generatePets({ seed: 5, count: 1200 })],
  ] as const) {
    it(`reads every pet of ${kind} and those created, as all() lists them, unmoved by later changes`, () => {
      const store = createPetStore({ initialPets })
      for (let index = 0; index < 300; index++) store.create({ name: `Made ${index}`, categoryId: 2 })
      const expected = store.all()
      const read = store.reader()
      const slices: (readonly Pet[])[] = [read(500)]
      store.create({ name: 'Later', categoryId: 1 })
      store.reset()
      for (let slice = read(500); slice.length > 0; slice = read(500)) slices.push(slice)
      expect(slices.map((slice) => slice.length)).toEqual([500, 500, 500])
      expect(slices.flat()).toEqual(expected)
      expect(read(500)).toEqual([])
    })
  }
})
