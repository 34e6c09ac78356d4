import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createPageTexts } from '../../../src/core/catalogue/page-texts.ts'
import { createPetStore, type PetQuery } from '../../../src/core/catalogue/pet-store.ts'
import { generateCompactPets, generatePets } from '../../../src/core/catalogue/seed-pets.ts'
import { createJsonCache } from '../../../src/core/http/json-text.ts'
import { petStatuses } from '../../../src/core/model/pet-types.ts'

const queries: PetQuery[] = [
  { limit: 1 },
  { limit: 20 },
  { limit: 100 },
  ...petStatuses.flatMap((status) => [
    { limit: 3, status },
    { limit: 100, status },
  ]),
]

/** Every query's kept text against the store's own page, serialised anew. */
function expectFresh(texts: ReturnType<typeof createPageTexts>, store: ReturnType<typeof createPetStore>): void {
  for (const query of queries) expect(texts.text(query).text, JSON.stringify(query)).toBe(JSON.stringify(store.list(query)))
}

describe.each([
  ['objects', () => generatePets({ seed: 4, count: 30 })],
  ['a compact catalogue', () => generateCompactPets(4, 30)],
])('the kept texts of listPets pages over %s', (_, initialPets) => {
  it('are the page as JSON.stringify writes it, through creates, a reset, a load and a new catalogue', () => {
    const store = createPetStore({ initialPets: initialPets() })
    const texts = createPageTexts(store, createJsonCache(100))
    expectFresh(texts, store)
    for (const status of [...petStatuses, undefined]) {
      store.create({ name: `New ${status ?? 'default'}`, categoryId: 2, ...(status === undefined ? {} : { status }) })
      expectFresh(texts, store)
    }
    store.reset()
    expectFresh(texts, store)
    store.load([{ id: 7, name: 'Loaded', categoryId: 1, status: 'sold' }], 9)
    expectFresh(texts, store)
    store.create({ name: 'After the load', categoryId: 3, status: 'sold' })
    expectFresh(texts, store)
    store.replaceInitial(generatePets({ seed: 9, count: 5 }))
    expectFresh(texts, store)
  })

  it('are the same text while the store is unchanged, and made again once it changes', () => {
    const store = createPetStore({ initialPets: initialPets() })
    const texts = createPageTexts(store, createJsonCache(100))
    const first = texts.text({ limit: 20 })
    expect(texts.text({ limit: 20 })).toBe(first)
    store.create({ name: 'On the page', categoryId: 1 })
    const whole = texts.text({ limit: 100 })
    expect(texts.text({ limit: 100 })).toBe(whole)
    expect(JSON.parse(whole.text).at(-1)).toMatchObject({ name: 'On the page' })
    store.reset()
    expect(texts.text({ limit: 100 })).not.toBe(whole)
    expect(JSON.parse(texts.text({ limit: 100 }).text)).toHaveLength(30)
  })
})

describe('the kept texts, bounded', () => {
  it('answer right when more pages are asked than are kept', () => {
    const store = createPetStore({ initialPets: generateCompactPets(2, 200) })
    const texts = createPageTexts(store, createJsonCache(1000))
    for (let round = 0; round < 2; round++) {
      for (let limit = 1; limit <= 100; limit++) expect(texts.text({ limit }).text).toBe(JSON.stringify(store.list({ limit })))
    }
  })
})

describe('the kept texts of listPets pages, on any sequence of queries', () => {
  it('answer each (limit, status) with its own page, past the pages kept at once', () => {
    const status = fc.constantFrom(undefined, ...petStatuses)
    const query = fc
      .record({ limit: fc.integer({ min: 1, max: 100 }), status })
      .map(({ limit, status }) => (status === undefined ? { limit } : { limit, status }))
    fc.assert(
      fc.property(fc.array(fc.oneof(query, fc.constant('create' as const)), { minLength: 1, maxLength: 120 }), (steps) => {
        const store = createPetStore({ initialPets: generateCompactPets(7, 150) })
        const texts = createPageTexts(store, createJsonCache(100))
        for (const step of steps) {
          if (step === 'create') store.create({ name: 'Rex', categoryId: 2, status: 'pending' })
          else expect(texts.text(step).text, JSON.stringify(step)).toBe(JSON.stringify(store.list(step)))
        }
      }),
    )
  })
})
