import fc from 'fast-check'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { startInProcessTarget } from '../support/in-process-target.ts'
import { checkedFetch } from '../support/checked-fetch.ts'

// Properties over HTTP, in-process; every response also passes the contract check of checkedFetch.
const target = startInProcessTarget({ keys: { unlimited: 'enterprise:100000000/1000000000' }, pets: 120 })
afterAll(() => target.close())
beforeEach(() => target.reset())

const statuses = ['available', 'pending', 'sold'] as const
const headers = { authorization: 'Bearer unlimited', 'content-type': 'application/json' }
const runs = { numRuns: 150, seed: 5121 }

async function send(method: string, path: string, body?: string) {
  const response = await checkedFetch(`${target.apiUrl}${path}`, { method, headers, body })
  return { status: response.status, body: await response.json() }
}

/** An oracle written from the spec and the docs, independent of the zod schemas. */
function isValidNewPet(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const { name, categoryId, status } = value as Record<string, unknown>
  const nameOk = typeof name === 'string' && /\S/.test(name) && [...name].length <= 255
  const categoryOk = typeof categoryId === 'number' && Number.isSafeInteger(categoryId) && categoryId >= 1
  const statusOk = status === undefined || (typeof status === 'string' && (statuses as readonly string[]).includes(status))
  return nameOk && categoryOk && statusOk
}

const validNewPet = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 255, unit: 'grapheme' }).filter((name) => /\S/.test(name) && [...name].length <= 255),
    categoryId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    status: fc.constantFrom(...statuses),
    unknownField: fc.jsonValue(),
  },
  { requiredKeys: ['name', 'categoryId'] },
)

describe('properties', () => {
  it('valid NewPet bodies always succeed and round-trip', async () => {
    await fc.assert(
      fc.asyncProperty(validNewPet, async (newPet) => {
        const created = await send('POST', '/pets', JSON.stringify(newPet))
        expect(created.status).toBe(201)
        expect(created.body).toEqual({
          id: created.body.id,
          name: newPet.name,
          categoryId: newPet.categoryId,
          status: newPet.status ?? 'available',
        })
        const read = await send('GET', `/pets/${created.body.id}`)
        expect(read).toEqual({ status: 200, body: created.body })
      }),
      runs,
    )
  })

  it('valid queries always succeed, within limit and filter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
        fc.option(fc.constantFrom(...statuses), { nil: undefined }),
        async (limit, status) => {
          const query = new URLSearchParams()
          if (limit !== undefined) query.set('limit', String(limit))
          if (status !== undefined) query.set('status', status)
          const listed = await send('GET', `/pets?${query}`)
          expect(listed.status).toBe(200)
          expect(listed.body.length).toBeLessThanOrEqual(limit ?? 20)
          const ids = listed.body.map((pet: { id: number }) => pet.id)
          expect(ids).toEqual([...ids].sort((a, b) => a - b))
          if (status !== undefined) for (const pet of listed.body) expect(pet.status).toBe(status)
        },
      ),
      runs,
    )
  })

  it('invalid bodies always get a 4xx Error body', async () => {
    const invalid = fc.oneof(
      fc.jsonValue(),
      validNewPet.map((pet) => ({ ...pet, name: 7 })),
      fc.record({ name: fc.string(), categoryId: fc.double() }),
    )
    await fc.assert(
      fc.asyncProperty(
        invalid.filter((value) => !isValidNewPet(value)),
        async (value) => {
          const response = await send('POST', '/pets', JSON.stringify(value))
          expect(response.status).toBe(400)
          expect(response.body.code).toBe('invalid_body')
        },
      ),
      runs,
    )
  })

  it('bodies that are not JSON always get a 4xx Error body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary' }).filter((text) => {
          try {
            JSON.parse(text)
            return false
          } catch {
            return true
          }
        }),
        async (text) => {
          const response = await send('POST', '/pets', text)
          expect(response.status).toBeGreaterThanOrEqual(400)
          expect(response.status).toBeLessThan(500)
        },
      ),
      runs,
    )
  })

  it('invalid query values always get 400 invalid_query_parameter', async () => {
    const badLimit = fc.string({ unit: 'binary' }).filter((text) => !/^([1-9]\d?|100)$/.test(text))
    const badStatus = fc.string({ unit: 'binary' }).filter((text) => !(statuses as readonly string[]).includes(text))
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          badLimit.map((value) => ['limit', value]),
          badStatus.map((value) => ['status', value]),
        ),
        async ([name, value]) => {
          const response = await send('GET', `/pets?${new URLSearchParams({ [name!]: value! })}`)
          expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'invalid_query_parameter' })
          expect(response.body.message.startsWith(`${name} `)).toBe(true)
        },
      ),
      runs,
    )
  })

  it('any petId, valid or not, gets 200 or a 4xx, never a 5xx', async () => {
    const anyId = fc.oneof(
      fc.integer().map(String),
      fc.string({ unit: 'binary', minLength: 1 }),
      fc.bigInt().map(String),
      fc.double().map(String),
    )
    await fc.assert(
      fc.asyncProperty(anyId, async (id) => {
        const response = await send('GET', `/pets/${encodeURIComponent(id)}`)
        expect(response.status === 200 || (response.status >= 400 && response.status < 500)).toBe(true)
        if (response.status === 200) expect(String(response.body.id)).toBe(id)
      }),
      runs,
    )
  })
})
