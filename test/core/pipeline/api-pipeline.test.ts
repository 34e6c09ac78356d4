// The API pipeline's promises, one step at a time, on the portable app with a manual clock: the order of its steps
// (authentication, ban, limiter, route, answer), each Error it can send with its status and headers, and the answers
// `Prefer: code=` forces for every documented status of every operation, counting nothing.
import { describe, expect, it } from 'vitest'
import { createApp } from '../../../src/app/app.ts'
import { apiRoutes } from '../../../src/core/operations/api-routes.ts'
import { errorCatalogue } from '../../../src/core/http/error-catalogue.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'

// 30 s into a minute: a minute window resets in 30 s, the day window at the next UTC midnight.
const start = '2030-06-15T10:00:30.000Z'
const minuteEnd = Date.parse('2030-06-15T10:01:00.000Z') / 1000

function setUp(options: Parameters<typeof createApp>[0] = {}) {
  const clock = createManualClock(start)
  const app = createApp({ clock, ...options })
  const send = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const response = await app.fetch(new Request(`http://localhost${path}`, { method, headers, body }), { clientAddress: '127.0.0.1' })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) }
  }
  return { app, clock, send }
}

const pro = { authorization: 'Bearer demo-pro-key' }
const json = { 'content-type': 'application/json' }

describe('the pipeline, step by step', () => {
  it('authenticates before it routes: no key is a 401 on an unknown path too', async () => {
    const { send } = setUp()
    const anonymous = await send('GET', '/v1/nothing')
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({
      code: 'missing_api_key',
      message: 'The Authorization header is missing: send "Authorization: Bearer <API key>"',
      status: 401,
    })
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="petstore-sim"')
    const wrong = await send('GET', '/v1/pets', { authorization: 'Bearer not-a-key' })
    expect(wrong.status).toBe(401)
    expect(wrong.body.code).toBe('invalid_api_key')
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"')
    const routed = await send('GET', '/v1/nothing', pro)
    expect(routed.status).toBe(404)
    expect(routed.body).toEqual({ code: 'route_not_found', message: 'No route GET /v1/nothing', status: 404 })
  })

  it('answers 405 with Allow for a known path and another method, counting the request', async () => {
    const { send } = setUp()
    const response = await send('DELETE', '/v1/pets', pro)
    expect(response.status).toBe(405)
    expect(response.body.code).toBe('method_not_allowed')
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST')
    expect(response.headers.get('x-ratelimit-remaining')).toBe('299')
    expect((await send('PUT', '/v1/pets/1', pro)).headers.get('allow')).toBe('GET, HEAD')
  })

  it('puts the rate-limit headers on every answer: success, client error and 404', async () => {
    const { send } = setUp()
    const answers = [
      await send('GET', '/v1/pets?limit=1', pro),
      await send('GET', '/v1/pets?limit=0', pro),
      await send('GET', '/v1/pets/999999', pro),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 404])
    answers.forEach((answer, index) => {
      expect(answer.headers.get('x-ratelimit-limit')).toBe('300')
      expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(299 - index))
      expect(answer.headers.get('x-ratelimit-reset')).toBe(String(minuteEnd))
    })
  })

  it('limits after authentication and before routing: a call past the minute is a 429 with exact Retry-After', async () => {
    const { send, clock } = setUp({ keys: { 'tiny-key': 'enterprise:2/100' } })
    const tiny = { authorization: 'Bearer tiny-key' }
    expect((await send('GET', '/v1/pets', tiny)).status).toBe(200)
    expect((await send('GET', '/v1/nothing', tiny)).status).toBe(404)
    clock.advance(12_500)
    const limited = await send('GET', '/v1/nothing', tiny)
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({
      code: 'rate_limit_exceeded',
      message: expect.stringContaining('minute'),
      status: 429,
    })
    // 17.5 s left in the minute: Retry-After rounds up to whole seconds.
    expect(limited.headers.get('retry-after')).toBe('18')
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(minuteEnd))
  })

  it('bans a caller that keeps going after 429s, before the limiter counts, with the ban in Retry-After', async () => {
    const { send } = setUp({ keys: { 'tiny-key': 'enterprise:1/100' }, ban: { after: 2, durationMs: 120_000 } })
    const tiny = { authorization: 'Bearer tiny-key' }
    expect((await send('GET', '/v1/pets', tiny)).status).toBe(200)
    const statuses: string[] = []
    for (let index = 0; index < 4; index++) {
      const answer = await send('GET', '/v1/pets', tiny)
      statuses.push(`${answer.status} ${answer.body.code}`)
    }
    expect(statuses).toEqual(['429 rate_limit_exceeded', '429 rate_limit_exceeded', '429 api_key_banned', '429 api_key_banned'])
    const banned = await send('GET', '/v1/pets', tiny)
    expect(banned.headers.get('retry-after')).toBe('120')
  })
})

describe('Prefer: code= forces an operation’s documented answers, counting nothing', () => {
  const requests: Record<string, { method: string; path: string; body?: string }> = {
    listPets: { method: 'GET', path: '/v1/pets' },
    createPet: { method: 'POST', path: '/v1/pets', body: '{"name":"Rex","categoryId":1}' },
    getPet: { method: 'GET', path: '/v1/pets/1' },
    listOrders: { method: 'GET', path: '/v1/store/orders' },
  }
  const cases = apiRoutes.flatMap((route) => route.statuses.map((status) => [route.operation, status] as const))

  it.each(cases)('%s answers %i when asked, marked Preference-Applied', async (operation, status) => {
    const { send } = setUp()
    const { method, path, body } = requests[operation]!
    const answer = await send(method, path, { ...pro, ...(body === undefined ? {} : json), prefer: `code=${status}` }, body)
    expect(answer.status).toBe(status)
    expect(answer.headers.get('preference-applied')).toBe(`code=${status}`)
    expect(answer.headers.get('x-ratelimit-limit')).toBe('300')
    if (status >= 400) {
      expect(answer.body.status).toBe(status)
      expect(errorCatalogue[answer.body.code as keyof typeof errorCatalogue].status).toBe(status)
    }
    if (status === 429) {
      // The time left in the caller's minute, exactly: 30 s at the start of these tests.
      expect(answer.headers.get('retry-after')).toBe('30')
      expect(answer.headers.get('x-ratelimit-remaining')).toBe('0')
    }
    if (status === 401) expect(answer.headers.get('www-authenticate')).toContain('Bearer')
    // Nothing was counted: the next real request still has all but one of the minute.
    const next = await send('GET', '/v1/pets?limit=1', pro)
    expect(next.headers.get('x-ratelimit-remaining')).toBe('299')
  })

  it('refuses a status the operation does not document with 400 invalid_prefer, listing the ones it does', async () => {
    const { send } = setUp()
    for (const prefer of ['code=418', 'code=abc', 'code=5000', 'respond-async, code="503"']) {
      const answer = await send('GET', '/v1/pets', { ...pro, prefer })
      expect(answer.status, prefer).toBe(400)
      expect(answer.body.code).toBe('invalid_prefer')
      expect(answer.body.message).toMatch(/^Prefer: code=.*: listPets cannot be made to answer it; it answers 200, 400, 401, 429; /)
    }
    // Issue 37: a 5xx is a fault rule's, and the 400 says how to get one.
    expect((await send('GET', '/v1/pets', { ...pro, prefer: 'code=503' })).body.message).toBe(
      'Prefer: code=503: listPets cannot be made to answer it; it answers 200, 400, 401, 429; a 503 comes from a fault rule: ' +
        `--fault "listPets 503 times=1", POST /__sim/faults {"operation":"listPets","status":503,"times":1} or simulator.faults.add({ operation: 'listPets', status: 503, times: 1 })`,
    )
    expect((await send('GET', '/v1/pets', { ...pro, prefer: 'code=418' })).body.message).toMatch(
      /; 500, 502, 503, 504, delays and broken connections come from fault rules \(--fault, POST \/__sim\/faults, simulator\.faults\.add\)$/,
    )
    expect((await send('GET', '/v1/pets', { ...pro, prefer: 'code=abc' })).body.message).toContain('that is not an HTTP status')
  })

  it('ignores Prefer when the simulator is told to (prefer: false)', async () => {
    const { send } = setUp({ prefer: false })
    const answer = await send('GET', '/v1/pets/1', { ...pro, prefer: 'code=404' })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('preference-applied')).toBeNull()
  })

  it('still authenticates first: a forced answer needs a key', async () => {
    const { send } = setUp()
    const answer = await send('GET', '/v1/pets', { prefer: 'code=200' })
    expect(answer.status).toBe(401)
    expect(answer.headers.get('preference-applied')).toBeNull()
  })
})
