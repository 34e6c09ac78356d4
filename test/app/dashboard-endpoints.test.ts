import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { gzipSync } from 'node:zlib'
import { setupServer } from 'msw/node'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp as createPortableApp } from '../../src/app/app.ts'
import { dashboardPage } from '../../src/app/dashboard/dashboard-page.ts'
import { createEventStreams } from '../../src/app/dashboard/event-stream.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import type { StreamSink } from '../../src/core/http/plain-http.ts'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import type { SimulatorStatus } from '../../src/core/state/simulator-status.ts'
import { createControlHandlers } from '../../src/handlers/control-handlers.ts'
import { createNodeApp, startServer, type RunningServer, type StartServerOptions } from '../../src/node.ts'

// The dashboard's endpoints (issue #12, items 1 to 4): the page, GET /__sim/state and the event stream
// GET /__sim/events, on every lane, behind the control plane's rules. Loopback only; every wait is bounded.

const servers: RunningServer[] = []
const cleanups: Array<() => void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  await Promise.all(servers.splice(0).map((server) => server.close(200)))
})

async function start(
  appOptions: Parameters<typeof createNodeApp>[0] = {},
  serverOptions: Partial<StartServerOptions> = {},
): Promise<RunningServer> {
  const server = await startServer({ app: createNodeApp(appOptions), port: 0, host: '127.0.0.1', log: 'silent', ...serverOptions })
  servers.push(server)
  return server
}

/** A request with any headers (Host, Origin), over node:http; the body as text. */
function send(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers }, (incoming) => {
      // An event stream never ends by itself: its first chunk is enough here.
      const isStream = String(incoming.headers['content-type']).startsWith('text/event-stream')
      let text = ''
      incoming.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk
        if (isStream) {
          incoming.destroy()
          resolve({ status: incoming.statusCode!, headers: incoming.headers, text })
        }
      })
      incoming.on('end', () => resolve({ status: incoming.statusCode!, headers: incoming.headers, text }))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
}

interface ParsedEvent {
  readonly event: string
  readonly data: any
}

/** Reads an event stream with fetch, as the page does; `next(type)` waits (bounded) for the next event of a type. */
async function openEvents(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController()
  const response = await fetch(url, { headers, signal: controller.signal })
  const events: ParsedEvent[] = []
  const waiters: Array<() => void> = []
  let ended = false
  const reading = (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        buffer += value
        const blocks = buffer.split('\n\n')
        buffer = blocks.pop()!
        for (const block of blocks) {
          const lines = block.split('\n')
          const event = lines.find((line) => line.startsWith('event: '))?.slice(7)
          const data = lines
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n')
          if (event !== undefined) events.push({ event, data: JSON.parse(data) })
        }
        for (const wake of waiters.splice(0)) wake()
      }
    } catch {
      // Aborted by the test.
    }
    ended = true
    for (const wake of waiters.splice(0)) wake()
  })()
  let read = 0
  const next = async (type: string, timeoutMs = 3000): Promise<ParsedEvent> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const index = events.findIndex((event, position) => position >= read && event.event === type)
      if (index !== -1) {
        read = index + 1
        return events[index]!
      }
      if (ended) throw new Error(`the stream ended before an event "${type}"`)
      if (Date.now() > deadline)
        throw new Error(`no event "${type}" within ${timeoutMs} ms; got ${events.map((event) => event.event).join(', ')}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50)
        waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }
  const close = () => controller.abort()
  cleanups.push(close)
  return { response, events, next, close, ended: () => ended, reading }
}

const json = { 'content-type': 'application/json' }
const pro = { authorization: 'Bearer demo-pro-key' }

describe('GET /__sim/ serves the dashboard', () => {
  it('as one self-contained page with a strict policy, at /__sim/ and /__sim', async () => {
    const server = await start()
    for (const path of ['/__sim/', '/__sim']) {
      const page = await send(`${server.url}${path}`)
      expect(page.status, path).toBe(200)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.headers['cache-control']).toBe('no-store')
      expect(page.headers['x-content-type-options']).toBe('nosniff')
      expect(page.headers['x-frame-options']).toBe('DENY')
      const policy = String(page.headers['content-security-policy'])
      const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1]
      expect(nonce).toBeDefined()
      expect(policy).toContain("connect-src 'self'")
      expect(policy).toContain("frame-ancestors 'none'")
      expect(policy).not.toContain('unsafe-inline')
      expect(page.text).toContain(`<script nonce="${nonce}">`)
      expect(page.text).toContain(`<style nonce="${nonce}">`)
      // Nothing from the network: no external script, style, font or image.
      expect(page.text).not.toMatch(/(src|href)="https?:/)
      expect(page.text).not.toMatch(/@import|url\(/)
    }
    const first = String((await send(`${server.url}/__sim/`)).headers['content-security-policy'])
    const second = String((await send(`${server.url}/__sim/`)).headers['content-security-policy'])
    expect(first).not.toBe(second)
  })

  it('is small: under 50 kB gzipped (issue #12; `npm run size` prints it)', () => {
    expect(gzipSync(dashboardPage()).length).toBeLessThan(50_000)
  })

  it('is the size docs/dashboard.md gives, within a tenth (issue #31: the page said 24 kB when it was 33.7)', () => {
    const page = readFileSync(new URL('../../docs/dashboard.md', import.meta.url), 'utf8')
    const figures = /one page served by the simulator itself \((\d+(?:\.\d+)?) kB, (\d+(?:\.\d+)?) kB gzipped/.exec(page)
    expect(figures, 'the size in docs/dashboard.md').not.toBeNull()
    const [raw, gzipped] = [Number(figures![1]) * 1000, Number(figures![2]) * 1000]
    const measured = [Buffer.byteLength(dashboardPage()), gzipSync(dashboardPage()).length]
    expect(Math.abs(measured[0]! - raw) / measured[0]!, `raw: ${measured[0]} bytes, the page says ${raw}`).toBeLessThan(0.1)
    expect(Math.abs(measured[1]! - gzipped) / measured[1]!, `gzipped: ${measured[1]} bytes, the page says ${gzipped}`).toBeLessThan(0.1)
  })

  it('labels every control of the page', async () => {
    const server = await start()
    const { text } = await send(`${server.url}/__sim/`)
    const ids = [...text.matchAll(/<(?:input|select)\b[^>]*\bid="([^"]+)"/g)].map((match) => match[1]!)
    for (const id of ids) expect(text, id).toMatch(new RegExp(`<label for="${id}"|aria-label`))
    // Inputs without an id sit inside their <label>.
    const unlabelled = [...text.matchAll(/<label>[^<]*<(input|select)/g)]
    expect(unlabelled.length).toBeGreaterThan(0)
    expect(text).toContain('<html lang="en">')
  })
})

describe('the dashboard follows the control plane rules', () => {
  it('refuses a foreign Origin on the page, the state and the stream', async () => {
    const server = await start()
    for (const path of ['/__sim/', '/__sim', '/__sim/state', '/__sim/events']) {
      const response = await send(`${server.url}${path}`, { origin: 'https://evil.example' })
      expect(response.status, path).toBe(403)
      expect(JSON.parse(response.text)).toMatchObject({ code: 'foreign_origin' })
      expect(response.headers['access-control-allow-origin'], path).toBeUndefined()
    }
    // Its own origin is fine.
    expect((await send(`${server.url}/__sim/state`, { origin: server.url })).status).toBe(200)
  })

  it('refuses a foreign Host name without an admin token (DNS rebinding)', async () => {
    const server = await start()
    const port = new URL(server.url).port
    for (const path of ['/__sim/', '/__sim/state', '/__sim/events']) {
      const response = await send(`${server.url}${path}`, { host: `attacker.example:${port}` })
      expect(response.status, path).toBe(403)
      expect(JSON.parse(response.text)).toMatchObject({ code: 'control_forbidden' })
    }
  })

  it('with an admin token: the page (no data in it) loads and asks for the token; state and stream need it', async () => {
    const server = await start({ control: { adminToken: 'sesame' } })
    const page = await send(`${server.url}/__sim/`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('id="token-dialog"')
    expect(page.text).toContain('sessionStorage')
    for (const path of ['/__sim/state', '/__sim/events']) {
      const refused = await send(`${server.url}${path}`)
      expect(refused.status, path).toBe(401)
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'admin_unauthorized' })
      const allowed = await send(`${server.url}${path}`, { authorization: 'Bearer sesame' })
      expect(allowed.status, path).toBe(200)
    }
    // Still no page for a foreign origin, token or not.
    expect((await send(`${server.url}/__sim/`, { origin: 'https://evil.example' })).status).toBe(403)
  })
})

describe('GET /__sim/state', () => {
  it('is simulator.state() as JSON', async () => {
    const server = await start({ clock: createManualClock('2030-06-15T10:00:30Z') })
    await fetch(`${server.apiUrl}/pets?limit=1`, { headers: pro })
    const response = await send(`${server.url}/__sim/state`)
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('application/json')
    const state = JSON.parse(response.text) as SimulatorStatus
    expect(state).toEqual(JSON.parse(JSON.stringify(server.simulator.state())))
    expect(state.keys.find((key) => key.plan === 'pro')!.minute).toEqual({
      limit: 300,
      used: 1,
      remaining: 299,
      resetAt: '2030-06-15T10:01:00.000Z',
    })
  })
})

describe('GET /__sim/state: what the dashboard offers', () => {
  it('lists the operations of the route table and the transport fault kinds, each one a rule the simulator takes', async () => {
    const server = await start()
    const state = JSON.parse((await send(`${server.url}/__sim/state`)).text) as SimulatorStatus
    expect(state.operations).toEqual([
      { operation: 'listPets', method: 'GET', path: '/pets' },
      { operation: 'createPet', method: 'POST', path: '/pets' },
      { operation: 'getPet', method: 'GET', path: '/pets/{petId}' },
      { operation: 'listOrders', method: 'GET', path: '/store/orders' },
    ])
    expect(state.faultKinds.map(({ kind, operationRuns, answerSent }) => ({ kind, operationRuns, answerSent }))).toEqual([
      { kind: 'reset', operationRuns: false, answerSent: false },
      { kind: 'hang', operationRuns: false, answerSent: false },
      { kind: 'truncate', operationRuns: true, answerSent: true },
      { kind: 'empty', operationRuns: true, answerSent: true },
    ])
    for (const fault of state.faultKinds) expect(fault.description, fault.kind).toMatch(/\w/)
    // Every operation and every kind listed is one a fault rule accepts.
    for (const { operation } of state.operations) {
      for (const { kind } of state.faultKinds) {
        const id = server.simulator.faults.add({ operation, fault: kind })
        expect(server.simulator.faults.remove(id), `${operation} ${kind}`).toBe(true)
      }
    }
  })
})

describe('GET /__sim/events', () => {
  it('opens with the state and the journal, then sends requests and changes as they happen', async () => {
    const server = await start({ clock: createManualClock('2030-06-15T10:00:30Z') })
    await fetch(`${server.apiUrl}/pets?limit=1`, { headers: pro })
    const stream = await openEvents(`${server.url}/__sim/events`)
    expect(stream.response.status).toBe(200)
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(stream.response.headers.get('cache-control')).toBe('no-store')
    expect((await stream.next('state')).data.requests.total).toBe(1)
    expect((await stream.next('requests')).data.requests.map((entry: { sequence: number }) => entry.sequence)).toEqual([1])

    await fetch(`${server.apiUrl}/pets/1`, { headers: pro })
    await fetch(`${server.apiUrl}/pets`, { headers: { authorization: 'Bearer nope' } })
    const batch = (await stream.next('requests')).data
    expect(batch.requests.map((entry: { operation: string; status: number }) => [entry.operation, entry.status])).toEqual([
      ['getPet', 200],
      ['listPets', 401],
    ])
    expect(batch.skipped).toBe(0)
    expect((await stream.next('state')).data.keys.find((key: { plan: string }) => key.plan === 'pro').minute.used).toBe(2)

    await fetch(`${server.url}/__sim/clock`, { method: 'POST', headers: json, body: '{"advance":"1m","freeze":true}' })
    const moved = (await stream.next('state')).data as SimulatorStatus
    expect(moved.clock).toMatchObject({ now: '2030-06-15T10:01:30.000Z', frozen: true })
    expect(moved.keys.find((key) => key.plan === 'pro')!.minute.used).toBe(0)

    await fetch(`${server.url}/__sim/faults`, { method: 'POST', headers: json, body: '{"status":503,"times":1}' })
    expect((await stream.next('state')).data.faults).toEqual([{ id: 'f1', status: 503, remaining: 1 }])

    await fetch(`${server.url}/__sim/reset`, { method: 'POST', headers: json })
    await stream.next('reset')
    expect((await stream.next('state')).data.requests.total).toBe(0)
  })

  it('batches a burst into few writes, keeping the newest and counting the rest', async () => {
    const simulator = createSimulatorCore({ clock: createManualClock('2030-06-15T10:00:30Z') })
    const app = createPortableApp({ simulator, control: { events: { flushMs: 50, maxBatch: 5 } } })
    const response = await app.fetch(new Request('http://localhost/__sim/events'), { clientAddress: '127.0.0.1' })
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    cleanups.push(() => void reader.cancel())
    const opening = (await reader.read()).value!
    expect(opening).toContain('event: state')
    for (let index = 0; index < 12; index++) await app.fetch(new Request('http://localhost/v1/pets?limit=1', { headers: pro }))
    const batch = (await reader.read()).value!
    const data = JSON.parse(/event: requests\ndata: (.*)\n/.exec(batch)![1]!)
    expect(data.skipped).toBe(7)
    expect(data.requests.map((entry: { sequence: number }) => entry.sequence)).toEqual([8, 9, 10, 11, 12])
    expect(batch).toContain('event: state')
    // The reader goes away: the simulator has no listener left.
    await reader.cancel()
    expect(simulator.events.size).toBe(0)
  })

  it('drops a client that takes nothing, and sends heartbeats to one that does', async () => {
    const simulator = createSimulatorCore()
    const streams = createEventStreams(simulator, { flushMs: 10, stallMs: 60, heartbeatMs: 30 })
    const written: string[] = []
    let hasRoom = true
    let ended = false
    const sink: StreamSink = {
      write: (chunk) => void written.push(chunk),
      get hasRoom() {
        return hasRoom
      },
      end: () => {
        ended = true
      },
    }
    const close = streams.respond().stream!.open(sink)
    cleanups.push(close)
    expect(streams.size).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(written.filter((chunk) => chunk === ': ping\n\n').length).toBeGreaterThanOrEqual(1)
    hasRoom = false
    simulator.clock.advance(1)
    const deadline = Date.now() + 2000
    while (!ended && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(ended).toBe(true)
    expect(streams.size).toBe(0)
    expect(simulator.events.size).toBe(0)
  })

  it('cuts a stalled client off where the lane can (issue #20): an ended stream waits, with what was written, for a reader', async () => {
    const simulator = createSimulatorCore()
    const streams = createEventStreams(simulator, { flushMs: 10, stallMs: 60 })
    const calls: string[] = []
    const sink: StreamSink = { write: () => {}, hasRoom: false, end: () => calls.push('end'), abort: () => calls.push('abort') }
    cleanups.push(streams.respond().stream!.open(sink))
    simulator.clock.advance(1)
    const deadline = Date.now() + 2000
    while (calls.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(calls).toEqual(['abort'])
    expect(streams.size).toBe(0)
    // A drain still ends streams in order.
    cleanups.push(streams.respond().stream!.open(sink))
    streams.closeAll()
    expect(calls).toEqual(['abort', 'end'])
  })

  it('lets go of the simulator when the client disconnects', async () => {
    const server = await start()
    const stream = await openEvents(`${server.url}/__sim/events`)
    await stream.next('state')
    expect(server.simulator.events.size).toBe(1)
    stream.close()
    const deadline = Date.now() + 2000
    while (server.simulator.events.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(server.simulator.events.size).toBe(0)
  })

  it('does not hold up a drain: close() ends open streams at once', async () => {
    for (const engine of ['direct', 'msw'] as const) {
      const server = await startServer({ app: createNodeApp(), port: 0, host: '127.0.0.1', log: 'silent', engine })
      const stream = await openEvents(`${server.url}/__sim/events`)
      await stream.next('state')
      const started = performance.now()
      await server.close(5000)
      expect(performance.now() - started, engine).toBeLessThan(1000)
      await stream.reading
      expect(stream.ended(), engine).toBe(true)
      expect(server.simulator.events.size, engine).toBe(0)
    }
  })

  it('streams through the msw engine as on the direct lane', async () => {
    const server = await start({}, { engine: 'msw' })
    const stream = await openEvents(`${server.url}/__sim/events`)
    await stream.next('state')
    expect((await stream.next('requests')).data.requests).toEqual([])
    await fetch(`${server.apiUrl}/pets?limit=1`, { headers: pro })
    expect((await stream.next('requests')).data.requests.length).toBeGreaterThan(0)
  })

  it('streams in-process through the control MSW handlers', async () => {
    const simulator = createSimulatorCore()
    const server = setupServer(...createControlHandlers(simulator))
    server.listen({ onUnhandledFrame: 'error' })
    cleanups.push(() => server.close())
    const state = await (await fetch('http://petstore.test/__sim/state')).json()
    expect(state.keys).toHaveLength(4)
    const stream = await openEvents('http://petstore.test/__sim/events')
    await stream.next('state')
    simulator.clock.advance(60_000)
    expect((await stream.next('state')).data.clock.epochMs).toBeGreaterThan(state.clock.epochMs + 59_000)
    const page = await fetch('http://petstore.test/__sim/')
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
  })
})
