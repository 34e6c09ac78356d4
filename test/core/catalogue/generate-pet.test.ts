import { en, Faker } from '@faker-js/faker'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../../src/app/app.ts'
import type { Pet } from '../../../src/core/model/pet-types.ts'
import { generatePets, type GeneratePet } from '../../../src/core/catalogue/seed-pets.ts'
import { createSimulator } from '../../../src/simulator.ts'

afterEach(() => {
  vi.useRealTimers()
})

/** GET /v1/pets through the app's fetch, as a client sees it. */
async function listPets(app: ReturnType<typeof createApp>, query = 'limit=100'): Promise<{ status: number; body: Pet[] }> {
  const response = await app.fetch(
    new Request(`http://petstore.test/v1/pets?${query}`, { headers: { authorization: 'Bearer demo-pro-key' } }),
  )
  return { status: response.status, body: (await response.json()) as Pet[] }
}

const withTag: GeneratePet = ({ faker, pet }) => ({ ...pet, name: `${pet.name} #${faker.string.numeric(4)}` })

describe('generatePet: pets shaped with faker', () => {
  it('serves the shaped pets, deterministic per seed and different between seeds', async () => {
    const first = await listPets(createApp({ seed: 5, pets: 20, generatePet: withTag }))
    const again = await listPets(createApp({ seed: 5, pets: 20, generatePet: withTag }))
    const other = await listPets(createApp({ seed: 6, pets: 20, generatePet: withTag }))
    expect(first.status).toBe(200)
    expect(first.body).toHaveLength(20)
    expect(first.body.every((pet) => /^[A-Z][A-Za-z' -]+ #\d{4}$/.test(pet.name))).toBe(true)
    expect(again.body).toEqual(first.body)
    expect(other.body.map((pet) => pet.name)).not.toEqual(first.body.map((pet) => pet.name))
  })

  it('is called once per pet in id order, with the pet the simulator would have generated', () => {
    const seen: Array<{ id: number; pet: Pet }> = []
    const pets = generatePets({
      seed: 9,
      count: 4,
      generatePet: ({ id, pet }) => {
        seen.push({ id, pet })
        return pet
      },
    })
    expect(seen.map((call) => call.id)).toEqual([1, 2, 3, 4])
    // Returned unchanged, the pets are the seed's own.
    expect(pets).toEqual(generatePets({ seed: 9, count: 4 }))
    expect(seen.map((call) => call.pet)).toEqual(pets)
  })

  it('gives faker dates that depend on the seed, not on when the simulator starts', () => {
    const born: GeneratePet = ({ faker, pet }) => ({ ...pet, name: `Born ${faker.date.past({ years: 5 }).toISOString().slice(0, 10)}` })
    vi.useFakeTimers({ now: new Date('2031-06-01T00:00:00Z'), toFake: ['Date'] })
    const later = generatePets({ seed: 2, count: 5, generatePet: born })
    vi.useRealTimers()
    const now = generatePets({ seed: 2, count: 5, generatePet: born })
    expect(later).toEqual(now)
    // faker.date.past counts back from 2026-01-01 (petFakerReferenceDate).
    expect(now.every((pet) => pet.name >= 'Born 2021-01-01' && pet.name < 'Born 2026-01-01')).toBe(true)
  })

  it('fills a status left out with defaultStatus and accepts the id it was given', async () => {
    const app = createApp({
      pets: 3,
      defaultStatus: 'pending',
      generatePet: ({ id, faker }) => ({ id, name: faker.helpers.arrayElement(['Rex', 'Tom']), categoryId: 2 }),
    })
    const { body } = await listPets(app)
    expect(body.map((pet) => [pet.id, pet.status, pet.categoryId])).toEqual([
      [1, 'pending', 2],
      [2, 'pending', 2],
      [3, 'pending', 2],
    ])
    expect(body.every((pet) => pet.name === 'Rex' || pet.name === 'Tom')).toBe(true)
  })

  it('rejects an invalid pet with an error naming its id and the problem', () => {
    const failing = (generatePet: (context: { id: number }) => unknown) => () =>
      createSimulator({ pets: 5, generatePet: generatePet as GeneratePet })
    expect(failing(({ id }) => (id === 3 ? { name: 'Rex' } : { name: 'Rex', categoryId: 1 }))).toThrow(
      'generatePet returned an invalid pet for id 3 ({"name":"Rex"}): categoryId: is required',
    )
    expect(failing(() => ({ name: '', categoryId: 1 }))).toThrow(
      'generatePet returned an invalid pet for id 1 ({"name":"","categoryId":1}): name: must not be empty',
    )
    expect(failing(() => ({ name: 'Rex', categoryId: 1, colour: 'brown' }))).toThrow(
      'generatePet returned an invalid pet for id 1 ({"name":"Rex","categoryId":1,"colour":"brown"}): body: Unrecognized key: "colour"',
    )
    expect(failing(() => ({ name: 'Rex', categoryId: 1n }))).toThrow(
      'generatePet returned an invalid pet for id 1 (object): categoryId: must be an integer',
    )
    expect(failing(() => undefined)).toThrow(
      'generatePet returned an invalid pet for id 1 (undefined): body: Invalid input: expected object, received undefined',
    )
    expect(failing(({ id }) => ({ id: id + 1, name: 'Rex', categoryId: 1 }))).toThrow(
      'generatePet returned the id 2 for pet 1: ids are given, not chosen (leave id out)',
    )
    expect(
      failing(({ id }) => {
        if (id === 4) throw new Error('no more names')
        return { name: 'Rex', categoryId: 1 }
      }),
    ).toThrow('generatePet failed for pet 4: no more names')
  })

  it('runs the first example of docs/seeded-data.md as written', () => {
    const simulator = createSimulator({
      seed: 7,
      pets: 200,
      generatePet: ({ faker, pet }) => ({
        ...pet,
        name: `${pet.name} ${faker.string.alpha({ length: 1, casing: 'upper' })}.`,
        categoryId: faker.helpers.weightedArrayElement([
          { weight: 3, value: 1 }, // mostly dogs
          { weight: 1, value: 2 },
        ]),
      }),
    })
    const pets = simulator.store.list({ limit: 100 })
    expect(pets.every((pet) => /^[A-Z][A-Za-z' -]+ [A-Z]\.$/.test(pet.name))).toBe(true)
    const dogs = pets.filter((pet) => pet.categoryId === 1).length
    expect(dogs + pets.filter((pet) => pet.categoryId === 2).length).toBe(100)
    expect(dogs).toBeGreaterThan(60)
  })

  it('lets a user seed a faker with a locale from it, as docs/seeded-data.md shows', async () => {
    const fakerEn = new Faker({ locale: [en] })
    const generatePet: GeneratePet = ({ faker, pet }) => {
      fakerEn.seed(faker.number.int())
      return { ...pet, name: fakerEn.animal.petName() }
    }
    const first = await listPets(createApp({ seed: 8, pets: 10, generatePet }))
    const again = await listPets(createApp({ seed: 8, pets: 10, generatePet }))
    expect(again.body).toEqual(first.body)
    const petNames = en.animal?.pet_name ?? []
    expect(petNames.length).toBeGreaterThan(10)
    expect(first.body.every((pet) => petNames.includes(pet.name))).toBe(true)
  })

  it('cannot be given with fixtures', () => {
    expect(() => createSimulator({ fixtures: [{ name: 'Rex', categoryId: 1 }], generatePet: withTag })).toThrow(
      'generatePet shapes generated pets: give it or fixtures, not both',
    )
  })

  it('keeps the shaped pets across reset', async () => {
    const app = createApp({ seed: 4, pets: 5, generatePet: withTag })
    const before = await listPets(app)
    app.simulator.reset()
    expect((await listPets(app)).body).toEqual(before.body)
  })
})
