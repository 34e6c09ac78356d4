import { describe, expect, it } from 'vitest'
import { plain, setUpPipeline as setup } from '../../support/plain-pipeline.ts'

// The API pipeline on plain data, without a lane (core/pipeline/api-pipeline.ts): a PlainRequest in, a PlainResponse
// out. The order of its steps is what these check: authentication, then `Prefer: code=` (which counts nothing), then
// the limiter, then fault rules, then the operation; headers and the journal on every answer.

const free = { Authorization: 'Bearer demo-free-key' }

describe('the API pipeline (createApiPipeline)', () => {
  it('answers an operation with its JSON body, the rate-limit headers and one journal entry', async () => {
    const { simulator, respond } = setup()
    const response = await respond(plain('GET', '/v1/pets', free))
    expect(response.status).toBe(200)
    expect(JSON.parse(response.body!)).toHaveLength(5)
    expect(response.headers['X-RateLimit-Limit']).toBe('60')
    expect(simulator.journal.entries().map((entry) => [entry.operation, entry.status, entry.plan])).toEqual([['listPets', 200, 'free']])
  })

  it('refuses a bad key with 401 before the operation runs, and counts it in the anonymous bucket', async () => {
    const { simulator, respond } = setup()
    const response = await respond(
      plain('POST', '/v1/pets', { Authorization: 'Bearer nope', 'content-type': 'application/json' }, '{"name":"Rex","categoryId":1}'),
    )
    expect(response.status).toBe(401)
    expect(JSON.parse(response.body!)).toMatchObject({ status: 401 })
    expect(simulator.store.size).toBe(5)
    expect(simulator.journal.entries()[0]).toMatchObject({ status: 401, plan: 'anonymous', caller: 'anonymous' })
  })

  it('forces a documented answer with Prefer: code= without running the operation or counting it', async () => {
    const { simulator, respond } = setup()
    const forced = await respond(
      plain('POST', '/v1/pets', { ...free, prefer: 'code=201', 'content-type': 'application/json' }, '{"name":"Rex","categoryId":1}'),
    )
    expect(forced.status).toBe(201)
    expect(simulator.store.size).toBe(5)
    const after = await respond(plain('GET', '/v1/pets?limit=1', free))
    expect(after.headers['X-RateLimit-Remaining']).toBe('59')
    expect(simulator.journal.entries()[0]).toMatchObject({ forced: true, status: 201 })
  })

  it('answers a fault rule after the limiter has counted the request, and says which rule in the journal', async () => {
    const { simulator, respond } = setup()
    const id = simulator.faults.add({ operation: 'listPets', status: 503, times: 1 })
    const faulted = await respond(plain('GET', '/v1/pets', free))
    expect(faulted.status).toBe(503)
    expect(simulator.journal.entries()[0]).toMatchObject({ fault: id, status: 503 })
    const next = await respond(plain('GET', '/v1/pets', free))
    expect(next.status).toBe(200)
    expect(next.headers['X-RateLimit-Remaining']).toBe('58')
  })

  it('refuses the 61st request of a free key in a minute with 429 and Retry-After, without running the operation', async () => {
    const { respond } = setup()
    for (let count = 0; count < 60; count++) expect((await respond(plain('GET', '/v1/pets?limit=1', free))).status).toBe(200)
    const refused = await respond(plain('GET', '/v1/pets?limit=1', free))
    expect(refused.status).toBe(429)
    expect(JSON.parse(refused.body!)).toMatchObject({ code: 'rate_limit_exceeded' })
    expect(Number(refused.headers['Retry-After'])).toBe(30)
  })

  it('answers a path no operation has with 404 route_not_found, and a wrong method with 405 and Allow', async () => {
    const { respond } = setup()
    const missing = await respond(plain('GET', '/v1/owners', free))
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.body!)).toMatchObject({ code: 'route_not_found' })
    const wrong = await respond(plain('PATCH', '/v1/pets', free))
    expect(wrong.status).toBe(405)
    expect(wrong.headers.Allow).toMatch(/GET/)
  })
})

describe("the pipeline's counting: uncounted-anonymous (what a foreign page's navigations get)", () => {
  it('answers a request without a valid key as its bucket stands, counting nothing', async () => {
    const { simulator } = setup()
    const uncounted = (headers: Record<string, string> = {}) =>
      Promise.resolve(simulator.pipeline.respond(plain('GET', '/v1/pets', headers), undefined, undefined, 'uncounted-anonymous'))
    for (let index = 0; index < 3; index++) {
      const answer = await uncounted()
      expect(answer.status).toBe(401)
      expect(answer.headers['X-RateLimit-Remaining']).toBe('60')
    }
    expect(simulator.state().anonymous.buckets).toBe(0)
    expect(simulator.journal.entries()).toHaveLength(3)
    // A valid key is counted whatever the lane asks: only anonymous callers are spared.
    expect((await uncounted(free)).headers['X-RateLimit-Remaining']).toBe('59')
    // Over its limit, the bucket's 429, still counting nothing.
    for (let index = 0; index < 60; index++) await Promise.resolve(simulator.pipeline.respond(plain('GET', '/v1/pets')))
    const limited = await uncounted()
    expect(limited.status).toBe(429)
    expect(simulator.state().anonymous.banned).toBe(0)
  })
})
