import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app/app.ts'
import { createEventStreams } from '../src/app/dashboard/event-stream.ts'
import type { StreamSink } from '../src/core/http/plain-http.ts'
import { createSimulatorCore } from '../src/core/simulator/simulator-core.ts'
import { createManualClock } from '../src/core/time/clock.ts'
import { runCli, startCli } from './support/cli-process.ts'

// Issue #22, items 2 and 3 (the app and core side): defects a hostile review found, each answered as a user sees it.

const loopback = { clientAddress: '127.0.0.1' }
const pro = { Authorization: 'Bearer demo-pro-key' }

describe('a clock option that reads a bad time', () => {
  it('answers an API request with a 500 Error naming the clock, and no NaN header', async () => {
    const app = createApp({ clock: { now: () => Number.NaN } })
    const response = await app.fetch(new Request('http://localhost/v1/pets', { headers: pro }), loopback)
    expect(response.status).toBe(500)
    expect(response.headers.get('x-ratelimit-reset')).toBeNull()
    const body = await response.json()
    expect(body).toMatchObject({ code: 'invalid_clock', status: 500 })
    expect(body.message).toMatch(/clock.*NaN/)
  })

  it('refuses times outside 1970..9999 and fractions of a ms, on the control plane too', async () => {
    for (const reading of [-1, 253_402_300_800_000, 1.5, Number.POSITIVE_INFINITY]) {
      const app = createApp({ clock: { now: () => reading } })
      const response = await app.fetch(new Request('http://localhost/__sim/clock'), loopback)
      expect(response.status).toBe(500)
      expect(await response.json()).toMatchObject({ code: 'invalid_clock' })
    }
  })

  it('ends an open dashboard stream instead of throwing in its timer', async () => {
    let reading = Date.UTC(2030, 0, 1)
    const simulator = createSimulatorCore({ clock: { now: () => reading } })
    const streams = createEventStreams(simulator, { flushMs: 1 })
    const response = streams.respond()
    let ended!: () => void
    const end = new Promise<void>((resolve) => (ended = resolve))
    const written: string[] = []
    const sink: StreamSink = { write: (chunk) => written.push(chunk), hasRoom: true, end: () => ended() }
    response.stream!.open(sink)
    reading = Number.NaN
    simulator.faults.add({ status: 503 })
    await Promise.race([end, new Promise((_, reject) => setTimeout(() => reject(new Error('the stream did not end')), 2000))])
    expect(streams.size).toBe(0)
    expect(written).toHaveLength(1)
    // A new stream is refused up front, as an Error response the lane writes.
    expect(() => streams.respond()).toThrow(expect.objectContaining({ code: 'invalid_clock' }))
  })
})

describe('simulator.store.create', () => {
  it('checks a pet before storing it: a TypeError naming the field, the store unchanged', async () => {
    const app = createApp({ pets: 3 })
    const { store } = app.simulator
    const bad: unknown[] = [
      { name: 'Lost', categoryId: 1, status: 'lost' },
      { name: 42, categoryId: 1 },
      { name: 'Nan', categoryId: Number.NaN },
      { name: '', categoryId: 1 },
      null,
    ]
    for (const pet of bad) {
      expect(() => store.create(pet as never)).toThrow(TypeError)
    }
    expect(() => store.create({ name: 'Lost', categoryId: 1, status: 'lost' as never })).toThrow(/status/)
    expect(() => store.create({ name: 42 as never, categoryId: 1 })).toThrow(/name/)
    expect(store.size).toBe(3)
    const listed = await app.fetch(new Request('http://localhost/v1/pets?limit=100', { headers: pro }), loopback)
    expect((await listed.json()).map((pet: { id: number }) => pet.id)).toEqual([1, 2, 3])
    expect(store.create({ name: 'Rex', categoryId: 2 })).toEqual({ id: 4, name: 'Rex', categoryId: 2, status: 'available' })
  })
})

describe('POST /__sim/clock with fields of the wrong shape', () => {
  it('answers a 400 naming the field, however deep an array is nested, and the clock stays', async () => {
    const app = createApp({ clock: { now: () => Date.UTC(2030, 0, 1) } })
    const deep = (depth: number) => `${'['.repeat(depth)}"1s"${']'.repeat(depth)}`
    for (const [field, value] of [
      ['set', deep(200_000)],
      ['advance', deep(200_000)],
      ['advance', '["90s"]'],
      ['set', '{"at":1}'],
      ['advance', 'true'],
    ] as const) {
      const response = await app.fetch(
        new Request('http://localhost/__sim/clock', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"${field}":${value}}`,
        }),
        loopback,
      )
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body.code).toBe('invalid_body')
      expect(body.message).toMatch(new RegExp(`^${field} must be a string or a number`))
    }
    expect(app.simulator.clock.now()).toBe(Date.UTC(2030, 0, 1))
  })
})

describe('control requests from pages on other sites, without Origin', () => {
  const control = (path: string, headers: Record<string, string>) =>
    createApp({}).fetch(new Request(`http://localhost${path}`, { headers }), loopback)

  it('refuses a cross-site or same-site no-cors GET with a 403 Error body', async () => {
    for (const site of ['cross-site', 'same-site', 'Cross-Site']) {
      for (const path of ['/__sim/state', '/__sim/requests', '/__sim/health', '/__sim/events', '/__sim/']) {
        const response = await control(path, { 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors' })
        expect(response.status).toBe(403)
        expect(await response.json()).toMatchObject({ code: 'foreign_origin', status: 403 })
        expect(response.headers.get('access-control-allow-origin')).toBeNull()
      }
    }
  })

  it("serves the simulator's own pages, the user's navigation, a link to the dashboard, and tools without the header", async () => {
    expect((await control('/__sim/state', { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' })).status).toBe(200)
    expect((await control('/__sim/state', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' })).status).toBe(200)
    expect((await control('/__sim/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).status).toBe(200)
    expect((await control('/__sim/state', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).status).toBe(403)
    expect((await control('/__sim/health', {})).status).toBe(200)
  })
})

describe('moving the clock back', () => {
  it('does not grant a used minute again: the caller stays in its latest window until the clock passes it', async () => {
    const start = Date.UTC(2030, 0, 1, 12, 0, 30)
    const app = createApp({ clock: createManualClock(start), ban: false })
    const free = { Authorization: 'Bearer demo-free-key' }
    const get = () => app.fetch(new Request('http://localhost/v1/pets?limit=1', { headers: free }), loopback)
    const useMinute = async () => {
      for (let index = 0; index < 60; index++) expect((await get()).status).toBe(200)
      expect((await get()).status).toBe(429)
    }
    await useMinute() // 12:00
    app.simulator.clock.advance(60_000)
    await useMinute() // 12:01
    app.simulator.clock.set(start + 10_000) // back to 12:00:40
    const again = await get()
    expect(again.status).toBe(429)
    // The window that binds is 12:01's, which ends at 12:02:00: 80 s away on the clock as it now stands.
    expect(again.headers.get('retry-after')).toBe('80')
    expect(again.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2030, 0, 1, 12, 2) / 1000))
    expect(app.simulator.state().keys.find((key) => key.plan === 'free')?.minute).toMatchObject({ used: 60, remaining: 0 })
    // Past the window, the quota is back; reset() gives fresh windows at once.
    app.simulator.clock.set(Date.UTC(2030, 0, 1, 12, 2))
    expect((await get()).status).toBe(200)
    app.simulator.reset()
    app.simulator.clock.set(start)
    expect((await get()).headers.get('x-ratelimit-remaining')).toBe('59')
  })
})

describe('a reset with requests under way', () => {
  const created = (app: ReturnType<typeof createApp>, body: BodyInit) =>
    app.fetch(
      new Request('http://localhost/v1/pets', {
        method: 'POST',
        headers: { ...pro, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
      loopback,
    )

  it('journals and counts none of the requests that began before it', async () => {
    const app = createApp({ pets: 5, latency: 500 })
    const answers = Array.from({ length: 50 }, (_, index) => created(app, JSON.stringify({ name: `Early ${index}`, categoryId: 1 })))
    // Reset once every pet is stored and its answer waits out the latency (bounded: 2 s at most).
    for (let waited = 0; app.simulator.store.size < 55 && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(app.simulator.journal.entries()).toEqual([])
    app.simulator.reset()
    const responses = await Promise.all(answers)
    // Answered (the pets were created before the reset, which removed them), but not journaled after it.
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(201))
    expect(app.simulator.journal.entries()).toEqual([])
    expect(app.simulator.state().keys.find((key) => key.plan === 'pro')?.minute).toMatchObject({ used: 0 })
    expect(app.simulator.store.size).toBe(5)
    // The state after the reset is its own: the next pet gets the first id again, and is journaled.
    const next = await created(app, JSON.stringify({ name: 'After', categoryId: 1 }))
    expect(await next.json()).toMatchObject({ id: 6, name: 'After' })
    expect(app.simulator.journal.entries()).toHaveLength(1)
  })

  it('stores nothing from a createPet whose body arrives after it: 503 simulator_reset', async () => {
    const app = createApp({ pets: 5 })
    let send!: ReadableStreamDefaultController<Uint8Array>
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = controller
      },
    })
    const answer = created(app, body)
    await new Promise((resolve) => setTimeout(resolve, 5))
    app.simulator.reset()
    send.enqueue(new TextEncoder().encode(JSON.stringify({ name: 'Late', categoryId: 1 })))
    send.close()
    const response = await answer
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ code: 'simulator_reset', status: 503 })
    expect(app.simulator.store.size).toBe(5)
    expect(app.simulator.journal.entries()).toEqual([])
  })
})

describe('pages of other origins (the default: pages of this machine only)', () => {
  const foreign = 'https://evil.example'
  const call = (app: ReturnType<typeof createApp>, origin: string, init: RequestInit = {}, path = '/v1/pets?limit=1') =>
    app.fetch(new Request(`http://localhost${path}`, { ...init, headers: { ...pro, origin, ...init.headers } }), loopback)

  it('refuses a foreign page with 403 origin_not_allowed naming the flag, no CORS grant, nothing counted', async () => {
    const app = createApp({ pets: 3 })
    const response = await call(app, foreign)
    expect(response.status).toBe(403)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const body = await response.json()
    expect(body).toMatchObject({ code: 'origin_not_allowed', status: 403 })
    expect(body.message).toContain(`--cors-origin ${foreign}`)
    const preflight = await call(app, foreign, { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST' } }, '/v1/pets')
    expect(preflight.status).toBe(403)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    const created = await call(app, foreign, { method: 'POST', body: '{"name":"Spam","categoryId":1}' }, '/v1/pets')
    expect(created.status).toBe(403)
    expect(app.simulator.store.size).toBe(3)
    // Journaled as refused (issue 26), under the key they sent, and counted nowhere.
    const journaled = app.simulator.journal.entries()
    expect(journaled.map(({ method, status, operation, plan }) => ({ method, status, operation, plan }))).toEqual([
      { method: 'GET', status: 403, operation: 'listPets', plan: 'pro' },
      { method: 'OPTIONS', status: 403, operation: 'methodNotAllowed', plan: 'pro' },
      { method: 'POST', status: 403, operation: 'createPet', plan: 'pro' },
    ])
    expect(JSON.parse(journaled[0]!.response.body!.text)).toMatchObject({ code: 'origin_not_allowed', status: 403 })
    expect(app.simulator.state().keys.find((key) => key.plan === 'pro')?.minute).toMatchObject({ used: 0 })
  })

  it('cannot get a key banned from a foreign page', async () => {
    const app = createApp({ keys: { 'tiny-key': 'enterprise:1/1000' } })
    for (let index = 0; index < 30; index++) {
      await app.fetch(new Request('http://localhost/v1/pets', { headers: { Authorization: 'Bearer tiny-key', origin: foreign } }), loopback)
    }
    const own = await app.fetch(new Request('http://localhost/v1/pets', { headers: { Authorization: 'Bearer tiny-key' } }), loopback)
    expect(own.status).toBe(200)
  })

  it('grants pages of this machine, any port, as before', async () => {
    const app = createApp({})
    for (const origin of [
      'http://localhost:5173',
      'https://localhost',
      'http://app.localhost:3000',
      'http://127.0.0.1:8080',
      'http://[::1]:4000',
    ]) {
      const response = await call(app, origin)
      expect(response.status, origin).toBe(200)
      expect(response.headers.get('access-control-allow-origin')).toBe(origin)
    }
    for (const origin of ['http://localhost.evil.example', 'http://127.0.0.1.evil.example', 'null', 'file://']) {
      expect((await call(app, origin)).status, origin).toBe(403)
    }
  })

  it('grants the origins named in corsOrigins, or any with *', async () => {
    const named = createApp({ corsOrigins: ['http://App.test:5173/'] })
    const allowed = await call(named, 'http://app.test:5173')
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://app.test:5173')
    expect((await call(named, 'http://app.test:5174')).status).toBe(403)
    expect((await call(named, 'http://localhost:5173')).status).toBe(200)
    const any = createApp({ corsOrigins: ['*'] })
    expect((await call(any, foreign)).headers.get('access-control-allow-origin')).toBe(foreign)
    expect(() => createApp({ corsOrigins: ['http://app.test:5173/path'] })).toThrow(/Not an origin: "http:\/\/app.test:5173\/path"/)
  })
})

describe('the store bound (maxPets)', () => {
  it('answers createPet past it with 507 store_full, storing nothing, until a reset', async () => {
    const app = createApp({ pets: 3, maxPets: 2 })
    const create = (headers: Record<string, string> = {}) =>
      app.fetch(
        new Request('http://localhost/v1/pets', {
          method: 'POST',
          headers: { ...pro, 'content-type': 'application/json', ...headers },
          body: '{"name":"Rex","categoryId":1}',
        }),
        loopback,
      )
    expect((await create()).status).toBe(201)
    expect((await create()).status).toBe(201)
    const full = await create()
    expect(full.status).toBe(507)
    expect(full.headers.get('x-ratelimit-remaining')).not.toBeNull()
    expect(await full.json()).toMatchObject({ code: 'store_full', status: 507 })
    expect(app.simulator.store.size).toBe(5)
    expect(() => app.simulator.store.create({ name: 'Direct', categoryId: 1 })).toThrow(RangeError)
    const forced = await create({ prefer: 'code=507' })
    expect(forced.status).toBe(507)
    app.simulator.reset()
    expect((await create()).status).toBe(201)
    expect(() => createApp({ maxPets: -1 })).toThrow(/maxPets/)
  })
})

describe('the CLI: --cors-origin, PETSTORE_SIM_CORS_ORIGIN and --max-pets', () => {
  it('refuses foreign pages on both engines unless allowed, and bounds the created pets', async () => {
    for (const engine of ['direct', 'msw']) {
      const cli = await startCli(
        ['--port', '0', '--log', 'silent', '--engine', engine, '--max-pets', '1', '--cors-origin', 'http://app.test:5173'],
        {
          PETSTORE_SIM_CORS_ORIGIN: 'https://preview.example',
        },
      )
      try {
        const get = (origin: string) => fetch(`${cli.apiUrl}/pets?limit=1`, { headers: { ...pro, origin } })
        const refused = await get('https://evil.example')
        expect(refused.status, engine).toBe(403)
        expect((await refused.json()).code).toBe('origin_not_allowed')
        expect(refused.headers.get('access-control-allow-origin')).toBeNull()
        // The flag wins over the environment variable, as for every flag.
        expect((await get('http://app.test:5173')).headers.get('access-control-allow-origin')).toBe('http://app.test:5173')
        expect((await get('http://localhost:3000')).status).toBe(200)
        const create = () =>
          fetch(`${cli.apiUrl}/pets`, {
            method: 'POST',
            headers: { ...pro, 'content-type': 'application/json' },
            body: '{"name":"Rex","categoryId":1}',
          })
        expect((await create()).status).toBe(201)
        expect((await create()).status, engine).toBe(507)
      } finally {
        await cli.stop()
      }
    }
    const fromEnvironment = await startCli(['--port', '0', '--log', 'silent'], {
      PETSTORE_SIM_CORS_ORIGIN: 'https://preview.example,http://app.test:5173',
    })
    try {
      const response = await fetch(`${fromEnvironment.apiUrl}/pets?limit=1`, { headers: { ...pro, origin: 'https://preview.example' } })
      expect(response.headers.get('access-control-allow-origin')).toBe('https://preview.example')
    } finally {
      await fromEnvironment.stop()
    }
  })

  it('refuses a --cors-origin that is not an origin, naming it (exit 2)', async () => {
    const cli = runCli(['--port', '0', '--cors-origin', 'http://app.test:5173/path'])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toContain('Not an origin: "http://app.test:5173/path"')
  })
})
