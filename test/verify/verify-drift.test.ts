import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import type { CheckResult, VerifyReport } from '../../src/verify/verify-report.ts'
import { verify, type VerifyOptions } from '../../src/verify/verify-runner.ts'

/**
 * `verify` catches drift: each case runs it against the simulator (app.fetch, a manual clock) with one thing of the
 * spec broken on the way back, and names the check that must fail, with what it expected and what it got. Every
 * other check still passes: a check that fails for the wrong reason, or a drift that fails nothing, shows here.
 */
const start = '2030-06-15T10:00:30.000Z'
const key = 'drift-key'

interface Sent {
  readonly method: string
  readonly url: URL
  readonly auth: string | null
}

/** A response of the simulator, changed; `undefined` leaves it as it is. */
type Drift = (sent: Sent, response: Response) => Promise<Response | undefined> | Response | undefined

async function run(drift: Drift, extra: Partial<VerifyOptions> = {}): Promise<VerifyReport> {
  const clock = createManualClock(start)
  const app = createApp({ seed: 11, pets: 40, keys: { [key]: 'free' }, clock })
  return verify({
    baseUrl: 'http://api.test/v1',
    key,
    clock,
    sleep: async (milliseconds) => clock.advance(milliseconds),
    fetch: async (input, init) => {
      const request = new Request(input, init)
      const sent = { method: request.method, url: new URL(request.url), auth: request.headers.get('authorization') }
      const response = await app.fetch(request, { clientAddress: '127.0.0.1' })
      return (await drift(sent, response.clone())) ?? response
    },
    ...extra,
  })
}

/** The response with another status, headers changed (null removes one) and the JSON body changed. */
async function changed(
  response: Response,
  change: { status?: number; headers?: Record<string, string | null>; json?: (body: unknown) => unknown; text?: string },
): Promise<Response> {
  const headers = new Headers(response.headers)
  for (const [name, value] of Object.entries(change.headers ?? {})) {
    if (value === null) headers.delete(name)
    else headers.set(name, value)
  }
  let body = await response.text()
  if (change.json !== undefined) body = JSON.stringify(change.json(JSON.parse(body)))
  if (change.text !== undefined) body = change.text
  // Bytes, not a string: a string body would bring a Content-Type of its own.
  return new Response(new TextEncoder().encode(body), { status: change.status ?? response.status, headers })
}

const isList = (sent: Sent) => sent.method === 'GET' && sent.url.pathname === '/v1/pets'
const limitOf = (sent: Sent) => sent.url.searchParams.get('limit')
const pets = (body: unknown) => body as Array<Record<string, unknown>>

function failures(report: VerifyReport): Record<string, Pick<CheckResult, 'expected' | 'actual'>> {
  return Object.fromEntries(
    report.checks
      .filter((check) => check.outcome === 'fail')
      .map((check) => [check.id, { expected: check.expected, actual: check.actual }]),
  )
}

describe('verify fails the check a drift breaks, and only that one', () => {
  it('passes the simulator as it is, with --writes and --limits', async () => {
    const report = await run(() => undefined, { writes: true, limits: true, strict: true })
    expect(failures(report)).toEqual({})
    expect(report.checks.every((check) => check.outcome === 'pass')).toBe(true)
  })

  it('auth: a request without a key answered 200', async () => {
    const report = await run(async (sent, response) =>
      sent.auth === null && isList(sent)
        ? changed(response, { status: 200, text: '[]', headers: { 'content-type': 'application/json' } })
        : undefined,
    )
    expect(failures(report)).toEqual({
      'auth.missing-key': { expected: 'status 401', actual: 'status 200' },
      'errors.body-401': { expected: 'status 401', actual: 'status 200' },
    })
  })

  it('auth: an unknown key answered 403', async () => {
    const report = await run((sent, response) =>
      sent.auth?.includes('no-such-key')
        ? changed(response, { status: 403, json: (body) => ({ ...(body as object), status: 403 }) })
        : undefined,
    )
    expect(failures(report)).toEqual({
      'auth.invalid-key': { expected: 'status 401', actual: 'status 403' },
      'errors.body-401': { expected: 'status 401', actual: 'status 403' },
    })
  })

  it('auth: getPet open without a key', async () => {
    const report = await run((sent, response) =>
      sent.auth === null && sent.url.pathname === '/v1/pets/1'
        ? changed(response, { status: 404, json: (body) => ({ ...(body as object), status: 404 }) })
        : undefined,
    )
    expect(failures(report)).toEqual({
      'auth.every-operation': { expected: 'status 401', actual: 'status 404' },
      'errors.body-401': { expected: 'status 401', actual: 'status 404' },
    })
  })

  it.each([
    [
      'a status field other than the HTTP status',
      { json: (body: unknown) => ({ ...(body as object), status: 400 }) },
      '"status": 401 (the HTTP status)',
      '"status": 400',
    ],
    [
      'no status field',
      { json: (body: unknown) => ({ ...(body as object), status: undefined }) },
      '"status": 401 (the HTTP status)',
      '"status": missing',
    ],
    ['a text/plain body', { headers: { 'content-type': 'text/plain' } }, 'Content-Type: application/json', 'Content-Type: text/plain'],
    ['no Content-Type', { headers: { 'content-type': null }, text: '' }, 'Content-Type: application/json', 'no Content-Type'],
    ['an array', { json: () => [] }, 'an Error object {code, message, status}', '[]'],
    ['null', { json: () => null }, 'an Error object {code, message, status}', 'null'],
    ['a body that is not JSON', { text: 'Unauthorized' }, 'an Error object {code, message, status}', 'a body that is not JSON (12 bytes)'],
    ['a number code', { json: (body: unknown) => ({ ...(body as object), code: 401 }) }, 'a string "code"', 'code 401'],
    ['no message', { json: (body: unknown) => ({ ...(body as object), message: undefined }) }, 'a string "message"', 'message missing'],
  ])('errors: a 401 with %s', async (_what, change, expected, actual) => {
    const report = await run((_sent, response) => (response.status === 401 ? changed(response, change) : undefined))
    const failed = failures(report)
    expect(failed['errors.body-401']).toEqual({ expected, actual })
    // The status checks need only a JSON object with a string code and message: a wrong "status" field fails errors.* alone.
    const statusOnly = expected.startsWith('"status"')
    // A wrong media type fails errors.media-type too (issue 29: the spec's Error body is application/json).
    const mediaType = expected.startsWith('Content-Type')
    expect(Object.keys(failed).sort()).toEqual(
      statusOnly
        ? ['errors.body-401']
        : ['auth.every-operation', 'auth.invalid-key', 'auth.missing-key', 'errors.body-401', ...(mediaType ? ['errors.media-type'] : [])],
    )
  })

  it.each([
    ['a status that is not a PetStatus', { status: 'lost' }, 'item 0: status one of available, pending, sold', 'status "lost"'],
    ['a string id', { id: '7' }, 'item 0: an integer id', 'id "7"'],
    ['a fractional categoryId', { categoryId: 1.5 }, 'item 0: an integer categoryId', 'categoryId 1.5'],
    ['a number name', { name: 7 }, 'item 0: a string name', 'name 7'],
  ])('listPets: the first pet with %s', async (_what, fields, expected, actual) => {
    const report = await run((sent, response) =>
      isList(sent) && limitOf(sent) === null && response.status === 200
        ? changed(response, { json: (body) => pets(body).map((pet, index) => (index === 0 ? { ...pet, ...fields } : pet)) })
        : undefined,
    )
    expect(failures(report)).toMatchObject({ 'listPets.items': { expected, actual } })
  })

  it('listPets: an object in place of the list', async () => {
    const report = await run((sent, response) =>
      isList(sent) && limitOf(sent) === null ? changed(response, { json: (body) => ({ pets: body }) }) : undefined,
    )
    expect(failures(report)['listPets.items']).toMatchObject({ expected: 'a JSON array of pets' })
    expect(failures(report)['listPets.items']?.actual).toMatch(/^\{"pets":\[\{.{70}…$/)
  })

  it('listPets: a pet that is not an object', async () => {
    const report = await run((sent, response) =>
      isList(sent) && limitOf(sent) === null ? changed(response, { json: (body) => [null, ...pets(body).slice(1)] }) : undefined,
    )
    expect(failures(report)['listPets.items']).toEqual({ expected: 'item 0: a Pet object', actual: 'null' })
  })

  it('limit: 19 pets by default', async () => {
    const report = await run((sent, response) =>
      isList(sent) && limitOf(sent) === null && response.status === 200
        ? changed(response, { json: (body) => pets(body).slice(0, 19) })
        : undefined,
    )
    expect(failures(report)).toEqual({ 'limit.default': { expected: '20 pets (limit 20; limit=21 listed 21)', actual: '19 pets' } })
  })

  it('limit: 4 pets for limit=3', async () => {
    const report = await run((sent, response) =>
      isList(sent) && limitOf(sent) === '3'
        ? changed(response, { json: (body) => [...pets(body), { ...pets(body)[0]!, id: 999 }] })
        : undefined,
    )
    expect(failures(report)).toEqual({ 'limit.honoured': { expected: '3 pets for limit=3', actual: '4 pets' } })
  })

  it('limit: no pet for limit=1, the minimum', async () => {
    const report = await run((sent, response) =>
      isList(sent) && limitOf(sent) === '1' && sent.auth !== null ? changed(response, { json: () => [] }) : undefined,
    )
    expect(failures(report)['limit.minimum']).toEqual({ expected: '1 pet for limit=1', actual: '0 pets' })
  })

  it.each([
    ['20, fewer than limit=21 listed', 20, 'from 21 to 100 pets for limit=100', '20 pets'],
    ['101, more than the maximum', 101, 'from 21 to 100 pets for limit=100', '101 pets'],
  ])('limit: %s for limit=100', async (_what, count, expected, actual) => {
    const report = await run((sent, response) =>
      isList(sent) && limitOf(sent) === '100' && !sent.url.searchParams.has('status')
        ? changed(response, { json: (body) => Array.from({ length: count }, (_, index) => ({ ...pets(body)[0]!, id: index + 1 })) })
        : undefined,
    )
    expect(failures(report)['limit.maximum']).toEqual({ expected, actual })
  })

  it.each(['0', '101'])('limit: limit=%s accepted', async (limit) => {
    const report = await run(async (sent, response) =>
      isList(sent) && limitOf(sent) === limit ? changed(response, { status: 200, json: () => [] }) : undefined,
    )
    expect(failures(report)).toEqual({ 'limit.out-of-range': { expected: 'status 400', actual: 'status 200' } })
  })

  it('listPets: status=sold lists an available pet', async () => {
    const report = await run((sent, response) =>
      isList(sent) && sent.url.searchParams.get('status') === 'sold'
        ? changed(response, { json: (body) => [...pets(body), { id: 4242, name: 'Rex', categoryId: 1, status: 'available' }] })
        : undefined,
    )
    expect(failures(report)).toEqual({
      'listPets.status-filter': { expected: 'only pets with status sold', actual: 'pet 4242 with status "available"' },
    })
  })

  it('listPets: an unknown status ignored', async () => {
    const report = await run((sent, response) =>
      isList(sent) && sent.url.searchParams.get('status') === 'no-such-status'
        ? changed(response, { status: 200, json: () => [] })
        : undefined,
    )
    expect(failures(report)).toEqual({ 'listPets.status-invalid': { expected: 'status 400', actual: 'status 200' } })
  })

  it('getPet: an absent id answered 400', async () => {
    const report = await run((sent, response) =>
      sent.url.pathname === `/v1/pets/${Number.MAX_SAFE_INTEGER}`
        ? changed(response, { status: 400, json: (body) => ({ ...(body as object), status: 400 }) })
        : undefined,
    )
    expect(failures(report)).toEqual({
      'getPet.not-found': { expected: 'status 404', actual: 'status 400' },
      'errors.body-404': { expected: 'status 404', actual: 'status 400' },
    })
  })

  it('getPet: a 404 whose status field says 400', async () => {
    const report = await run((_sent, response) =>
      response.status === 404 ? changed(response, { json: (body) => ({ ...(body as object), status: 400 }) }) : undefined,
    )
    expect(failures(report)).toEqual({ 'errors.body-404': { expected: '"status": 404 (the HTTP status)', actual: '"status": 400' } })
  })

  /** The getPet answer of a listed pet (the one the checks fetch). */
  const isFetch = (sent: Sent) => sent.method === 'GET' && /^\/v1\/pets\/\d{1,6}$/.test(sent.url.pathname)

  it('getPet: another name than the list gave', async () => {
    const report = await run((sent, response) =>
      isFetch(sent) && sent.auth !== null
        ? changed(response, { json: (body) => ({ ...(body as object), name: 'Someone else' }) })
        : undefined,
    )
    const found = failures(report)['getPet.found']!
    expect(Object.keys(failures(report))).toEqual(['getPet.found'])
    expect(found.expected).toMatch(/^the listed pet \{"id":\d+,/)
    expect(found.actual).toContain('"name":"Someone else"')
  })

  it('getPet: the same pet with its fields in another order passes', async () => {
    const report = await run((sent, response) =>
      isFetch(sent) && sent.auth !== null
        ? changed(response, { json: (body) => Object.fromEntries(Object.entries(body as object).reverse()) })
        : undefined,
    )
    expect(failures(report)).toEqual({})
  })

  it('getPet: no pet listed to fetch skips the checks that need one, saying why', async () => {
    const report = await run((sent, response) =>
      isList(sent) && limitOf(sent) === '1' && sent.auth !== null ? changed(response, { status: 503, json: () => ({}) }) : undefined,
    )
    for (const id of ['getPet.found', 'getPet.deprecation', 'getPet.deprecation-format']) {
      expect(report.checks.find((check) => check.id === id)).toMatchObject({
        outcome: 'skip',
        reason: 'GET /pets?limit=1 listed no pet to fetch (status 503)',
      })
    }
  })

  it.each([
    // Issue 29: the spec names no header, so their forms are the advisory getPet.deprecation-format; what it states (the
    // removal date, the replacement) is the hard getPet.deprecation.
    ['no Deprecation', { deprecation: null }, 'getPet.deprecation-format', 'a Deprecation header', 'no Deprecation header'],
    [
      'another Sunset',
      { sunset: 'Wed, 31 Dec 2031 23:59:59 GMT' },
      'getPet.deprecation',
      'Sunset on Thu, 05 Dec 2030 (the removal date)',
      'Sunset: Wed, 31 Dec 2031 23:59:59 GMT',
    ],
    [
      'a Link to another successor',
      { link: '</v1/orders>; rel="successor-version"' },
      'getPet.deprecation-format',
      'Link: <…/pets>; rel="successor-version"',
      'Link: </v1/orders>; rel="successor-version"',
    ],
    [
      'a Deprecation that is not a date',
      { deprecation: 'true' },
      'getPet.deprecation-format',
      'Deprecation: @<unix seconds> (RFC 9745)',
      'Deprecation: true',
    ],
    [
      'a Link without its relation',
      { link: '</v1/pets>' },
      'getPet.deprecation-format',
      'Link: <…/pets>; rel="successor-version"',
      'Link: </v1/pets>',
    ],
  ])('getPet: %s', async (_what, headers, id, expected, actual) => {
    const report = await run((sent, response) => (isFetch(sent) && sent.auth !== null ? changed(response, { headers }) : undefined))
    const failed = failures(report)
    expect(failed[id]?.expected?.startsWith(expected)).toBe(true)
    expect(failed[id]?.actual).toBe(actual)
  })

  it('getPet: no Sunset passes (the spec names no header; a Sunset sent must name the removal date)', async () => {
    const report = await run((sent, response) =>
      isFetch(sent) && sent.auth !== null ? changed(response, { headers: { sunset: null } }) : undefined,
    )
    expect(failures(report)).toEqual({})
  })

  it('getPet: the Sunset of the spec passes in any HTTP-date spelling Date.parse reads', async () => {
    const report = await run(async (sent, response) => {
      if (!(isFetch(sent) && sent.auth !== null)) return undefined
      const sunset = new Date(Date.parse(response.headers.get('sunset')!)).toISOString()
      return changed(response, { headers: { sunset } })
    })
    expect(failures(report)).toEqual({})
  })
})

describe('verify --writes fails the check a drift breaks', () => {
  const isCreate = (sent: Sent) => sent.method === 'POST' && sent.url.pathname === '/v1/pets'

  it('createPet: 200 in place of 201', async () => {
    const report = await run(
      (sent, response) => (isCreate(sent) && response.status === 201 ? changed(response, { status: 200 }) : undefined),
      {
        writes: true,
      },
    )
    // The long-name create (issue 36) gets its 200 too.
    expect(failures(report)).toEqual({
      'createPet.created': { expected: 'status 201', actual: 'status 200' },
      'createPet.long-name': { expected: 'status 201', actual: 'status 200' },
      'createPet.long-name-accepted': { expected: 'status 201', actual: 'status 200' },
    })
    for (const id of ['createPet.default-status', 'createPet.location', 'createPet.fetchable', 'createPet.listed']) {
      expect(report.checks.find((check) => check.id === id)).toMatchObject({
        outcome: 'skip',
        reason: 'createPet did not answer 201 with a pet',
      })
    }
  })

  it.each([
    ['another name than sent', { name: 'Renamed' }, 'createPet.created'],
    ['another categoryId than sent', { categoryId: 2 }, 'createPet.created'],
    ['status pending, not the default', { status: 'pending' }, 'createPet.default-status'],
  ])('createPet: %s', async (_what, fields, id) => {
    const report = await run(
      (sent, response) =>
        isCreate(sent) && response.status === 201 ? changed(response, { json: (body) => ({ ...(body as object), ...fields }) }) : undefined,
      { writes: true },
    )
    expect(Object.keys(failures(report))).toContain(id)
  })

  // Issue 36: a provider that cuts long names; a short name comes back whole, so only the long-name check sees it.
  it('createPet: a name cut to 100 characters', async () => {
    const report = await run(
      (sent, response) =>
        isCreate(sent) && response.status === 201
          ? changed(response, { json: (body) => ({ ...(body as object), name: (body as { name: string }).name.slice(0, 100) }) })
          : undefined,
      { writes: true },
    )
    expect(failures(report)).toEqual({
      'createPet.long-name': { expected: 'the name as sent, all 255 characters', actual: 'the name cut to its first 100 characters' },
    })
  })

  it('createPet: the messages of a renamed pet and of a status that is not the default', async () => {
    const renamed = await run(
      (sent, response) =>
        isCreate(sent) && response.status === 201
          ? changed(response, { json: (body) => ({ ...(body as object), categoryId: 2 }) })
          : undefined,
      { writes: true },
    )
    // The categoryId sent is a listed pet's (issue 29), whatever the seed gave it.
    expect(failures(renamed)).toEqual({
      'createPet.created': { expected: expect.stringMatching(/^categoryId \d+, as sent$/), actual: 'categoryId 2' },
    })
    const pending = await run(
      (sent, response) =>
        isCreate(sent) && response.status === 201
          ? changed(response, { json: (body) => ({ ...(body as object), status: 'pending' }) })
          : undefined,
      { writes: true },
    )
    expect(failures(pending)['createPet.default-status']).toEqual({ expected: 'status "available"', actual: 'status "pending"' })
  })

  it.each([
    ['no Location', null, 'no Location header'],
    ['a Location to another pet', '/v1/pets/999999', 'Location: /v1/pets/999999'],
    ['a Location outside the base path', '/pets/41', 'Location: /pets/41'],
  ])('createPet: %s', async (_what, location, actual) => {
    const report = await run(
      (sent, response) => (isCreate(sent) && response.status === 201 ? changed(response, { headers: { location } }) : undefined),
      { writes: true },
    )
    expect(failures(report)['createPet.location']?.actual).toBe(actual)
    expect(Object.keys(failures(report))).toEqual(['createPet.location'])
  })

  it('createPet: an absolute Location of the target passes', async () => {
    const report = await run(
      (sent, response) =>
        isCreate(sent) && response.status === 201
          ? changed(response, { headers: { location: `http://api.test${response.headers.get('location')}` } })
          : undefined,
      { writes: true },
    )
    expect(failures(report)).toEqual({})
  })

  it('createPet: the new pet not found, and not listed', async () => {
    let created: string | undefined
    const report = await run(
      async (sent, response) => {
        // The first pet created: the long-name one (issue 36) comes after it.
        if (created === undefined && isCreate(sent) && response.status === 201)
          created = String(((await response.json()) as { id: number }).id)
        if (created !== undefined && sent.method === 'GET' && sent.url.pathname === `/v1/pets/${created}`) {
          return changed(response, { status: 404, json: () => ({ code: 'pet_not_found', message: 'No pet', status: 404 }) })
        }
        if (created !== undefined && isList(sent) && sent.url.searchParams.has('status') && limitOf(sent) === '100') {
          return changed(response, { json: (body) => pets(body).filter((pet) => String(pet.id) !== created) })
        }
        return undefined
      },
      { writes: true },
    )
    expect(failures(report)).toEqual({
      'createPet.fetchable': { expected: 'status 200', actual: 'status 404' },
      'createPet.listed': { expected: `pet ${created} in the list`, actual: 'not listed' },
      // The status listing dropped it while the unfiltered page has it: incomplete (issue 29).
      'listPets.status-complete': {
        expected: expect.stringMatching(/^every pet with status available that GET \/pets\?limit=100 listed/),
        actual: `1 missing: pet ${created}`,
      },
    })
  })

  it('createPet: a body lacking categoryId accepted and stored', async () => {
    const report = await run(
      (sent, response) => {
        if (isCreate(sent) && response.status === 400) {
          return changed(response, { status: 201, text: JSON.stringify({ id: 777, name: 'x', categoryId: 1, status: 'available' }) })
        }
        if (isList(sent) && limitOf(sent) === '100' && !sent.url.searchParams.has('status')) {
          return changed(response, { json: (body) => [...pets(body), { id: 777, name: `petstore-sim verify lacking`, categoryId: 1 }] })
        }
        return undefined
      },
      { writes: true },
    )
    const failed = failures(report)
    expect(failed['createPet.missing-fields']).toEqual({ expected: 'status 400', actual: 'status 201' })
    expect(failed['errors.body-400']).toEqual({ expected: 'status 400', actual: 'status 201' })
  })

  it('createPet: a pet stored from the refused body', async () => {
    const report = await run(
      async (sent, response) => {
        if (!(isList(sent) && limitOf(sent) === '100' && !sent.url.searchParams.has('status'))) return undefined
        const listed = pets(await response.clone().json())
        const ours = listed.find((pet) => String(pet.name).startsWith('verify-'))
        if (ours === undefined) return undefined
        return changed(response, {
          // The body verify sent without categoryId names the pet `<its new pet's name>x` (write-probes.ts).
          text: JSON.stringify([...listed, { ...ours, id: 778, name: `${String(ours.name)}x` }]),
        })
      },
      { writes: true },
    )
    expect(failures(report)).toEqual({
      'createPet.missing-fields': { expected: 'nothing stored from the refused body', actual: 'pet 778 listed' },
      // The unfiltered page holds a pet the status listing lacks: incomplete too (issue 29).
      'listPets.status-complete': { expected: expect.stringMatching(/^every pet with status /), actual: '1 missing: pet 778' },
    })
  })
})

describe('verify fails the rate-limit check a drift breaks', () => {
  it('X-RateLimit-Remaining that does not go down', async () => {
    const report = await run((_sent, response) => changed(response, { headers: { 'x-ratelimit-remaining': '5' } }))
    expect(failures(report)).toEqual({
      'rateLimit.remaining-decreases': { expected: 'X-RateLimit-Remaining below 5 on the next request', actual: '5' },
    })
  })

  it('X-RateLimit-Limit of another plan', async () => {
    const report = await run((_sent, response) => changed(response, { headers: { 'x-ratelimit-limit': '300' } }))
    expect(failures(report)['rateLimit.plan-limit']).toEqual({
      expected: "X-RateLimit-Limit 60 or 1000 (the free plan; set --plan: 300 is the pro plan's, --plan pro)",
      actual: '300',
    })
  })

  it('the day limit as X-RateLimit-Limit passes too', async () => {
    const report = await run((_sent, response) => changed(response, { headers: { 'x-ratelimit-limit': '1000' } }))
    expect(failures(report)).toEqual({})
  })

  it.each([
    ['no X-RateLimit-Limit on a 401', { 'x-ratelimit-limit': null }, 'a X-RateLimit-Limit header', 'no X-RateLimit-Limit header'],
    [
      'a Remaining that is not a number',
      { 'x-ratelimit-remaining': 'many' },
      'X-RateLimit-Remaining: a whole number',
      'X-RateLimit-Remaining: many',
    ],
    ['a Remaining over the Limit', { 'x-ratelimit-remaining': '61' }, 'X-RateLimit-Remaining <= X-RateLimit-Limit (60)', '61'],
    ['a Reset that is not a number', { 'x-ratelimit-reset': 'soon' }, 'X-RateLimit-Reset: a whole number', 'X-RateLimit-Reset: soon'],
  ])('rateLimit.headers: %s', async (_what, headers, expected, actual) => {
    const report = await run((_sent, response) => (response.status === 401 ? changed(response, { headers }) : undefined))
    expect(failures(report)).toEqual({ 'rateLimit.headers': { expected, actual } })
  })

  const nowSeconds = Date.parse(start) / 1000
  it.each([
    ['a minute ago', nowSeconds - 60, false],
    ['30 s ago, within the tolerance', nowSeconds - 30, true],
    ['a day and 30 s ahead', nowSeconds + 86_400 + 30, true],
    ['a day and 31 s ahead', nowSeconds + 86_400 + 31, false],
  ])('rateLimit.reset-future: a Reset %s', async (_what, reset, passes) => {
    const report = await run((_sent, response) =>
      response.status === 401 ? changed(response, { headers: { 'x-ratelimit-reset': String(reset) } }) : undefined,
    )
    if (passes) expect(failures(report)).toEqual({})
    else {
      expect(failures(report)).toEqual({
        'rateLimit.reset-future': {
          expected: `X-RateLimit-Reset from ${nowSeconds} to ${nowSeconds + 86_400} (2030-06-15T10:00:30.000Z and a day later)`,
          actual: `${reset} (${new Date(reset * 1000).toISOString()})`,
        },
      })
    }
  })

  it('rateLimit.reset-future: a Reset in milliseconds is not a date', async () => {
    const reset = Date.parse(start) * 1000
    const report = await run((_sent, response) =>
      response.status === 401 ? changed(response, { headers: { 'x-ratelimit-reset': String(reset) } }) : undefined,
    )
    expect(failures(report)['rateLimit.reset-future']?.actual).toBe(`${reset} (not a date)`)
  })
})

describe('verify --limits fails the check a drift breaks', () => {
  const refused = (response: Response) => response.status === 429

  it('a 429 without Retry-After', async () => {
    const report = await run(
      (_sent, response) => (refused(response) ? changed(response, { headers: { 'retry-after': null } }) : undefined),
      {
        limits: true,
      },
    )
    expect(failures(report)).toMatchObject({ 'limits.retry-after': { expected: 'a Retry-After header', actual: 'no Retry-After header' } })
  })

  it.each(['soon', '-1', '1.5', 'Tue, 15 Nov 1994 08:12:31'])('a 429 with Retry-After: %s', async (retryAfter) => {
    const report = await run(
      (_sent, response) => (refused(response) ? changed(response, { headers: { 'retry-after': retryAfter } }) : undefined),
      {
        limits: true,
      },
    )
    expect(failures(report)['limits.retry-after']).toEqual({
      expected: 'Retry-After: <seconds> or an HTTP date',
      actual: `Retry-After: ${retryAfter}`,
    })
  })

  it('a 429 with an HTTP-date Retry-After passes', async () => {
    const report = await run(
      (_sent, response) =>
        refused(response)
          ? changed(response, { headers: { 'retry-after': new Date(Date.parse(start) + 60_000).toUTCString() } })
          : undefined,
      { limits: true },
    )
    expect(failures(report)).toEqual({})
  })

  it('a 429 with a text body', async () => {
    const report = await run((_sent, response) => (refused(response) ? changed(response, { text: 'Too Many Requests' }) : undefined), {
      limits: true,
    })
    expect(failures(report)['limits.error-body']?.expected).toBe('an Error object {code, message, status}')
  })

  it('a 429 after fewer requests than Remaining announced', async () => {
    let allowed = 0
    const report = await run(
      (sent, response) => {
        if (!(sent.auth !== null && response.status === 200)) return undefined
        allowed++
        // From the 40th allowed request of the run on, refuse: the 429 comes before Remaining reaches 0.
        return allowed >= 40
          ? changed(response, {
              status: 429,
              headers: { 'retry-after': '30' },
              text: JSON.stringify({ code: 'rate_limit_exceeded', message: 'Slow down', status: 429 }),
            })
          : undefined
      },
      { limits: true },
    )
    expect(failures(report)['limits.429']?.expected).toMatch(/^429 after \d+ more requests \(X-RateLimit-Remaining said \d+\)$/)
  })

  it('no recovery after the Retry-After', async () => {
    let refusedOnce = false
    const report = await run(
      (_sent, response) => {
        if (refused(response)) refusedOnce = true
        return refusedOnce && response.status === 200
          ? changed(response, { status: 503, json: () => ({ code: 'down', message: 'Down', status: 503 }) })
          : undefined
      },
      { limits: true },
    )
    expect(failures(report)['limits.recovers']).toEqual({ expected: 'status 200', actual: 'status 503' })
  })
})
