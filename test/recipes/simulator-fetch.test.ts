// The recipes of docs/in-process-speed.md, run as written: clients that take a fetch get `simulator.fetch`, and the
// test asserts on what the app sent through the simulator's journal. No msw, no network.
import ky, { HTTPError } from 'ky'
import createClient from 'openapi-fetch'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.ts'

/** The two operations the recipe uses, as openapi-typescript would generate them from fixtures/openapi.yaml. */
interface paths {
  '/pets': {
    get: {
      parameters: { query?: { limit?: number; status?: 'available' | 'pending' | 'sold' } }
      responses: { 200: { content: { 'application/json': Array<{ id: number; name: string; categoryId: number; status: string }> } } }
    }
    post: {
      requestBody: { content: { 'application/json': { name: string; categoryId: number } } }
      responses: { 201: { content: { 'application/json': { id: number; name: string; categoryId: number; status: string } } } }
    }
  }
}

describe('simulator.fetch with openapi-fetch', () => {
  it('lists and creates pets, and the journal shows what was sent', async () => {
    const simulator = createSimulator({ seed: 7 })
    const client = createClient<paths>({
      baseUrl: 'http://localhost/v1',
      fetch: simulator.fetch,
      headers: { Authorization: 'Bearer demo-pro-key' },
    })
    const list = await client.GET('/pets', { params: { query: { limit: 2, status: 'available' } } })
    expect(list.response.status).toBe(200)
    expect(list.data).toHaveLength(2)
    expect(list.data!.every((pet) => pet.status === 'available')).toBe(true)
    expect(list.response.headers.get('x-ratelimit-remaining')).toBe('299')

    const created = await client.POST('/pets', { body: { name: 'Biscuit', categoryId: 2 } })
    expect(created.response.status).toBe(201)
    expect(created.data).toMatchObject({ name: 'Biscuit', categoryId: 2, status: 'available' })
    expect(simulator.store.get(created.data!.id)?.name).toBe('Biscuit')
    expect(simulator.journal.entries().map((entry) => `${entry.operation} ${entry.status}`)).toEqual(['listPets 200', 'createPet 201'])
  })
})

describe('simulator.fetch with ky', () => {
  it('resolves relative URLs against the base URL and raises the API’s errors as ky does', async () => {
    const simulator = createSimulator({ seed: 7 })
    const api = ky.create({ prefix: 'http://localhost/v1', fetch: simulator.fetch, headers: { Authorization: 'Bearer demo-free-key' } })
    const pet = await api.get('pets/1').json<{ id: number }>()
    expect(pet.id).toBe(1)
    const error = await api.get('pets/999999').then(
      () => undefined,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HTTPError)
    expect((error as HTTPError).response.status).toBe(404)
    expect((error as HTTPError).data).toMatchObject({ code: 'pet_not_found', status: 404 })
  })
})

describe('simulator.fetch itself', () => {
  it('takes a relative URL, a URL object and a Request, as fetch does', async () => {
    const simulator = createSimulator()
    const headers = { Authorization: 'Bearer demo-pro-key' }
    const relative = await simulator.fetch('pets?limit=3', { headers })
    const url = await simulator.fetch(new URL('http://api.test/v1/pets?limit=3'), { headers })
    const request = await simulator.fetch(new Request('http://api.test/v1/pets?limit=3', { headers }))
    for (const response of [relative, url, request]) {
      expect(response.status).toBe(200)
      expect(await response.json()).toHaveLength(3)
    }
    expect(simulator.journal.entries().map((entry) => entry.path)).toEqual(['/v1/pets?limit=3', '/v1/pets?limit=3', '/v1/pets?limit=3'])
  })

  it('rejects with a TypeError when a fault rule resets the connection, as fetch does on a network error', async () => {
    const simulator = createSimulator()
    simulator.faults.add({ operation: 'listPets', fault: 'reset' })
    await expect(simulator.fetch('pets', { headers: { Authorization: 'Bearer demo-pro-key' } })).rejects.toThrow(TypeError)
  })
})
