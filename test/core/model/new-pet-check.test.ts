import { describe, expect, it } from 'vitest'
import { checkNewPet, isPetStatus } from '../../../src/core/model/new-pet-check.ts'
import { describeIssues, english, petSchemas } from '../../../src/core/model/schemas.ts'
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

// An oracle that shares no code with the check: literal answers, written from docs/where-the-spec-is-silent.md. The
// comparison with the schema above cannot catch a mutation of `codePointLength`, which both call.
describe('checkNewPet against literal answers', () => {
  const valid = { categoryId: 1 }
  it.each([
    ['a'.repeat(255), undefined],
    ['a'.repeat(256), 'name: must be at most 255 characters'],
    ['🐶'.repeat(255), undefined],
    ['🐶'.repeat(256), 'name: must be at most 255 characters'],
    [`${'🐶'.repeat(200)}${'a'.repeat(55)}`, undefined],
    [`${'🐶'.repeat(200)}${'a'.repeat(56)}`, 'name: must be at most 255 characters'],
    ['', 'name: must not be empty'],
    [' \t ', 'name: must not be empty'],
    ['Re\u0000x', 'name: must not contain control characters'],
    ['Re\u009fx', 'name: must not contain control characters'],
    ['Re\u00a0x', undefined],
  ])('name %#: %s', (name, problem) => {
    const result = checkNewPet({ ...valid, name })
    if (problem === undefined) expect(result).toEqual({ name, categoryId: 1 })
    else expect(result).toBe(problem)
  })

  it.each([
    [1, undefined],
    [Number.MAX_SAFE_INTEGER, undefined],
    [0, 'categoryId: must be at least 1'],
    [-4, 'categoryId: must be at least 1'],
    [1.5, 'categoryId: must be an integer'],
    ['1', 'categoryId: must be an integer'],
    [Number.NaN, 'categoryId: must be an integer'],
    [Number.POSITIVE_INFINITY, 'categoryId: must be an integer'],
    [2 ** 53, 'categoryId: is outside the supported integer range (±9007199254740991)'],
    [undefined, 'categoryId: is required'],
  ])('categoryId %j: %s', (categoryId, problem) => {
    const result = checkNewPet({ name: 'Rex', categoryId })
    if (problem === undefined) expect(result).toEqual({ name: 'Rex', categoryId })
    else expect(result).toBe(problem)
  })

  it('names every problem, in the order name, categoryId, status', () => {
    expect(checkNewPet({ status: 'lost' })).toBe(
      'name: is required; categoryId: is required; status: must be one of available, pending, sold (got "lost")',
    )
    expect(checkNewPet({ name: 7, categoryId: 0, status: 1 })).toBe(
      'name: must be a string; categoryId: must be at least 1; status: must be one of available, pending, sold (got 1)',
    )
  })

  it('keeps status when given, drops it when absent, and drops unknown fields', () => {
    for (const status of ['available', 'pending', 'sold'] as const) {
      expect(checkNewPet({ name: 'Rex', categoryId: 2, status, colour: 'red' })).toEqual({ name: 'Rex', categoryId: 2, status })
    }
    expect(checkNewPet({ name: 'Rex', categoryId: 2, colour: 'red' })).toEqual({ name: 'Rex', categoryId: 2 })
    expect(Object.keys(checkNewPet({ name: 'Rex', categoryId: 2 }) as object)).toEqual(['name', 'categoryId'])
  })
})
