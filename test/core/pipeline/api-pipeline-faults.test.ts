import { describe, expect, it } from 'vitest'
import { fingerprint } from '../../../src/core/access/fingerprint.ts'
import { plain, setUpPipeline as setup } from '../../support/plain-pipeline.ts'

// The pipeline's fault rules, forced answers and journal entries (docs/error-states.md, docs/journal.md), on plain
// data: the Error body and headers of every fault-only status, the kinds that answer instead of the operation and
// those that break its answer, what `Prefer: code=` may force for whom, and what the journal records of each.

const free = { Authorization: 'Bearer demo-free-key' }
const newPet = '{"name":"Rex","categoryId":1}'
const postPet = (headers: Record<string, string> = free) =>
  plain('POST', '/v1/pets', { ...headers, 'content-type': 'application/json' }, newPet)

describe('fault rules: the fault-only statuses', () => {
  it.each([
    [500, 'internal_error', 'Internal error (simulated fault)', undefined],
    [502, 'bad_gateway', 'The upstream service answered badly (simulated fault)', undefined],
    [503, 'service_unavailable', 'The service is unavailable; retry later (simulated fault)', '5'],
    [504, 'gateway_timeout', 'The upstream service did not answer in time (simulated fault)', undefined],
  ])('%i: the Error body %s, marked with the rule, with the rate-limit headers', async (status, code, message, retryAfter) => {
    const { simulator, respond } = setup()
    const id = simulator.faults.add({ operation: 'createPet', status })
    const answer = await respond(postPet())
    expect(answer.status).toBe(status)
    expect(JSON.parse(answer.body!)).toEqual({ code, message, status })
    expect(answer.headers['Petstore-Sim-Fault']).toBe(id)
    expect(answer.headers['Retry-After']).toBe(retryAfter)
    expect(answer.headers['X-RateLimit-Remaining']).toBe('59')
    expect(answer.transportFault).toBeUndefined()
    // Instead of the operation: no pet created.
    expect(simulator.store.size).toBe(5)
    expect(simulator.journal.entries()[0]).toMatchObject({ fault: id, status, operation: 'createPet' })
  })

  it('a documented status answers as Prefer: code= forces it, without running the operation', async () => {
    const { simulator, respond } = setup()
    const id = simulator.faults.add({ operation: 'createPet', status: 429 })
    const answer = await respond(postPet())
    expect(answer.status).toBe(429)
    // 30 s into the minute: the minute window resets in 30 s.
    expect(answer.headers['Retry-After']).toBe('30')
    expect(JSON.parse(answer.body!)).toEqual({
      code: 'rate_limit_exceeded',
      message: 'Rate limit exceeded. Retry after 30 s. (forced)',
      status: 429,
    })
    expect(answer.headers['Petstore-Sim-Fault']).toBe(id)
    expect(answer.headers['Preference-Applied']).toBeUndefined()
    expect(simulator.store.size).toBe(5)
  })

  it.each(['reset', 'hang'] as const)('%s: no answer, the operation not run, status 0 in the journal', async (fault) => {
    const { simulator, respond } = setup()
    const id = simulator.faults.add(fault === 'hang' ? { operation: 'createPet', fault, hangMs: 10 } : { operation: 'createPet', fault })
    const answer = await respond(postPet())
    expect(answer.transportFault).toMatchObject({ kind: fault })
    expect(simulator.store.size).toBe(5)
    expect(simulator.journal.entries()[0]).toMatchObject({ fault: id, status: 0 })
    // The body the client sent is kept: a client that sends it again is seen doing so (duplicate-create, issue 48).
    expect(simulator.journal.entries()[0]?.request.body).toMatchObject({ encoding: 'utf8', text: newPet })
  })

  it.each(['truncate', 'empty'] as const)('%s: the operation runs, its answer broken on the way', async (fault) => {
    const { simulator, respond } = setup()
    const id = simulator.faults.add({ operation: 'createPet', fault })
    const answer = await respond(postPet())
    expect(answer.status).toBe(201)
    expect(answer.transportFault).toMatchObject({ kind: fault })
    expect(simulator.store.size).toBe(6)
    expect(simulator.journal.entries()[0]).toMatchObject({ fault: id, status: 201 })
  })

  it('a delay alone answers normally, after it', async () => {
    const { simulator, respond } = setup()
    const id = simulator.faults.add({ operation: 'listPets', delay: 1 })
    const answer = await respond(plain('GET', '/v1/pets', free))
    expect(answer.status).toBe(200)
    expect(answer.headers['Petstore-Sim-Fault']).toBe(id)
    expect(JSON.parse(answer.body!)).toHaveLength(5)
  })

  it('acts on authenticated requests only: a request without a key still gets its 401', async () => {
    const { simulator, respond } = setup()
    simulator.faults.add({ operation: 'listPets', status: 503 })
    const answer = await respond(plain('GET', '/v1/pets'))
    expect(answer.status).toBe(401)
    expect(answer.headers['Petstore-Sim-Fault']).toBeUndefined()
  })
})

describe('Prefer: code= for whom', () => {
  it('forces 401 for a request without a key, marked Preference-Applied', async () => {
    const { simulator, respond } = setup()
    const answer = await respond(plain('GET', '/v1/pets', { prefer: 'code=401' }))
    expect(answer.status).toBe(401)
    expect(answer.headers['Preference-Applied']).toBe('code=401')
    expect(simulator.journal.entries()[0]).toMatchObject({ forced: true, status: 401, caller: 'anonymous' })
  })

  it('gives a request without a key its 401, not the answer it asks for', async () => {
    const { simulator, respond } = setup()
    const answer = await respond(plain('GET', '/v1/pets', { prefer: 'code=200' }))
    expect(answer.status).toBe(401)
    expect(JSON.parse(answer.body!).code).toBe('missing_api_key')
    expect(answer.headers['Preference-Applied']).toBeUndefined()
    expect(simulator.journal.entries()[0]?.forced).toBeUndefined()
  })

  it('gives a caller over its limit its 429, not the answer it asks for', async () => {
    const { respond } = setup()
    for (let count = 0; count < 60; count++) await respond(plain('GET', '/v1/pets?limit=1', free))
    const answer = await respond(plain('GET', '/v1/pets', { ...free, prefer: 'code=200' }))
    expect(answer.status).toBe(429)
    expect(answer.headers['Preference-Applied']).toBeUndefined()
  })

  it('answers a path no operation has with 404, and a wrong method with 405, whatever it asks for', async () => {
    const { respond } = setup()
    expect((await respond(plain('GET', '/v1/owners', { ...free, prefer: 'code=200' }))).status).toBe(404)
    expect((await respond(plain('PATCH', '/v1/pets', { ...free, prefer: 'code=200' }))).status).toBe(405)
  })

  it('reads Prefer only when the simulator allows it', async () => {
    const { respond } = setup({ prefer: false })
    const answer = await respond(plain('GET', '/v1/pets', { ...free, prefer: 'code=429' }))
    expect(answer.status).toBe(200)
    expect(answer.headers['Preference-Applied']).toBeUndefined()
  })
})

describe('Prefer: code= error answers say what they are', () => {
  it.each([
    [413, 'payload_too_large'],
    [415, 'unsupported_media_type'],
    [429, 'rate_limit_exceeded'],
  ])('createPet forced to %i: %s, with a message that says it was forced', async (status, code) => {
    const { simulator, respond } = setup()
    const answer = await respond(postPet({ ...free, prefer: `code=${status}` }))
    const body = JSON.parse(answer.body!)
    expect(body).toMatchObject({ code, status })
    expect(body.message).toMatch(/\S.* \(forced\)$/)
    expect(simulator.store.size).toBe(5)
  })

  it('a forced 429 says in its message the Retry-After it sends', async () => {
    const { respond, clock } = setup()
    clock.advance(20_000)
    const answer = await respond(plain('GET', '/v1/pets', { ...free, prefer: 'code=429' }))
    expect(answer.headers['Retry-After']).toBe('10')
    expect(JSON.parse(answer.body!).message).toBe('Rate limit exceeded. Retry after 10 s. (forced)')
  })

  it('listOrders forced to 501: not_implemented, with a message', async () => {
    const { respond } = setup()
    const answer = await respond(plain('GET', '/v1/store/orders', { ...free, prefer: 'code=501' }))
    expect(JSON.parse(answer.body!)).toMatchObject({ code: 'not_implemented', status: 501, message: expect.stringMatching(/\S/) })
  })
})

describe('the journal entry of each request', () => {
  it('records the path with its query, the operation, the caller and plan, and no forced mark when not forced', async () => {
    const { simulator, respond } = setup()
    await respond(plain('GET', '/v1/pets?limit=2&status=sold', free))
    await respond(plain('GET', '/v1/pets/3', free))
    await respond(plain('GET', '/v1/owners', free))
    await respond(plain('DELETE', '/v1/pets', free))
    await respond(plain('GET', '/v1/pets'))
    const entries = simulator.journal.entries()
    expect(entries.map((entry) => [entry.method, entry.path, entry.operation, entry.status])).toEqual([
      ['GET', '/v1/pets?limit=2&status=sold', 'listPets', 200],
      ['GET', '/v1/pets/3', 'getPet', 200],
      ['GET', '/v1/owners', 'routeNotFound', 404],
      ['DELETE', '/v1/pets', 'methodNotAllowed', 405],
      ['GET', '/v1/pets', 'listPets', 401],
    ])
    expect(entries[0]).toMatchObject({ caller: fingerprint('demo-free-key'), plan: 'free' })
    expect(entries[4]).toMatchObject({ caller: 'anonymous', plan: 'anonymous' })
    for (const entry of entries) {
      expect(entry.forced).toBeUndefined()
      expect(entry.fault).toBeUndefined()
      expect(entry.durationMs).toBeGreaterThanOrEqual(0)
      expect(entry.durationMs).toBeLessThan(60_000)
    }
  })

  it('keeps the body a POST sent and the headers of the request', async () => {
    const { simulator, respond } = setup()
    await respond(postPet({ ...free, 'X-Trace': 'abc' }))
    const [entry] = simulator.journal.entries()
    expect(entry?.request.body).toMatchObject({ encoding: 'utf8', text: newPet, size: newPet.length })
    expect(entry?.request.headers['x-trace']).toBe('abc')
    // A GET keeps no body.
    await respond(plain('GET', '/v1/pets/1', free))
    expect(simulator.journal.entries()[1]?.request.body).toBeNull()
  })

  it('records a request of the state before a reset under latency neither in the journal nor as a pet', async () => {
    const { simulator, respond } = setup({ latency: 5 })
    const pending = respond(postPet())
    simulator.reset()
    const answer = await pending
    expect(answer.journalEntry).toBeUndefined()
    expect(simulator.journal.entries()).toEqual([])
  })

  it('answers after the latency, the same with a range', async () => {
    for (const latency of [1, { min: 1, max: 2 }]) {
      const { simulator, respond } = setup({ latency })
      const answer = await respond(plain('GET', '/v1/pets/1', free))
      expect(answer.status).toBe(200)
      expect(simulator.journal.entries()).toHaveLength(1)
    }
  })
})
