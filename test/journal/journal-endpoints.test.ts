import { describe, expect, it, vi } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { startServer } from '../../src/node.ts'
import { openRawConnection, rawGet, type RawConnection } from '../support/raw-connection.ts'
import type { PlainResponse } from '../../src/core/http/plain-http.ts'
import { defaults } from '../../src/core/defaults.ts'
import { createManualClock } from '../../src/core/time/clock.ts'

// The journal's control endpoints over HTTP (issue #16): what only HTTP has, the errors and headers. The behaviour
// they share with simulator.journal runs on every target in test/scenarios/journal-scenarios.ts.

function setUp() {
  const app = createApp({ clock: createManualClock('2030-06-15T10:00:30Z') })
  const send = (path: string, init: RequestInit = {}) =>
    app.fetch(new Request(`http://127.0.0.1:4010${path}`, init), { clientAddress: '127.0.0.1' })
  const api = (path: string) => send(`/v1${path}`, { headers: { authorization: 'Bearer demo-pro-key' } })
  return { app, send, api }
}

describe('the journal endpoints', () => {
  it.each([
    ['/__sim/requests?bogus=1', /Unknown filter bogus/],
    ['/__sim/requests?status=401&status=429', /status is given more than once/],
    ['/__sim/requests?since=-1', /since must be a whole number/],
    ['/__sim/requests/count?status=abc', /status must be/],
    ['/__sim/requests/count?timeoutMs=10', /Unknown filter timeoutMs/],
    ['/__sim/requests/wait?timeoutMs=60001', /timeoutMs must be a whole number of ms from 0 to 60000/],
    ['/__sim/requests/wait?timeoutMs=soon', /timeoutMs must be/],
    ['/__sim/requests.har?limit=x', /limit must be a whole number/],
  ])('answers %s with a 400 invalid_query_parameter Error body', async (path, message) => {
    const response = await setUp().send(path)
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.code).toBe('invalid_query_parameter')
    expect(body.message).toMatch(message)
  })

  it('answers a wait that times out with 404 request_not_seen, naming what was sent instead', async () => {
    const { send, api } = setUp()
    expect((await api('/pets?limit=1')).status).toBe(200)
    const response = await send('/__sim/requests/wait?operation=createPet&timeoutMs=50')
    expect(response.status).toBe(404)
    const body = await response.json()
    expect(body.code).toBe('request_not_seen')
    expect(body.message).toContain('#1 GET /v1/pets?limit=1 -> 200 listPets')
  })

  it('clears the journal only: the caller keeps its count, the pets stay', async () => {
    const { app, send, api } = setUp()
    await api('/pets?limit=1')
    const before = (await api('/pets?limit=1')).headers.get('x-ratelimit-remaining')
    const cleared = await send('/__sim/requests', { method: 'DELETE' })
    expect(cleared.status).toBe(200)
    expect(await cleared.json()).toEqual({ requests: [] })
    expect(app.simulator.journal.entries()).toEqual([])
    expect(Number((await api('/pets?limit=1')).headers.get('x-ratelimit-remaining'))).toBe(Number(before) - 1)
    expect(await (await send('/__sim/requests/count')).json()).toEqual({ count: 1 })
  })

  it('finds the requests that sent a wrong key by that key, and those without a valid key as anonymous', async () => {
    const { send } = setUp()
    await send('/v1/pets', { headers: { authorization: 'Bearer my-typo-key' } })
    await send('/v1/pets')
    const sequences = async (query: string) =>
      ((await (await send(`/__sim/requests?${query}`)).json()) as { requests: { sequence: number }[] }).requests.map(
        (entry) => entry.sequence,
      )
    expect(await sequences('key=my-typo-key')).toEqual([1])
    expect(await sequences('key=anonymous')).toEqual([1, 2])
    expect(await sequences('key=demo-pro-key')).toEqual([])
  })

  it('serves the HAR as a download, and coverage can be started over', async () => {
    const { send, api } = setUp()
    await api('/pets/1')
    const har = await send('/__sim/requests.har')
    expect(har.headers.get('content-disposition')).toBe('attachment; filename="petstore-sim.har"')
    expect((await har.json()).log.entries).toHaveLength(1)
    const getPet = (coverage: { operations: { operation: string; calls: number }[] }) =>
      coverage.operations.find((operation) => operation.operation === 'getPet')!.calls
    expect(getPet(await (await send('/__sim/coverage')).json())).toBe(1)
    expect(getPet(await (await send('/__sim/coverage', { method: 'DELETE' })).json())).toBe(0)
  })
})

describe('large control-plane answers (issue #20)', () => {
  const padding = 'x'.repeat(60_000)
  /** `count` createPets with 60 KB bodies: about 60 KB of journal each. */
  async function bigJournal(count: number) {
    const context = setUp()
    for (let index = 0; index < count; index++) {
      const response = await context.send('/v1/pets', {
        method: 'POST',
        headers: { authorization: 'Bearer demo-enterprise-key', 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Big ${index}`, categoryId: 1, padding }),
      })
      expect(response.status).toBe(201)
    }
    return context
  }
  /** A control answer as the app gives it to a lane, for what its stream writes. */
  function plainGet(app: ReturnType<typeof setUp>['app'], path: string) {
    return app.respond({
      method: 'GET',
      path,
      query: '',
      authority: '127.0.0.1:4010',
      header: () => undefined,
      readBody: async () => new Uint8Array(),
      transport: { clientAddress: '127.0.0.1' },
    }) as PlainResponse
  }

  /** What a streamed answer writes for a client that takes each piece 2 ms after it is written, piece by piece. */
  async function readPieces(streamed: PlainResponse): Promise<string[]> {
    expect(streamed.body).toBeUndefined()
    const chunks: string[] = []
    let taken = true
    let ended = false
    streamed.stream!.open({
      write: (chunk) => {
        chunks.push(chunk)
        taken = false
      },
      get hasRoom() {
        return taken
      },
      end: () => {
        ended = true
      },
    })
    for (let turn = 0; turn < 1000 && !ended; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 2))
      taken = true
    }
    expect(ended).toBe(true)
    return chunks
  }

  it('pages GET /__sim/requests: each answer within the cap, every entry read by following next', async () => {
    const { app, send } = await bigJournal(40)
    let path: string | undefined = '/__sim/requests'
    const sequences: number[] = []
    let pages = 0
    while (path !== undefined) {
      const response = await send(path)
      expect(response.status).toBe(200)
      const text = await response.text()
      expect(new TextEncoder().encode(text).byteLength).toBeLessThanOrEqual(defaults.journalPageBytes)
      const body = JSON.parse(text) as { requests: { sequence: number }[]; next?: string }
      expect(response.headers.get('link')).toBe(body.next === undefined ? null : `<${body.next}>; rel="next"`)
      sequences.push(...body.requests.map((entry) => entry.sequence))
      if (pages === 0) {
        expect(body.next).toMatch(/^\/__sim\/requests\?since=\d+&until=40$/)
        // Requests answered after the first page are not chased: the read ends where the journal stood.
        await send('/v1/pets?limit=1', { headers: { authorization: 'Bearer demo-enterprise-key' } })
      }
      path = body.next
      pages++
    }
    expect(pages).toBeGreaterThanOrEqual(3)
    expect(sequences).toEqual(Array.from({ length: 40 }, (_, index) => index + 1))
    expect(app.simulator.journal.count()).toBe(41)
  })

  it('keeps the filters and the window of limit in next', async () => {
    const { send } = await bigJournal(30)
    const first = (await (await send('/__sim/requests?operation=createPet&limit=25')).json()) as {
      requests: { sequence: number }[]
      next: string
    }
    expect(first.requests[0]!.sequence).toBe(6)
    expect(first.next).toBe(`/__sim/requests?operation=createPet&since=${first.requests.at(-1)!.sequence + 1}&until=30`)
    const rest = (await (await send(first.next)).json()) as { requests: { sequence: number }[]; next?: string }
    expect(rest.requests.at(-1)!.sequence).toBe(30)
  })

  it('answers a journal that fits one page as before: no next, no Link', async () => {
    const { send, api } = setUp()
    await api('/pets?limit=1')
    const response = await send('/__sim/requests')
    expect(response.headers.get('link')).toBeNull()
    expect(Object.keys(await response.json())).toEqual(['requests'])
    const until = await send('/__sim/requests?until=x')
    expect(until.status).toBe(400)
    expect((await until.json()).message).toMatch(/until must be a whole number/)
  })

  it('streams the HAR: the same text as toHar, in pieces of about 64 KiB written only while the client takes them', async () => {
    const { app, send } = await bigJournal(30)
    const expected = JSON.stringify(app.simulator.journal.toHar())
    const response = await send('/__sim/requests.har')
    expect(response.headers.get('content-length')).toBeNull()
    expect(await response.text()).toBe(expected)

    const streamed = plainGet(app, '/__sim/requests.har')
    expect(streamed.headers['Content-Type']).toBe('application/json')
    const chunks = await readPieces(streamed)
    expect(chunks.join('')).toBe(expected)
    expect(chunks.length).toBeGreaterThan(10)
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(64 * 1024 + 62 * 1024)
  })

  it('breaks a streamed answer off when the client takes nothing for the send timeout, never ending it as whole', async () => {
    const { app } = await bigJournal(3)
    vi.useFakeTimers()
    try {
      const streamed = plainGet(app, '/__sim/requests.har')
      const calls: string[] = []
      streamed.stream!.open({
        write: () => calls.push('write'),
        hasRoom: false,
        end: () => calls.push('end'),
        abort: () => calls.push('abort'),
      })
      vi.advanceTimersByTime(defaults.sendTimeoutMs - 100)
      expect(calls).toEqual([])
      vi.advanceTimersByTime(200)
      expect(calls).toEqual(['abort'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('streams GET /__sim/snapshot, the same text as simulator.snapshot(), and it restores', async () => {
    const { app, send } = setUp()
    for (let index = 0; index < 2000; index++) app.simulator.store.create({ name: `Pet ${index}`, categoryId: 1 })
    for (let index = 0; index < 600; index++)
      await app.fetch(new Request('http://127.0.0.1:4010/v1/pets?limit=1'), { clientAddress: `10.0.${index >> 8}.${index & 255}` })
    const expected = JSON.stringify(app.simulator.snapshot())
    expect(app.simulator.snapshot().rateLimits.length).toBeGreaterThan(500)
    const response = await send('/__sim/snapshot')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    const text = await response.text()
    expect(text).toBe(expected)
    const pieces = await readPieces(plainGet(app, '/__sim/snapshot'))
    expect(pieces.join('')).toBe(expected)
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(100 * 1024)
    const restored = await send('/__sim/snapshot', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: text })
    expect(restored.status).toBe(200)
    expect(app.simulator.store.size).toBe(2050)
  })

  it('writes at most 4 snapshots at once: one more is 503 too_many_streams until one is over', async () => {
    const { app, send } = setUp()
    const sink = { write: () => {}, hasRoom: false, end: () => {} }
    const closers = Array.from({ length: 4 }, () => plainGet(app, '/__sim/snapshot').stream!.open(sink))
    const refused = await send('/__sim/snapshot')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect((await refused.json()).code).toBe('too_many_streams')
    closers[0]!()
    closers[0]!()
    const served = await send('/__sim/snapshot')
    expect(served.status).toBe(200)
    expect(JSON.parse(await served.text()).format).toBe(1)
    expect((await send('/__sim/snapshot')).status).toBe(200)
    for (const close of closers) close()
  })

  it('answers HEAD for the streamed answers with their headers, reading nothing', async () => {
    const { send } = await bigJournal(2)
    const har = await send('/__sim/requests.har', { method: 'HEAD' })
    expect(har.status).toBe(200)
    expect(har.headers.get('content-disposition')).toBe('attachment; filename="petstore-sim.har"')
    expect(await har.text()).toBe('')
    const snapshot = await send('/__sim/snapshot', { method: 'HEAD' })
    expect([snapshot.status, snapshot.headers.get('content-type'), await snapshot.text()]).toEqual([200, 'application/json', ''])
  })

  it('opens the event stream with summaries: no exchange is sent (or held) for a dashboard', async () => {
    const { app, api } = setUp()
    await api('/pets?limit=1')
    const plain = plainGet(app, '/__sim/events')
    const written: string[] = []
    const close = plain.stream!.open({ write: (chunk) => void written.push(chunk), hasRoom: true, end: () => {} })
    close()
    const data = /event: requests\ndata: (.*)\n/.exec(written.join(''))![1]!
    const { requests } = JSON.parse(data) as { requests: Record<string, unknown>[] }
    expect(requests.map((entry) => entry.sequence)).toEqual([1])
    expect(requests[0]).not.toHaveProperty('request')
    expect(requests[0]).not.toHaveProperty('response')
  })
})

describe('journal filters and waits over HTTP (issue #26)', () => {
  const endpoints = ['/__sim/requests', '/__sim/requests/count', '/__sim/requests/wait', '/__sim/requests.har']

  it.each(
    endpoints.flatMap((endpoint) => [
      [
        endpoint,
        'operation=createPets',
        /operation must be one of listPets, createPet, getPet, listOrders, routeNotFound, methodNotAllowed \(got "createPets"\)/,
      ],
      [endpoint, 'method=FETCH', /method must be one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, CONNECT, TRACE \(got "FETCH"\)/],
      [endpoint, 'path=pets', /path must be a path under \/v1, such as \/v1\/pets\/\*, or start with \* \(got "pets"\)/],
      [endpoint, 'path=/pets/*', /path must be a path under \/v1/],
    ]),
  )('answers %s?%s with a 400 invalid_query_parameter at once', async (endpoint, query, message) => {
    const { send } = setUp()
    // A wait that took it for a filter would answer 404 after 60 s: the test's timeout says it did not.
    const response = await send(`${endpoint}?${query}&${endpoint.endsWith('/wait') ? 'timeoutMs=60000' : ''}`)
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.code).toBe('invalid_query_parameter')
    expect(body.message).toMatch(message)
  })

  it('finds a 4 KB path by a glob of many stars, and answers a glob that cannot match with none', async () => {
    const { send, api } = setUp()
    const long = `/${'a'.repeat(4092)}`
    expect((await api(long)).status).toBe(404)
    const stars = encodeURIComponent(`/v1/${'*a'.repeat(1500)}*!`)
    expect(await (await send(`/__sim/requests/count?path=${stars}`)).json()).toEqual({ count: 0 })
    const waited = await send(`/__sim/requests/wait?path=${stars}&timeoutMs=0`)
    expect(waited.status).toBe(404)
    expect((await waited.json()).code).toBe('request_not_seen')
    const found = await send(`/__sim/requests?path=${encodeURIComponent(`/v1/${'*a'.repeat(1500)}`)}`)
    expect((await found.json()).requests.map((entry: { path: string }) => entry.path)).toEqual([`/v1${long}`])
  })

  it('journals and exports query parameters and headers named like Object.prototype members', async () => {
    const { send } = setUp()
    const names = ['constructor', 'toString', 'hasOwnProperty', '__proto__']
    const query = names.map((name, index) => `${name}=q${index}`).join('&')
    // Pairs, not a record: Fetch's Headers leaves a record's `__proto__` out.
    const headers: Array<[string, string]> = [
      ['authorization', 'Bearer demo-pro-key'],
      ...names.map((name, index): [string, string] => [name, `h${index}`]),
    ]
    expect((await send(`/v1/pets?${query}`, { headers })).status).toBe(200)
    const text = await (await send(`/__sim/requests?path=${encodeURIComponent('/v1/pets?*__proto__=q3')}`)).text()
    const [entry] = JSON.parse(text).requests
    expect(Object.entries(entry.request.query)).toEqual(names.map((name, index) => [name, `q${index}`]))
    expect(names.map((name) => Object.getOwnPropertyDescriptor(entry.request.headers, name.toLowerCase())?.value)).toEqual([
      'h0',
      'h1',
      'h2',
      'h3',
    ])
    const har = await (await send('/__sim/requests.har')).json()
    expect(har.log.entries[0].request.queryString).toEqual(names.map((name, index) => ({ name, value: `q${index}` })))
    expect(har.log.entries[0].request.headers).toEqual(
      expect.arrayContaining(names.map((name, index) => ({ name: name.toLowerCase(), value: `h${index}` }))),
    )
  })

  it(`keeps at most ${defaults.maxPendingWaits} waits pending: one more is 503 too_many_waits, a met one is answered`, async () => {
    const { send, api } = setUp()
    const controllers = Array.from({ length: defaults.maxPendingWaits }, () => new AbortController())
    const pending = controllers.map((controller) =>
      send('/__sim/requests/wait?operation=createPet&timeoutMs=60000', { signal: controller.signal }).catch(() => undefined),
    )
    const refused = await send('/__sim/requests/wait?operation=createPet&timeoutMs=60000')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(await refused.json()).toEqual({
      code: 'too_many_waits',
      message: `At most ${defaults.maxPendingWaits} waits are pending at once; retry in a moment`,
      status: 503,
    })
    await api('/pets?limit=1')
    const met = await send('/__sim/requests/wait?operation=listPets&timeoutMs=60000')
    expect(met.status).toBe(200)
    expect((await met.json()).request.operation).toBe('listPets')
    // The clients go away: their waits end at once, and free their places.
    for (const controller of controllers) controller.abort()
    await Promise.all(pending)
    const again = await send('/__sim/requests/wait?operation=createPet&timeoutMs=0')
    expect(again.status).toBe(404)
    expect((await again.json()).code).toBe('request_not_seen')
  })

  it.each(['direct', 'msw'] as const)('drops a pending wait when its connection closes (Node server, %s engine)', async (engine) => {
    const server = await startServer({ port: 0, host: '127.0.0.1', log: 'silent', engine })
    const port = Number(new URL(server.url).port)
    const connections: RawConnection[] = []
    try {
      for (let index = 0; index < defaults.maxPendingWaits; index++) {
        const connection = await openRawConnection(port)
        connection.send(rawGet('/__sim/requests/wait?operation=createPet&timeoutMs=60000'))
        connections.push(connection)
      }
      const full = await openRawConnection(port)
      connections.push(full)
      full.send(rawGet('/__sim/requests/wait?operation=createPet&timeoutMs=60000'))
      expect((await full.next(5000)).status).toBe(503)
      for (const connection of connections) connection.destroy()
      // The server sees the closes in its next turns; each wait then ends, its place freed.
      let status = 503
      for (let attempt = 0; attempt < 50 && status === 503; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        status = (await fetch(`${server.url}/__sim/requests/wait?operation=createPet&timeoutMs=0`)).status
      }
      expect(status).toBe(404)
    } finally {
      for (const connection of connections) connection.destroy()
      await server.close()
    }
  })
})
