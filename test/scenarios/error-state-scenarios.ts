import { beforeEach, describe, expect, it } from 'vitest'
import { apiRoutes } from '../../src/core/operations/api-routes.ts'
import { scenarioPetCount, testKeys, type ApiTarget } from '../support/api-target.ts'
import { createClient, expectError, rateLimitHeaders } from './http-client.ts'

/** A request for each operation that would succeed, to force answers onto. */
const sampleRequests: Record<string, { method: string; path: string; body?: unknown }> = {
  listPets: { method: 'GET', path: '/pets?limit=3' },
  createPet: { method: 'POST', path: '/pets', body: { name: 'Forced Rex', categoryId: 2 } },
  getPet: { method: 'GET', path: '/pets/3' },
  listOrders: { method: 'GET', path: '/store/orders' },
}

/**
 * Error states on demand: `Prefer: code=` and fault rules, the same on every
 * target. Every response that reaches the client is checked against the
 * OpenAPI document on the way (faults outside it by their marking).
 */
export function defineErrorStateScenarios(target: () => ApiTarget): void {
  const call = createClient(target, testKeys.pro)
  beforeEach(() => target().reset())

  describe('Prefer: code=<status> forces the documented answer', () => {
    const cases = apiRoutes.flatMap((route) => route.statuses.map((status) => [route.operation, status] as const))

    it.each(cases)('%s answers %i when asked, with the rate-limit headers, changing and counting nothing', async (operation, status) => {
      const sample = sampleRequests[operation]!
      const before = rateLimitHeaders(await call('GET', '/pets?limit=1'))
      const response = await call(sample.method, sample.path, { body: sample.body, headers: { prefer: `code=${status}` } })
      expect(response.status).toBe(status)
      expect(response.headers.get('preference-applied')).toBe(`code=${status}`)
      const limits = rateLimitHeaders(response)
      if (status >= 400) {
        expect(Object.keys(response.body).sort()).toEqual(['code', 'message', 'status'])
        expect(response.body.status).toBe(status)
      }
      if (status === 429) {
        expect(limits.remaining).toBe(0)
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      } else {
        // Nothing counted: the same quota as before this request.
        expect(limits.remaining).toBe(before.remaining)
      }
      if (status === 401) expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="petstore-sim"/)
      if (status === 404) expect(response.body.code).toBe('pet_not_found')
      // No state changed: still the seeded catalogue, and the next request counts from where it was.
      expect((await call('GET', '/pets?limit=100')).body).toHaveLength(scenarioPetCount)
      const entry = (await target().journal()).find((candidate) => candidate.forced === true)
      expect({ status: entry?.status, operation: entry?.operation }).toEqual({ status, operation })
    })

    it('answers a status the operation does not document with 400 invalid_prefer, listing those it does', async () => {
      const response = await call('GET', '/pets', { headers: { prefer: 'code=418' } })
      expectError(response, 400, 'invalid_prefer')
      expect(response.body.message).toContain('200, 400, 401, 429')
      expectError(await call('GET', '/pets/1', { headers: { prefer: 'code=abc' } }), 400, 'invalid_prefer')
    })

    it('does not bypass authentication, unless 401 is what is asked for', async () => {
      expectError(await call('GET', '/pets', { key: null, headers: { prefer: 'code=200' } }), 401, 'missing_api_key')
      const forced = await call('GET', '/pets', { key: null, headers: { prefer: 'code=401' } })
      expect(forced.status).toBe(401)
      expect(forced.headers.get('preference-applied')).toBe('code=401')
    })

    it('is no way round the limits: a caller over its limit still gets its 429', async () => {
      for (let index = 0; index < 3; index++) expect((await call('GET', '/pets?limit=1', { key: testKeys.tiny })).status).toBe(200)
      const refused = await call('GET', '/pets?limit=1', { key: testKeys.tiny, headers: { prefer: 'code=200' } })
      expectError(refused, 429, 'rate_limit_exceeded')
      expect(refused.headers.get('preference-applied')).toBeNull()
    })

    it('reads code among other preferences, quoted or not', async () => {
      expect((await call('GET', '/pets/1', { headers: { prefer: 'respond-async, code="404"' } })).status).toBe(404)
      expect((await call('GET', '/pets/1', { headers: { prefer: 'return=minimal; x=1, CODE=410' } })).status).toBe(410)
    })

    it('forces a 201 without storing the pet', async () => {
      const created = await call('POST', '/pets', { body: { name: 'Ghost', categoryId: 4 }, headers: { prefer: 'code=201' } })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({ name: 'Ghost', categoryId: 4, id: scenarioPetCount + 1 })
      expect(created.headers.get('location')).toMatch(new RegExp(`/pets/${scenarioPetCount + 1}$`))
      expectError(await call('GET', `/pets/${scenarioPetCount + 1}`), 404, 'pet_not_found')
    })
  })

  describe('fault rules', () => {
    it('answers 503 the next N times, marked and with Retry-After, then recovers', async () => {
      const id = await target().addFault({ operation: 'listPets', status: 503, times: 2 })
      for (let attempt = 0; attempt < 2; attempt++) {
        const failed = await call('GET', '/pets?limit=1')
        expectError(failed, 503, 'service_unavailable')
        expect(failed.headers.get('petstore-sim-fault')).toBe(id)
        expect(Number(failed.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
        rateLimitHeaders(failed)
      }
      const recovered = await call('GET', '/pets?limit=1')
      expect(recovered.status).toBe(200)
      expect(recovered.headers.get('petstore-sim-fault')).toBeNull()
      const journal = await target().journal()
      expect(journal.filter((entry) => entry.fault === id).map((entry) => entry.status)).toEqual([503, 503])
    })

    it('answers a documented status, for one key only, until removed', async () => {
      const id = await target().addFault({ operation: 'getPet', status: 404, key: testKeys.free })
      expectError(await call('GET', '/pets/2', { key: testKeys.free }), 404, 'pet_not_found')
      expect((await call('GET', '/pets/2', { key: testKeys.pro })).status).toBe(200)
      await target().removeFault(id)
      expect((await call('GET', '/pets/2', { key: testKeys.free })).status).toBe(200)
    })

    it.each([500, 502, 504])('answers %i outside the contract, marked', async (status) => {
      const id = await target().addFault({ method: 'POST', path: '/pets', status })
      const response = await call('POST', '/pets', { body: { name: 'Rex', categoryId: 1 } })
      expect(response.status).toBe(status)
      expect(response.headers.get('petstore-sim-fault')).toBe(id)
      // The pet was not created: the fault answered instead of the operation.
      expect((await call('GET', '/pets?limit=100')).body).toHaveLength(scenarioPetCount)
    })

    it('resets the connection without an answer', async () => {
      await target().addFault({ operation: 'listPets', fault: 'reset', times: 1 })
      await expect(target().fetch(`${target().apiUrl}/pets`, { headers: { authorization: `Bearer ${testKeys.pro}` } })).rejects.toThrow()
      expect((await call('GET', '/pets?limit=1')).status).toBe(200)
    })

    it('hangs until the client gives up', async () => {
      await target().addFault({ operation: 'getPet', fault: 'hang', hangMs: 60_000, times: 1 })
      const started = performance.now()
      const request = target().fetch(`${target().apiUrl}/pets/1`, {
        headers: { authorization: `Bearer ${testKeys.pro}` },
        signal: AbortSignal.timeout(300),
      })
      await expect(request).rejects.toThrow()
      expect(performance.now() - started).toBeGreaterThanOrEqual(250)
    })

    it('sends part of the body and drops the connection: the client never reads a whole body', async () => {
      await target().addFault({ operation: 'listPets', fault: 'truncate', times: 1 })
      // Over a network the headers arrive and the body breaks off; in-process msw fails the fetch itself.
      const read = target()
        .fetch(`${target().apiUrl}/pets?limit=10`, { headers: { authorization: `Bearer ${testKeys.pro}` } })
        .then(async (response) => {
          expect(response.status).toBe(200)
          return response.text()
        })
      await expect(read).rejects.toThrow()
      expect((await call('GET', '/pets?limit=1')).status).toBe(200)
    })

    it('sends an empty body', async () => {
      await target().addFault({ operation: 'getPet', fault: 'empty', times: 1 })
      const response = await target().fetch(`${target().apiUrl}/pets/1`, { headers: { authorization: `Bearer ${testKeys.pro}` } })
      expect(response.status).toBe(200)
      expect(await response.text()).toBe('')
    })

    it('delays the answer, then gives the real one', async () => {
      await target().addFault({ operation: 'listPets', delay: 200, times: 1 })
      const started = performance.now()
      const response = await call('GET', '/pets?limit=2')
      expect(performance.now() - started).toBeGreaterThanOrEqual(190)
      expect(response.status).toBe(200)
      expect(response.body).toHaveLength(2)
    })

    it('draws probabilities from the seed: the same sequence after every reset', async () => {
      const run = async () => {
        await target().addFault({ operation: 'listPets', status: 503, probability: 0.5 })
        const statuses: number[] = []
        for (let index = 0; index < 16; index++) statuses.push((await call('GET', '/pets?limit=1')).status)
        await target().reset()
        return statuses
      }
      const first = await run()
      const second = await run()
      expect(second).toEqual(first)
      expect(new Set(first)).toEqual(new Set([200, 503]))
    })

    it('matches a path written with a trailing slash, and a GET rule matches HEAD', async () => {
      const id = await target().addFault({ method: 'GET', path: '/pets/', status: 503 })
      expect((await call('GET', '/pets?limit=1')).headers.get('petstore-sim-fault')).toBe(id)
      const head = await call('HEAD', '/pets?limit=1')
      expect(head.status).toBe(503)
      expect(head.headers.get('petstore-sim-fault')).toBe(id)
    })

    it('acts after authentication and the limiter: a request without a key still gets its 401', async () => {
      await target().addFault({ operation: 'listPets', status: 503 })
      expectError(await call('GET', '/pets', { key: null }), 401, 'missing_api_key')
    })
  })
}
