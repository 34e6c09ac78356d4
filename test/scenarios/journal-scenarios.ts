import { beforeEach, describe, expect, it } from 'vitest'
import { fingerprint } from '../../src/core/access/fingerprint.ts'
import { testKeys, type ApiTarget } from '../support/api-target.ts'
import { harErrors } from '../support/har-validation.ts'
import { createClient } from './http-client.ts'

/**
 * The journal you can assert on (issue #16): the whole exchange, the
 * filters, clear, wait, HAR and contract coverage, the same on every target
 * (in-process through `simulator.journal`, over HTTP through `/__sim/…`).
 */
export function defineJournalScenarios(target: () => ApiTarget): void {
  const call = createClient(target, testKeys.pro)
  const journal = () => target().journalClient
  beforeEach(async () => {
    await target().reset()
    await journal().resetCoverage()
  })

  describe('each entry holds the whole exchange', () => {
    it('has the request headers, the body sent, and the response headers and body', async () => {
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
      const created = await call('POST', '/pets', {
        body: { name: 'Journal Rex', categoryId: 3 },
        headers: { traceparent, 'x-request-id': 'req-42' },
      })
      expect(created.status).toBe(201)
      const [entry] = await journal().find({ operation: 'createPet' })
      expect(entry).toBeDefined()
      expect(entry!.request.method).toBe('POST')
      expect(entry!.request.path).toBe(`${new URL(target().apiUrl).pathname}/pets`)
      expect(entry!.request.headers.traceparent).toBe(traceparent)
      expect(entry!.request.headers['x-request-id']).toBe('req-42')
      expect(entry!.request.headers['content-type']).toBe('application/json')
      expect(JSON.parse(entry!.request.body!.text)).toEqual({ name: 'Journal Rex', categoryId: 3 })
      expect(entry!.request.body).toMatchObject({ encoding: 'utf8', truncated: false })
      expect(entry!.response.status).toBe(201)
      expect(entry!.response.headers.location).toBe(created.headers.get('location'))
      expect(entry!.response.headers['x-ratelimit-remaining']).toBe(created.headers.get('x-ratelimit-remaining'))
      expect(JSON.parse(entry!.response.body!.text)).toEqual(created.body)
      expect(entry!.response.body!.size).toBe(new TextEncoder().encode(JSON.stringify(created.body)).byteLength)
      expect(Date.parse(entry!.wallAt)).toBeGreaterThan(Date.parse('2025-01-01T00:00:00Z'))
    })

    it('never holds a secret in clear: the key as its fingerprint, cookies and credential-named headers redacted', async () => {
      await call('GET', '/pets?limit=1&access_token=qs-secret-1', {
        headers: { cookie: 'session=cookie-secret-2; theme=dark', 'x-api-key': 'header-secret-3' },
      })
      await call('GET', '/pets?limit=1', { key: 'not-a-key-secret-4' })
      const entries = await journal().find()
      const text = JSON.stringify(entries) + JSON.stringify(await journal().har())
      for (const secret of [testKeys.pro, 'qs-secret-1', 'cookie-secret-2', 'header-secret-3', 'not-a-key-secret-4']) {
        expect(text).not.toContain(secret)
      }
      expect(entries[0]!.request.headers.authorization).toBe(`Bearer ${fingerprint(testKeys.pro)}`)
      expect(entries[0]!.request.headers.cookie).toBe('session=[redacted]; theme=[redacted]')
      expect(entries[0]!.request.headers['x-api-key']).toBe('[redacted]')
      expect(entries[0]!.request.query).toEqual({ limit: '1', access_token: '[redacted]' })
      expect(entries[1]!.request.headers.authorization).toBe(`Bearer ${fingerprint('not-a-key-secret-4')}`)
    })

    it('journals a request that matched no operation, marked as such', async () => {
      expect((await call('GET', '/no-such-thing')).status).toBe(404)
      const [entry] = await journal().find({ operation: 'routeNotFound' })
      expect(entry).toMatchObject({ status: 404, unmatched: true, method: 'GET' })
      expect(JSON.parse(entry!.response.body!.text).code).toBe('route_not_found')
    })
  })

  describe('queries', () => {
    beforeEach(async () => {
      await call('GET', '/pets?limit=2')
      await call('GET', '/pets/999999')
      await call('GET', '/pets?limit=1', { key: null })
      await call('POST', '/pets', { body: { name: 'Filtered', categoryId: 1 }, key: testKeys.free })
      await call('GET', '/pets/1', { key: testKeys.free })
    })

    it('filters by status, status class, operation, method, path, key, since and limit', async () => {
      const paths = async (filter: Parameters<ReturnType<typeof journal>['find']>[0]) =>
        (await journal().find(filter)).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)
      const base = new URL(target().apiUrl).pathname
      expect(await paths({ status: 401 })).toEqual([`GET ${base}/pets?limit=1 401`])
      expect(await paths({ status: '4xx' })).toEqual([`GET ${base}/pets/999999 404`, `GET ${base}/pets?limit=1 401`])
      expect(await paths({ operation: 'getPet' })).toEqual([`GET ${base}/pets/999999 404`, `GET ${base}/pets/1 200`])
      expect(await paths({ method: 'post' })).toEqual([`POST ${base}/pets 201`])
      expect(await paths({ path: `${base}/pets/*` })).toEqual([`GET ${base}/pets/999999 404`, `GET ${base}/pets/1 200`])
      expect(await paths({ key: testKeys.free })).toEqual([`POST ${base}/pets 201`, `GET ${base}/pets/1 200`])
      expect(await paths({ key: fingerprint(testKeys.free) })).toEqual([`POST ${base}/pets 201`, `GET ${base}/pets/1 200`])
      expect(await paths({ key: 'anonymous' })).toEqual([`GET ${base}/pets?limit=1 401`])
      expect(await paths({ since: 4 })).toEqual([`POST ${base}/pets 201`, `GET ${base}/pets/1 200`])
      expect(await paths({ limit: 1 })).toEqual([`GET ${base}/pets/1 200`])
      expect(await paths({ operation: 'getPet', status: 200, key: testKeys.free })).toEqual([`GET ${base}/pets/1 200`])
      expect(await journal().count({ status: '2xx' })).toBe(3)
      expect(await journal().count({ operation: 'listOrders' })).toBe(0)
    })

    it('refuses an unknown filter or a bad value', async () => {
      await expect(journal().find({ bogus: 'x' } as never)).rejects.toThrow(/bogus/)
      await expect(journal().count({ status: 'teapot' })).rejects.toThrow(/status/)
    })

    it('clears the journal only: sequence numbers start over, coverage stays', async () => {
      await journal().clear()
      expect(await journal().find()).toEqual([])
      await call('GET', '/pets?limit=1')
      expect((await journal().find()).map((entry) => entry.sequence)).toEqual([1])
      const listPets = (await journal().coverage()).operations.find((operation) => operation.operation === 'listPets')!
      expect(listPets.statuses.find((status) => status.status === 200)!.count).toBe(2)
    })

    it('waits for a request sent later, and finds one sent before', async () => {
      const waiting = journal().waitFor({ operation: 'createPet', status: 201, since: 6 }, 5000)
      setTimeout(() => void call('POST', '/pets', { body: { name: 'Late Rex', categoryId: 2 } }), 50)
      const entry = await waiting
      expect(JSON.parse(entry.request.body!.text).name).toBe('Late Rex')
      expect(entry.sequence).toBe(6)
      expect((await journal().waitFor({ status: 401 }, 0)).sequence).toBe(3)
    })

    it('fails a wait that times out with the nearest entries: what was sent instead', async () => {
      const failure = journal().waitFor({ operation: 'createPet', status: 400 }, 100)
      await expect(failure).rejects.toThrow(/No request matched .*createPet.*within 100 ms/)
      await expect(journal().waitFor({ operation: 'createPet', status: 400 }, 100)).rejects.toThrow(
        /#4 POST \S+\/pets -> 201 createPet key#[0-9a-f]{8} \(differs in status\)/,
      )
    })
  })

  it('exports a HAR 1.2 log that validates against the HAR schema', async () => {
    await call('GET', '/pets?limit=2', { headers: { 'x-request-id': 'har-1' } })
    await call('POST', '/pets', { body: { name: 'Har Rex', categoryId: 1 } })
    const har = await journal().har()
    expect(harErrors(har)).toEqual([])
    expect(har.log.entries.map((entry) => [entry.request.method, entry.response.status])).toEqual([
      ['GET', 200],
      ['POST', 201],
    ])
    const [get, post] = har.log.entries
    // The URL as the client sent it: under the target's base path (`/v1`, or a sandbox's `/sandboxes/<name>/v1`).
    expect(new URL(get!.request.url).pathname).toBe(`${new URL(target().apiUrl).pathname}/pets`)
    expect(get!.request.url).toMatch(/^https?:\/\/[^/]+\/[^?]+\?limit=2$/)
    expect(get!.request.queryString).toEqual([{ name: 'limit', value: '2' }])
    expect(get!.request.headers).toContainEqual({ name: 'x-request-id', value: 'har-1' })
    expect(JSON.parse(post!.request.postData!.text)).toEqual({ name: 'Har Rex', categoryId: 1 })
    expect(JSON.parse(post!.response.content.text!).name).toBe('Har Rex')
  })

  it('reports contract coverage: every documented status, how each was answered, undocumented ones, deprecated calls', async () => {
    await call('GET', '/pets?limit=1')
    await call('GET', '/pets?limit=1', { headers: { prefer: 'code=429' } })
    await call('GET', '/pets/1')
    const id = await target().addFault({ operation: 'getPet', status: 503, times: 1 })
    await call('GET', '/pets/1')
    await target()
      .removeFault(id)
      .catch(() => undefined)
    const coverage = await journal().coverage()
    const statuses = (operation: string) =>
      coverage.operations
        .find((entry) => entry.operation === operation)!
        .statuses.map((status) => [status.status, status.origin ?? 'undocumented', status.behaviour, status.forced, status.fault])
    // Whose answer each is (issue #31): the 400s and getPet's 410 are the simulator's own, marked x-petstore-sim.
    expect(statuses('listPets')).toEqual([
      [200, 'spec', 1, 0, 0],
      [400, 'simulator', 0, 0, 0],
      [401, 'spec', 0, 0, 0],
      [429, 'spec', 0, 1, 0],
    ])
    expect(statuses('getPet')).toEqual([
      [200, 'spec', 1, 0, 0],
      [400, 'simulator', 0, 0, 0],
      [401, 'spec', 0, 0, 0],
      [404, 'spec', 0, 0, 0],
      [410, 'simulator', 0, 0, 0],
      [429, 'spec', 0, 0, 0],
      [503, 'undocumented', 0, 0, 1],
    ])
    expect(coverage.operations.find((entry) => entry.operation === 'getPet')!.statuses.at(-1)).toMatchObject({ documented: false })
    expect(coverage.deprecatedCalls).toEqual([{ operation: 'getPet', removal: '2030-12-05T00:00:00.000Z', calls: 2 }])
    expect(coverage.summary).toEqual({
      spec: { documented: 13, met: 3 },
      simulator: { documented: 7, met: 0 },
      documented: 20,
      met: 3,
      undocumented: 1,
    })
    expect(coverage.operations.map((operation) => operation.operation)).toEqual(['listPets', 'createPet', 'getPet', 'listOrders'])
  })
}
