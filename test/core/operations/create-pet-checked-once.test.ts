import { describe, expect, it, vi } from 'vitest'
import * as newPetCheck from '../../../src/core/model/new-pet-check.ts'
import { plain, setUpPipeline } from '../../support/plain-pipeline.ts'

// Issue 38: a new pet is validated once per createPet (the request's parsing), not again by the store.
vi.mock('../../../src/core/model/new-pet-check.ts', async (original) => {
  const actual = await original<typeof newPetCheck>()
  return { ...actual, checkNewPet: vi.fn(actual.checkNewPet) }
})

describe('a createPet checks the new pet once', () => {
  it('the request parsing checks it, the store takes it as checked', async () => {
    const { respond, simulator } = setUpPipeline()
    const check = vi.mocked(newPetCheck.checkNewPet)
    check.mockClear()
    const created = await respond(plain('POST', '/v1/pets', { authorization: 'Bearer demo-pro-key' }, '{"name":"Rex","categoryId":1}'))
    expect(created.status).toBe(201)
    expect(check).toHaveBeenCalledTimes(1)
    expect(simulator.store.get(JSON.parse(created.body!).id)?.name).toBe('Rex')
  })

  it('the store still checks what did not come checked (simulator.store.create)', () => {
    const { simulator } = setUpPipeline()
    const check = vi.mocked(newPetCheck.checkNewPet)
    check.mockClear()
    expect(() => simulator.store.create({ name: 42, categoryId: 1 } as never)).toThrow('Invalid pet: name: must be a string')
    expect(check).toHaveBeenCalledTimes(1)
  })
})
