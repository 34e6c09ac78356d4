import { describe, expect, it } from 'vitest'
import { petCategories } from '../../../src/core/catalogue/catalogue.ts'
import { petNames } from '../../../src/core/catalogue/pet-names.ts'
import { defaultSeed, generatePets } from '../../../src/core/catalogue/seed-pets.ts'

describe('the seeded catalogue', () => {
  it('is the same for a seed in every run: the default catalogue starts with these pets', () => {
    // Pinned values: a change to the generator or the names changes every user's seeded data.
    expect(generatePets({ count: 5 })).toEqual([
      { id: 1, name: 'Juniper', categoryId: 3, status: 'sold' },
      { id: 2, name: 'Bruce', categoryId: 6, status: 'pending' },
      { id: 3, name: 'Maya', categoryId: 4, status: 'available' },
      { id: 4, name: 'Cleo', categoryId: 1, status: 'sold' },
      { id: 5, name: 'Pickles', categoryId: 5, status: 'available' },
    ])
    expect(generatePets({ seed: defaultSeed, count: 50 })).toEqual(generatePets())
  })

  it('starts every count the same way: more pets extend the catalogue, they do not reshuffle it', () => {
    expect(generatePets({ seed: 7, count: 200 }).slice(0, 50)).toEqual(generatePets({ seed: 7, count: 50 }))
  })

  it.each([1, 2, 7, 42, defaultSeed])('gives 50 pets more than 28 distinct names (seed %i)', (seed) => {
    expect(new Set(generatePets({ seed, count: 50 }).map((pet) => pet.name)).size).toBeGreaterThan(28)
  })

  it('differs between nearby seeds', () => {
    const names = (seed: number) => generatePets({ seed, count: 10 }).map((pet) => pet.name)
    expect(names(1)).not.toEqual(names(2))
    expect(names(2)).not.toEqual(names(3))
  })

  it('uses every category and the status mix of a shop, about 60% available, 15% pending, 25% sold', () => {
    const pets = generatePets({ seed: 3, count: 20_000 })
    expect(new Set(pets.map((pet) => pet.categoryId))).toEqual(new Set(petCategories.map((category) => category.id)))
    const share = (status: string) => pets.filter((pet) => pet.status === status).length / pets.length
    expect(share('available')).toBeCloseTo(0.6, 1)
    expect(share('pending')).toBeCloseTo(0.15, 1)
    expect(share('sold')).toBeCloseTo(0.25, 1)
  })
})

describe('the pet names', () => {
  it('are distinct names a shop would show', () => {
    expect(new Set(petNames).size).toBe(petNames.length)
    expect(petNames.filter((name) => !/^[A-Z][A-Za-z' -]+$/.test(name))).toEqual([])
  })
})
