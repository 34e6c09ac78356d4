import { beforeEach, describe, expect, it } from 'vitest'
import { generatePets } from '../../src/core/catalogue/seed-pets.ts'
import { scenarioPetCount, scenarioSeed, scenarioStart, testKeys, type ApiTarget } from '../support/api-target.ts'
import { checkedFetch } from '../support/checked-fetch.ts'
import { createClient, expectError, rateLimitHeaders, type ApiResponse } from './http-client.ts'

const seededPets = generatePets({ seed: scenarioSeed, count: scenarioPetCount })
const startMs = Date.parse(scenarioStart)
const nextMinute = Math.ceil(startMs / 60_000) * 60_000
const nextMidnight = Math.ceil(startMs / 86_400_000) * 86_400_000
const unix = (ms: number) => ms / 1000

/**
 * The HTTP scenarios of the Animal Store API. Every test states what a
 * client sees (status, headers, body); the same tests run against every
 * target of the matrix (`test/support/matrix.ts`).
 */
export function defineApiScenarios(target: () => ApiTarget): void {
  const call = createClient(target, testKeys.pro)
  beforeEach(() => target().reset())

  async function exhaust(key: string, count: number, path = '/pets?limit=1'): Promise<ApiResponse[]> {
    const responses: ApiResponse[] = []
    for (let index = 0; index < count; index++) responses.push(await call('GET', path, { key }))
    return responses
  }

  describe('authentication', () => {
    it.each([
      ['no Authorization header', null, {}, 'missing_api_key'],
      ['another scheme', null, { authorization: `Basic ${btoa('user:pass')}` }, 'missing_api_key'],
      ['an empty Bearer token', null, { authorization: 'Bearer ' }, 'missing_api_key'],
      ['the scheme alone', null, { authorization: 'Bearer' }, 'missing_api_key'],
      ['an unknown key', 'not-a-key', {}, 'invalid_api_key'],
      ['a known key with a character changed', `${testKeys.pro.slice(0, -1)}X`, {}, 'invalid_api_key'],
      ['a prefix of a known key', testKeys.pro.slice(0, 5), {}, 'invalid_api_key'],
      ['a known key with a suffix', `${testKeys.pro}x`, {}, 'invalid_api_key'],
    ] as const)('refuses %s with 401 and WWW-Authenticate: Bearer', async (_case, key, headers, code) => {
      for (const [method, path, body] of [
        ['GET', '/pets', undefined],
        ['POST', '/pets', { name: 'Rex', categoryId: 1 }],
        ['GET', '/pets/1', undefined],
      ] as const) {
        const response = await call(method, path, { key, headers, body })
        expectError(response, 401, code)
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="petstore-sim"/)
        rateLimitHeaders(response)
      }
    })

    it('says invalid_token in WWW-Authenticate for an unknown key (RFC 6750)', async () => {
      const response = await call('GET', '/pets', { key: 'not-a-key' })
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"')
    })

    it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])('accepts the scheme written %s', async (scheme) => {
      const response = await call('GET', '/pets', { headers: { authorization: `${scheme} ${testKeys.pro}` } })
      expect(response.status).toBe(200)
    })

    it('counts requests without a valid key in an anonymous bucket at Free limits', async () => {
      const responses = await exhaust('wrong-key', 61)
      expect(responses.slice(0, 60).map((response) => response.status)).toEqual(Array(60).fill(401))
      expect(rateLimitHeaders(responses[0]!)).toEqual({ limit: 60, remaining: 59, reset: unix(nextMinute) })
      expect(rateLimitHeaders(responses[59]!).remaining).toBe(0)
      expectError(responses[60]!, 429, 'rate_limit_exceeded')
      // A valid key is not affected by the anonymous bucket.
      expect((await call('GET', '/pets', { key: testKeys.free })).status).toBe(200)
    })
  })

  describe('plans and rate-limit headers', () => {
    it.each([
      ['free', testKeys.free, 60],
      ['pro', testKeys.pro, 300],
      ['business', testKeys.business, 1000],
      ['enterprise (custom 2000/50000)', testKeys.enterprise, 2000],
    ] as const)('reports the %s per-minute limit on the first request', async (_plan, key, perMinute) => {
      const response = await call('GET', '/pets', { key })
      expect(rateLimitHeaders(response)).toEqual({ limit: perMinute, remaining: perMinute - 1, reset: unix(nextMinute) })
    })

    it.each([
      ['free', testKeys.free, 60],
      ['pro', testKeys.pro, 300],
    ] as const)('refuses the request after the %s per-minute limit with 429', async (_plan, key, perMinute) => {
      const responses = await exhaust(key, perMinute + 1)
      expect(responses.filter((response) => response.status === 200)).toHaveLength(perMinute)
      const refused = responses.at(-1)!
      expectError(refused, 429, 'rate_limit_exceeded')
      expect(rateLimitHeaders(refused)).toEqual({ limit: perMinute, remaining: 0, reset: unix(nextMinute) })
      expect(refused.headers.get('retry-after')).toBe(String((nextMinute - startMs) / 1000))
    })

    it('counts down X-RateLimit-Remaining on every response, errors included', async () => {
      const statuses = []
      const remaining = []
      for (const [method, path] of [
        ['GET', '/pets'],
        ['GET', '/pets?limit=0'],
        ['GET', '/pets/999999'],
        ['GET', '/nope'],
        ['DELETE', '/pets'],
      ] as const) {
        const response = await call(method, path, { key: testKeys.free })
        statuses.push(response.status)
        remaining.push(rateLimitHeaders(response).remaining)
      }
      expect(statuses).toEqual([200, 400, 404, 404, 405])
      expect(remaining).toEqual([59, 58, 57, 56, 55])
    })

    it('opens a new minute window when the minute ends', async () => {
      await exhaust(testKeys.tiny, 4)
      await target().advanceClock(nextMinute - startMs)
      const response = await call('GET', '/pets', { key: testKeys.tiny })
      expect(response.status).toBe(200)
      // 2 left in the new minute, 1 left in the day (4 of 5 used): the day window is in force.
      expect(rateLimitHeaders(response)).toEqual({ limit: 5, remaining: 1, reset: unix(nextMidnight) })
    })

    it('enforces the day window across minutes, with Retry-After until UTC midnight', async () => {
      const statuses: number[] = []
      for (let minute = 0; minute < 3; minute++) {
        for (const response of await exhaust(testKeys.tiny, 3)) statuses.push(response.status)
        await target().advanceClock(60_000)
      }
      // 3 per minute, 5 per day: 3 + 2 allowed, then the day is used up.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429])
      const refused = await call('GET', '/pets', { key: testKeys.tiny })
      expectError(refused, 429, 'rate_limit_exceeded')
      expect(refused.body.message).toContain('per day')
      expect(rateLimitHeaders(refused)).toEqual({ limit: 5, remaining: 0, reset: unix(nextMidnight) })
      const nowMs = startMs + 3 * 60_000
      expect(refused.headers.get('retry-after')).toBe(String(Math.ceil((nextMidnight - nowMs) / 1000)))
      await target().setClock(new Date(nextMidnight).toISOString())
      expect((await call('GET', '/pets', { key: testKeys.tiny })).status).toBe(200)
    })

    it('reports the window with fewer requests left, the minute on a tie', async () => {
      // 5 per minute, 3 per day.
      const [first, second, third] = await exhaust(testKeys.tinyDay, 3)
      expect(rateLimitHeaders(first!)).toEqual({ limit: 3, remaining: 2, reset: unix(nextMidnight) })
      expect(rateLimitHeaders(second!)).toEqual({ limit: 3, remaining: 1, reset: unix(nextMidnight) })
      expect(rateLimitHeaders(third!)).toEqual({ limit: 3, remaining: 0, reset: unix(nextMidnight) })
      // 3 per minute, 5 per day: after 2 requests, 1 left in the minute and 3 in the day.
      const [tieBreak] = await exhaust(testKeys.tiny, 1)
      expect(rateLimitHeaders(tieBreak!)).toEqual({ limit: 3, remaining: 2, reset: unix(nextMinute) })
    })

    it('does not consume quota with refused requests', async () => {
      await exhaust(testKeys.tiny, 3)
      const refused = await exhaust(testKeys.tiny, 5)
      expect(refused.map((response) => response.status)).toEqual([429, 429, 429, 429, 429])
      await target().advanceClock(60_000)
      // 3 of the 5 daily requests were used; the 429s took nothing.
      const [next] = await exhaust(testKeys.tiny, 1)
      expect(rateLimitHeaders(next!)).toEqual({ limit: 5, remaining: 1, reset: unix(nextMidnight) })
    })

    it('bans a key that keeps calling after 429s, with its own code and Retry-After', async () => {
      await exhaust(testKeys.tiny, 3)
      const limited = await exhaust(testKeys.tiny, 10)
      expect(limited.map((response) => response.body.code)).toEqual(Array(10).fill('rate_limit_exceeded'))
      const banned = await call('GET', '/pets', { key: testKeys.tiny })
      expectError(banned, 429, 'api_key_banned')
      expect(banned.headers.get('retry-after')).toBe('600')
      expect(rateLimitHeaders(banned)).toEqual({ limit: 3, remaining: 0, reset: unix(startMs + 600_000) })
      // The ban outlasts the minute window, and retrying does not extend it.
      await target().advanceClock(5 * 60_000)
      const stillBanned = await call('GET', '/pets', { key: testKeys.tiny })
      expectError(stillBanned, 429, 'api_key_banned')
      expect(stillBanned.headers.get('retry-after')).toBe('300')
      await target().advanceClock(5 * 60_000)
      expect((await call('GET', '/pets', { key: testKeys.tiny })).status).toBe(200)
      // Other keys were never affected.
      expect((await call('GET', '/pets', { key: testKeys.free })).status).toBe(200)
    })
  })

  describe('listPets', () => {
    it('returns the first 20 pets by default, ascending by id', async () => {
      const response = await call('GET', '/pets')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(response.body).toEqual(seededPets.slice(0, 20))
    })

    it.each([1, 2, 20, 59, 60, 100])('returns at most limit=%i pets', async (limit) => {
      const response = await call('GET', `/pets?limit=${limit}`)
      expect(response.status).toBe(200)
      expect(response.body).toEqual(seededPets.slice(0, limit))
    })

    it.each(['available', 'pending', 'sold'] as const)('filters by status=%s', async (status) => {
      const response = await call('GET', `/pets?status=${status}&limit=100`)
      const expected = seededPets.filter((pet) => pet.status === status)
      expect(expected.length).toBeGreaterThan(0)
      expect(response.body).toEqual(expected)
    })

    it('combines status and limit', async () => {
      const response = await call('GET', '/pets?status=available&limit=3')
      expect(response.body).toEqual(seededPets.filter((pet) => pet.status === 'available').slice(0, 3))
    })

    it('ignores query parameters it does not know', async () => {
      const response = await call('GET', '/pets?limit=2&page=3')
      expect(response.body).toEqual(seededPets.slice(0, 2))
    })

    it.each(['0', '101', '-1', '1.5', 'abc', '', '01', '1e1', '+5', ' 5', '0x10', '99999999999999999999'])(
      'refuses limit=%j with 400 naming limit',
      async (limit) => {
        const response = await call('GET', `/pets?limit=${encodeURIComponent(limit)}`)
        expectError(response, 400, 'invalid_query_parameter')
        expect(response.body.message).toMatch(/^limit /)
      },
    )

    it.each(['Available', 'SOLD', 'unknown', '', 'available '])('refuses status=%j with 400 naming status', async (status) => {
      const response = await call('GET', `/pets?status=${encodeURIComponent(status)}`)
      expectError(response, 400, 'invalid_query_parameter')
      expect(response.body.message).toMatch(/^status /)
    })

    it.each(['limit=1&limit=2', 'status=sold&status=pending'])('refuses a repeated parameter: %s', async (query) => {
      expectError(await call('GET', `/pets?${query}`), 400, 'invalid_query_parameter')
    })
  })

  describe('createPet', () => {
    it('creates a pet with the next id, 201 and a Location', async () => {
      const response = await call('POST', '/pets', { body: { name: 'Biscuit', categoryId: 2, status: 'pending' } })
      expect(response.status).toBe(201)
      expect(response.body).toEqual({ id: scenarioPetCount + 1, name: 'Biscuit', categoryId: 2, status: 'pending' })
      expect(response.headers.get('location')).toBe(`${new URL(target().apiUrl).pathname}/pets/${scenarioPetCount + 1}`)
      rateLimitHeaders(response)
    })

    it('makes the pet visible at once to listPets and getPet', async () => {
      const created = (await call('POST', '/pets', { body: { name: 'Pip', categoryId: 3, status: 'sold' } })).body
      expect((await call('GET', `/pets/${created.id}`)).body).toEqual(created)
      const sold = (await call('GET', '/pets?status=sold&limit=100')).body
      expect(sold.at(-1)).toEqual(created)
    })

    it('defaults status to available', async () => {
      const response = await call('POST', '/pets', { body: { name: 'Rex', categoryId: 1 } })
      expect(response.body.status).toBe('available')
    })

    it('assigns unique, increasing ids', async () => {
      const ids = []
      for (let index = 0; index < 5; index++)
        ids.push((await call('POST', '/pets', { body: { name: `Pet ${index}`, categoryId: 1 } })).body.id)
      expect(ids).toEqual([61, 62, 63, 64, 65])
    })

    it('ignores a client-sent id and unknown fields', async () => {
      const response = await call('POST', '/pets', { body: { id: 7, name: 'Rex', categoryId: 1, colour: 'brown' } })
      expect(response.status).toBe(201)
      expect(response.body).toEqual({ id: scenarioPetCount + 1, name: 'Rex', categoryId: 1, status: 'available' })
      expect((await call('GET', '/pets/7')).body).toEqual(seededPets[6])
    })

    it('accepts a JSON content type with parameters, or a +json type', async () => {
      for (const contentType of ['application/json; charset=utf-8', 'application/vnd.animal+json']) {
        const response = await call('POST', '/pets', {
          body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
          headers: { 'content-type': contentType },
        })
        expect(response.status).toBe(201)
      }
    })

    it.each([
      ['no body', undefined, ['body']],
      ['an empty body', '', ['body']],
      ['malformed JSON', '{"name": "Rex",', ['JSON']],
      ['an array', '[{"name":"Rex","categoryId":1}]', ['array']],
      ['null', 'null', ['null']],
      ['a string', '"Rex"', ['string']],
      ['a number', '42', ['number']],
      ['an empty object', '{}', ['name: is required', 'categoryId: is required']],
      ['a missing name', '{"categoryId":1}', ['name: is required']],
      ['a missing categoryId', '{"name":"Rex"}', ['categoryId: is required']],
      ['a numeric name', '{"name":5,"categoryId":1}', ['name: must be a string']],
      ['an empty name', '{"name":"  ","categoryId":1}', ['name: must not be empty']],
      ['a name too long', JSON.stringify({ name: 'x'.repeat(256), categoryId: 1 }), ['name: must be at most 255']],
      ['a string categoryId', '{"name":"Rex","categoryId":"1"}', ['categoryId: must be an integer']],
      ['a fractional categoryId', '{"name":"Rex","categoryId":1.5}', ['categoryId: must be an integer']],
      ['a categoryId of 0', '{"name":"Rex","categoryId":0}', ['categoryId: must be at least 1']],
      ['an unsafe categoryId', '{"name":"Rex","categoryId":9007199254740993}', ['categoryId: is outside']],
      ['a huge categoryId', '{"name":"Rex","categoryId":1e400}', ['categoryId:']],
      ['a null status', '{"name":"Rex","categoryId":1,"status":null}', ['status: must be one of']],
      ['a status in the wrong case', '{"name":"Rex","categoryId":1,"status":"Sold"}', ['status: must be one of']],
      ['every field wrong', '{"name":null,"categoryId":"x","status":1}', ['name:', 'categoryId:', 'status:']],
    ] as const)('refuses %s with 400 invalid_body naming the problem', async (_case, body, mentions) => {
      const response = await call('POST', '/pets', {
        body,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      })
      expectError(response, 400, 'invalid_body')
      for (const mention of mentions) expect(response.body.message).toContain(mention)
      // Nothing was created.
      expect((await call('GET', '/pets?limit=100')).body).toHaveLength(scenarioPetCount)
    })

    it('reads a body sent without Content-Type as JSON', async () => {
      const response = await checkedFetch(
        `${target().apiUrl}/pets`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${testKeys.pro}` },
          body: new TextEncoder().encode('{"name":"Raw","categoryId":5}'),
        },
        new URL(target().apiUrl).pathname,
        target().fetch,
      )
      expect(response.status).toBe(201)
      expect((await response.json()).name).toBe('Raw')
    })

    it('refuses a body that is not JSON with 415', async () => {
      const response = await call('POST', '/pets', {
        body: 'name=Rex&categoryId=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      expectError(response, 415, 'unsupported_media_type')
    })
  })

  describe('getPet (deprecated)', () => {
    const deprecationHeaders = (response: ApiResponse) => ({
      deprecation: response.headers.get('deprecation'),
      sunset: response.headers.get('sunset'),
      link: response.headers.get('link'),
    })
    const expectedDeprecation = () => ({
      deprecation: '@1764892800',
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      link: `<${new URL(target().apiUrl).pathname}/pets>; rel="successor-version"`,
    })

    it('returns the pet with Deprecation, Sunset and a successor Link', async () => {
      const response = await call('GET', '/pets/5')
      expect(response.status).toBe(200)
      expect(response.body).toEqual(seededPets[4])
      expect(deprecationHeaders(response)).toEqual(expectedDeprecation())
      rateLimitHeaders(response)
    })

    it.each([
      ['an unknown id', '/pets/999999', 404, 'pet_not_found', testKeys.pro],
      ['id 0', '/pets/0', 404, 'pet_not_found', testKeys.pro],
      ['a negative id', '/pets/-3', 404, 'pet_not_found', testKeys.pro],
      ['a non-integer id', '/pets/abc', 400, 'invalid_path_parameter', testKeys.pro],
      ['a fractional id', '/pets/1.5', 400, 'invalid_path_parameter', testKeys.pro],
      ['an id past the safe-integer range', '/pets/9007199254740993', 400, 'invalid_path_parameter', testKeys.pro],
      ['no key', '/pets/1', 401, 'missing_api_key', null],
    ] as const)('answers %s with its Error, still with the deprecation headers', async (_case, path, status, code, key) => {
      const response = await call('GET', path, { key })
      expectError(response, status, code)
      expect(deprecationHeaders(response)).toEqual(expectedDeprecation())
    })

    it('is gone (410) from the removal date on, and not before', async () => {
      await target().setClock('2030-12-04T23:59:59.000Z')
      expect((await call('GET', '/pets/1')).status).toBe(200)
      await target().setClock('2030-12-05T00:00:00.000Z')
      const gone = await call('GET', '/pets/1')
      expectError(gone, 410, 'endpoint_removed')
      expect(deprecationHeaders(gone)).toEqual(expectedDeprecation())
      // Its successor still works.
      expect((await call('GET', '/pets?limit=1')).status).toBe(200)
    })
  })

  describe('HEAD on the GET operations', () => {
    it.each(['/pets?limit=3', '/pets/2'])(
      "answers HEAD %s with the GET's status and headers, no body, counted like the GET",
      async (path) => {
        const get = await call('GET', path)
        const head = await call('HEAD', path)
        expect(head.status).toBe(200)
        expect(head.body).toBe('')
        expect(head.headers.get('content-type')).toBe('application/json')
        // The length of the body a GET would have sent (the simulator's JSON has no white space).
        expect(head.headers.get('content-length')).toBe(String(new TextEncoder().encode(JSON.stringify(get.body)).byteLength))
        expect(rateLimitHeaders(head).remaining).toBe(rateLimitHeaders(get).remaining - 1)
        expect(head.headers.get('deprecation')).toBe(get.headers.get('deprecation'))
      },
    )

    it("lists HEAD in a 405's Allow", async () => {
      expect((await call('DELETE', '/pets/1')).headers.get('allow')).toBe('GET, HEAD')
    })
  })

  describe('only the real base path is the API', () => {
    it.each(['/foo/bar/v1/pets', '/__sim/v1/pets', '//evil.com/v1/pets', '/x/v1/pets/1'])(
      'answers %s with a 404 outside the API',
      async (path) => {
        const origin = new URL(target().apiUrl).origin
        // Under /__sim with an admin token (the container target's), the control plane asks for the token before it
        // says whether a route exists: sent with it, the answer is the same 404.
        const token = path.startsWith('/__sim/') ? (target().adminToken ?? testKeys.pro) : testKeys.pro
        const response = await target().fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } })
        expect(response.status).toBe(404)
        const body = await response.json()
        expect(body).toMatchObject({ code: 'route_not_found', status: 404 })
        // Outside the API: not counted, no rate-limit headers.
        expect(response.headers.get('x-ratelimit-remaining')).toBeNull()
      },
    )
  })

  describe('strict request bodies', () => {
    const post = (body: BodyInit, headers: Record<string, string>) =>
      target().fetch(`${target().apiUrl}/pets`, { method: 'POST', headers: { authorization: `Bearer ${testKeys.pro}`, ...headers }, body })

    it('refuses bytes that are not UTF-8 with 400 naming the body, and stores nothing', async () => {
      const bytes = new Uint8Array([...new TextEncoder().encode('{"name":"caf'), 0xe9, ...new TextEncoder().encode('","categoryId":1}')])
      const response = await post(bytes, { 'content-type': 'application/json' })
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body).toMatchObject({ code: 'invalid_body', status: 400 })
      expect(body.message).toContain('UTF-8')
      expect((await call('GET', '/pets?limit=100')).body).toHaveLength(scenarioPetCount)
    })

    it.each(['latin1', 'ISO-8859-1', 'utf-16'])('refuses charset=%s with 415', async (charset) => {
      const response = await post('{"name":"caf\u00e9","categoryId":1}', { 'content-type': `application/json; charset=${charset}` })
      expect(response.status).toBe(415)
      expect(await response.json()).toMatchObject({ code: 'unsupported_media_type', status: 415 })
    })

    it.each(['utf-8', 'UTF-8', '"utf-8"', 'utf8'])('accepts charset=%s', async (charset) => {
      const response = await post('{"name":"Caf\u00e9","categoryId":1}', { 'content-type': `application/json; charset=${charset}` })
      expect(response.status).toBe(201)
      expect((await response.json()).name).toBe('Café')
    })

    it.each(['gzip', 'br', 'deflate'])('refuses Content-Encoding: %s with 415 and Accept-Encoding: identity', async (coding) => {
      const response = await post('{"name":"Rex","categoryId":1}', { 'content-type': 'application/json', 'content-encoding': coding })
      expect(response.status).toBe(415)
      expect(response.headers.get('accept-encoding')).toBe('identity')
      expect(await response.json()).toMatchObject({ code: 'unsupported_content_encoding', status: 415 })
    })

    it.each([
      ['a NUL', 'Rex\u0000'],
      ['a tab', 'Rex\tthe dog'],
      ['a C1 control', '\u0085Rex'],
      ['DEL', 'Rex\u007f'],
    ])('refuses a name with %s', async (_case, name) => {
      const response = await call('POST', '/pets', { body: { name, categoryId: 1 } })
      expectError(response, 400, 'invalid_body')
      expect(response.body.message).toContain('control characters')
    })
  })

  describe('routing and the Error body', () => {
    it.each([
      ['GET', '/nope', 404, 'route_not_found', null],
      ['GET', '', 404, 'route_not_found', null],
      ['GET', '/pets/1/toys', 404, 'route_not_found', null],
      ['DELETE', '/pets', 405, 'method_not_allowed', 'GET, HEAD, POST'],
      ['PUT', '/pets', 405, 'method_not_allowed', 'GET, HEAD, POST'],
      ['DELETE', '/pets/1', 405, 'method_not_allowed', 'GET, HEAD'],
      ['POST', '/pets/1', 405, 'method_not_allowed', 'GET, HEAD'],
      ['POST', '/store/orders', 405, 'method_not_allowed', 'GET, HEAD'],
      ['GET', '/store/orders', 501, 'not_implemented', null],
    ] as const)('%s %s -> %i %s', async (method, path, status, code, allow) => {
      const response = await call(method, path)
      expectError(response, status, code)
      expect(response.headers.get('allow')).toBe(allow)
      rateLimitHeaders(response)
    })

    it('authenticates before routing: an unknown path without a key is a 401', async () => {
      expectError(await call('GET', '/nope', { key: null }), 401, 'missing_api_key')
      expectError(await call('DELETE', '/pets', { key: 'not-a-key' }), 401, 'invalid_api_key')
    })

    it('says in the 501 that the spec never specified GET /store/orders', async () => {
      const response = await call('GET', '/store/orders')
      expect(response.body.message).toContain('never specified')
    })
  })
}
