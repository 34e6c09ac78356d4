import { describe, expect, it } from 'vitest'
import { publicSchemas } from '../../../src/core/model/schemas.ts'

describe('the exported Standard Schemas (built on first use)', () => {
  it('validate as the simulator does: a valid new pet passes, a bad one gets the simulator’s messages', async () => {
    const standard = publicSchemas.NewPetSchema['~standard']
    expect(standard.vendor).toBe('zod')
    expect(standard.version).toBe(1)
    expect(await standard.validate({ name: 'Rex', categoryId: 2, extra: true })).toEqual({ value: { name: 'Rex', categoryId: 2 } })
    const refused = await standard.validate({ name: ' ', categoryId: 0 })
    expect('issues' in refused && refused.issues?.map((issue) => issue.message)).toEqual(['must not be empty', 'must be at least 1'])
  })

  it('are the same schemas on every read', () => {
    expect(publicSchemas.PetSchema['~standard']).toBe(publicSchemas.PetSchema['~standard'])
    expect(Object.isFrozen(publicSchemas.PetsSchema)).toBe(true)
  })

  it.each([
    ['PetStatusSchema', 'sold', true],
    ['PetStatusSchema', 'Sold', false],
    ['PetSchema', { id: 1, name: 'Rex', categoryId: 1, status: 'available' }, true],
    ['PetsSchema', [{ id: 0, name: 'Rex', categoryId: 1 }], false],
    ['ErrorBodySchema', { code: 'notFound', message: 'No pet 9', status: 404 }, true],
    ['ErrorBodySchema', { code: 'x', message: 'y', status: 200 }, false],
  ] as const)('%s on %j: valid %s', async (name, value, valid) => {
    const result = await publicSchemas[name]['~standard'].validate(value)
    expect(result.issues === undefined).toBe(valid)
  })
})
