import { describe, expect, it } from 'vitest'
import { checkNewPet, isPetStatus } from '../../../src/core/api/new-pet-check.ts'
import { describeIssues, english, petSchemas } from '../../../src/core/api/schemas.ts'
import { createPetStore } from '../../../src/core/catalogue/pet-store.ts'

/** What the schema of record says: the pet it gives, or its problems as the API words them. */
function bySchema(data: unknown): unknown {
  const result = petSchemas().NewPetSchema.safeParse(data, english)
  return result.success ? result.data : describeIssues(result.error)
}

const longName = 'a'.repeat(255)
const names: unknown[] = [
  'Rex',
  '',
  '   ',
  '\u00a0\ufeff',
  ' Rex ',
  'Re\u0000x',
  'Re\u001fx',
  'Re\u007fx',
  'Re\u0085x',
  'Re\u009fx',
  'Re\u00a0x',
  longName,
  `${longName}a`,
  '🐶'.repeat(255),
  `${'🐶'.repeat(255)}a`,
  `${'a'.repeat(254)}\ud800`,
  '\ud800',
  5,
  null,
  true,
  ['Rex'],
  { name: 'Rex' },
  undefined,
]
const categoryIds: unknown[] = [
  1,
  2,
  0,
  -0,
  -1,
  1.5,
  1e300,
  -1e300,
  2 ** 53,
  2 ** 53 - 1,
  -(2 ** 53),
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  '1',
  null,
  true,
  [1],
  undefined,
]
const statuses: unknown[] = ['available', 'pending', 'sold', 'Sold', 'lost', '', null, 1, ['sold'], { status: 'sold' }, undefined]

describe('checkNewPet: the createPet fast path, equal to NewPetSchema', () => {
  it('gives the schema’s pet or its words for every combination of fields', () => {
    let compared = 0
    for (const name of names)
      for (const categoryId of categoryIds)
        for (const status of statuses) {
          const data: Record<string, unknown> = { extra: 'dropped', id: 7 }
          if (name !== undefined) data.name = name
          if (categoryId !== undefined) data.categoryId = categoryId
          if (status !== undefined) data.status = status
          expect(checkNewPet(data), JSON.stringify(data)).toEqual(bySchema(data))
          compared++
        }
    expect(compared).toBe(names.length * categoryIds.length * statuses.length)
  })

  it('reads JSON as the API receives it: an empty object, a prototype key, fields given as undefined', () => {
    for (const data of [
      {},
      JSON.parse('{"__proto__":{"name":"Rex","categoryId":1}}'),
      JSON.parse('{"name":"Rex","categoryId":1,"__proto__":{"status":"lost"}}'),
      { name: 'Rex', categoryId: 1, status: undefined },
    ]) {
      expect(checkNewPet(data), JSON.stringify(data)).toEqual(bySchema(data))
    }
  })

  it('knows the statuses exactly', () => {
    expect(['available', 'pending', 'sold'].every(isPetStatus)).toBe(true)
    expect(['Available', 'lost', '', null, undefined].some(isPetStatus)).toBe(false)
  })

  it('leaves store.create’s refusals as the schema words them, objects or not', () => {
    const store = createPetStore({ initialPets: [] })
    for (const value of [null, 5, 'Rex', ['Rex'], { name: '', categoryId: 0 }, { name: 'Rex', categoryId: 1, status: 'lost' }]) {
      const words = bySchema(value)
      expect(typeof words, JSON.stringify(value)).toBe('string')
      expect(() => store.create(value as never), JSON.stringify(value)).toThrow(new TypeError(`Invalid pet: ${words as string}`))
    }
    expect(store.create({ name: 'Rex', categoryId: 1 })).toEqual({ id: 1, name: 'Rex', categoryId: 1, status: 'available' })
  })
})
