import { describe, expect, it } from 'vitest'
import { petCategories } from '../../../src/core/catalogue/catalogue.ts'
import { petNames } from '../../../src/core/catalogue/pet-names.ts'
import { defaultSeed, generatePets } from '../../../src/core/catalogue/seed-pets.ts'

describe('the seeded catalogue', () => {
  it('is the same for a seed in every run: the default catalogue starts with these pets, byte for byte', () => {
    // Pinned values: a change to the generator, the bundled faker version or the names changes every user's
    // seeded data, which only a major version of petstore-sim may do (docs/seeded-data.md). They changed once,
    // when faker (10.6.0) came back as the generator.
    expect(JSON.stringify(generatePets({ count: 5 }))).toBe(
      '[{"id":1,"name":"Tucker","categoryId":6,"status":"available"},' +
        '{"id":2,"name":"Button","categoryId":4,"status":"sold"},' +
        '{"id":3,"name":"Opal","categoryId":6,"status":"available"},' +
        '{"id":4,"name":"Shelly","categoryId":3,"status":"available"},' +
        '{"id":5,"name":"Maestro","categoryId":5,"status":"pending"}]',
    )
    expect(generatePets({ seed: defaultSeed, count: 50 })).toEqual(generatePets())
  })

  it('starts every count the same way: more pets extend the catalogue, they do not reshuffle it', () => {
    expect(generatePets({ seed: 7, count: 200 }).slice(0, 50)).toEqual(generatePets({ seed: 7, count: 50 }))
  })

  it.each([1, 2, 7, 42, defaultSeed])('gives 50 pets more than 40 distinct names (seed %i)', (seed) => {
    expect(new Set(generatePets({ seed, count: 50 }).map((pet) => pet.name)).size).toBeGreaterThan(40)
  })

  it('differs between nearby seeds, fractional ones and ones 2^32 apart', () => {
    const names = (seed: number) => generatePets({ seed, count: 10 }).map((pet) => pet.name)
    expect(names(1)).not.toEqual(names(2))
    expect(names(2)).not.toEqual(names(3))
    expect(names(1)).not.toEqual(names(1.5))
    expect(names(1)).not.toEqual(names(1 + 2 ** 32))
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
