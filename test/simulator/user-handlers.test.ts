import { get as httpGet } from 'node:http'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import type { RequestHandler } from 'msw'

// The standalone server with your own MSW handlers (`handlers`, the CLI's --handlers), against what a hostile or
// careless handler does (issues #20 and #22): bodies that never end or that break, bodies read before the simulator.
// Servers on 127.0.0.1 port 0; every wait bounded.

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close(100)))
})

async function serve(handlers: RequestHandler[]): Promise<RunningServer> {
  const server = await startServer({ port: 0, host: '127.0.0.1', log: 'silent', app: createNodeApp(), handlers })
  servers.push(server)
  return server
}

/** Resolves once `check()` is true, or rejects after `ms`. */
async function eventually(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe("a handler's response body", () => {
  it('that never ends is streamed as it comes, and cancelled when the client leaves', async () => {
    let pulled = 0
    let cancelled = false
    const chunk = new Uint8Array(64 * 1024).fill(120)
    const server = await serve([
      http.get('*/endless', () => {
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled += 1
            controller.enqueue(chunk)
          },
          cancel() {
            cancelled = true
          },
        })
        return new HttpResponse(body, { headers: { 'Content-Type': 'application/octet-stream' } })
      }),
    ])
    const controller = new AbortController()
    const response = await fetch(`${server.url}/endless`, { signal: AbortSignal.any([controller.signal, AbortSignal.timeout(3000)]) })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-length')).toBeNull()
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(first.value!.byteLength).toBeGreaterThan(0)
    controller.abort()
    await eventually(() => cancelled)
    const pulledAtCancel = pulled
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(pulled).toBe(pulledAtCancel)
  })

  it('that is not read by its client is pulled no faster than the socket takes it', async () => {
    let pulled = 0
    const chunk = new Uint8Array(64 * 1024)
    const server = await serve([
      http.get(
        '*/endless',
        () =>
          new HttpResponse(
            new ReadableStream<Uint8Array>({
              pull(controller) {
                pulled += 1
                controller.enqueue(chunk)
              },
            }),
          ),
      ),
    ])
    const response = await fetch(`${server.url}/endless`, { signal: AbortSignal.timeout(3000) })
    expect(response.status).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 500))
    // Socket and client buffers hold a few MiB at most: far below the GiB an unbounded pull reaches in 500 ms.
    expect(pulled * chunk.byteLength).toBeLessThan(64 * 1024 * 1024)
    await response.body!.cancel()
  })

  for (const [name, before] of [
    ['before any byte', 0],
    ['after some bytes', 3],
  ] as const) {
    it(`that breaks ${name} breaks the connection instead of looking complete`, async () => {
      const server = await serve([
        http.get('*/broken', () => {
          let sent = 0
          const body = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (sent++ < before) controller.enqueue(new TextEncoder().encode('chunk'))
              else controller.error(new Error('the upstream went away'))
            },
          })
          return new HttpResponse(body, { headers: { 'Content-Type': 'text/plain' } })
        }),
      ])
      const outcome = await fetch(`${server.url}/broken`, { signal: AbortSignal.timeout(3000) })
        .then(async (response) => ({
          status: response.status,
          length: response.headers.get('content-length'),
          text: await response.text(),
        }))
        .catch((error: unknown) => ({ error: String(error) }))
      expect(outcome).toHaveProperty('error')
    })
  }

  it('that is long and ends is written whole, chunked', async () => {
    const total = 1024 * 1024
    const server = await serve([
      http.get('*/long', () => {
        let sent = 0
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent >= total) controller.close()
            else controller.enqueue(new Uint8Array(64 * 1024).fill(97))
            sent += 64 * 1024
          },
        })
        return new HttpResponse(body)
      }),
    ])
    const response = await fetch(`${server.url}/long`, { signal: AbortSignal.timeout(3000) })
    expect((await response.arrayBuffer()).byteLength).toBe(total)
  })
})

describe('the control plane and the body, with handlers in front', () => {
  it("keeps the control plane's guard for a handler that answers under /__sim", async () => {
    const server = await serve([http.all('*/__sim/*', () => HttpResponse.json({ mocked: true }))])
    const headers = { 'Content-Type': 'application/json' }
    const foreignOrigin = await fetch(`${server.url}/__sim/reset`, {
      method: 'POST',
      headers: { ...headers, Origin: 'https://evil.example' },
      body: '{}',
      signal: AbortSignal.timeout(3000),
    })
    expect(foreignOrigin.status).toBe(403)
    expect(await foreignOrigin.json()).toMatchObject({ code: 'foreign_origin' })
    // fetch cannot send another Host: node:http can (DNS rebinding: a foreign name resolving to 127.0.0.1).
    const foreignHost = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpGet(`${server.url}/__sim/state`, { headers: { Host: 'rebound.example' }, timeout: 3000 }, (response) => {
        let body = ''
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
      })
      request.on('error', reject).on('timeout', () => request.destroy(new Error('timed out')))
    })
    expect(foreignHost.status).toBe(403)
    expect(JSON.parse(foreignHost.body)).toMatchObject({ code: 'control_forbidden' })
    // Admitted, the handler answers as before.
    const own = await fetch(`${server.url}/__sim/state`, { signal: AbortSignal.timeout(3000) })
    expect(await own.json()).toEqual({ mocked: true })
  })

  it('leaves the body to the simulator after a catch-all handler read it', async () => {
    const seen: string[] = []
    const server = await serve([
      http.all('*', async ({ request }) => {
        seen.push(await request.text())
        return undefined
      }),
    ])
    const created = await fetch(`${server.url}/v1/pets`, {
      method: 'POST',
      headers: { Authorization: 'Bearer demo-pro-key', 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":2}',
      signal: AbortSignal.timeout(3000),
    })
    expect(created.status).toBe(201)
    expect(await created.json()).toMatchObject({ name: 'Rex', categoryId: 2 })
    expect(seen).toEqual(['{"name":"Rex","categoryId":2}'])
  })
})

/** A promise and its resolve (Promise.withResolvers, which the TypeScript lib of this project does not have yet). */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((settle) => {
    resolve = settle
  })
  return { promise, resolve }
}

describe("a handler's stream, written as the handler writes it (issue 26)", () => {
  /** A handler body that sends one chunk, then the next only once `go` is called: it ends only if the first reached the client. */
  function stepwise(chunks: readonly string[]) {
    const steps = chunks.map(() => deferred<void>())
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const [index, chunk] of chunks.entries()) {
          if (index > 0) await steps[index - 1]!.promise
          controller.enqueue(new TextEncoder().encode(chunk))
        }
        controller.close()
      },
    })
    return { body, go: (index: number) => steps[index]!.resolve() }
  }

  for (const [name, contentType, chunks] of [
    ['a plain stream (msw streaming example)', 'text/plain', ['Brand', 'New', 'World']],
    ['server-sent events', 'text/event-stream', ['data: one\n\n', 'data: two\n\n']],
    ['NDJSON', 'application/x-ndjson', ['{"n":1}\n', '{"n":2}\n']],
  ] as const) {
    it(`reaches the client chunk by chunk: ${name}`, async () => {
      let step: ReturnType<typeof stepwise> | undefined
      const server = await serve([
        http.get('*/stream', () => {
          step = stepwise(chunks)
          return new HttpResponse(step.body, { headers: { 'Content-Type': contentType } })
        }),
      ])
      const response = await fetch(`${server.url}/stream`, { signal: AbortSignal.timeout(3000) })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(contentType)
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
      const received: string[] = []
      for (let index = 0; index < chunks.length; index++) {
        // Each chunk must arrive before the handler writes the next: held back, this read times out.
        let text = ''
        while (text.length < chunks[index]!.length) text += (await reader.read()).value ?? ''
        received.push(text)
        step!.go(index)
      }
      expect(received).toEqual(chunks)
      expect((await reader.read()).done).toBe(true)
    })
  }

  it('ignores a late enqueue from a timer after the client left, and keeps serving', async () => {
    const late = deferred<string>()
    let sendLate: (() => void) | undefined
    const server = await serve([
      http.get('*/ticker', () => {
        const body = new ReadableStream<Uint8Array>({
          // No cancel hook: the handler does not know its client left.
          start(controller) {
            controller.enqueue(new TextEncoder().encode('tick\n'))
            sendLate = () => {
              try {
                controller.enqueue(new TextEncoder().encode('late tick\n'))
                controller.close()
                late.resolve('enqueued')
              } catch (error) {
                // The simulator cancelled the stream: in a handler's timer this throw ended the process (exit 1).
                late.resolve(`threw ${(error as Error).message}`)
              }
            }
          },
        })
        return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } })
      }),
      http.get('*/after', () => HttpResponse.text('still here')),
    ])
    const controller = new AbortController()
    const response = await fetch(`${server.url}/ticker`, { signal: AbortSignal.any([controller.signal, AbortSignal.timeout(3000)]) })
    const reader = response.body!.getReader()
    expect((await reader.read()).value!.byteLength).toBeGreaterThan(0)
    controller.abort()
    // The server sees the client go; then the handler's timer fires.
    await new Promise((resolve) => setTimeout(resolve, 200))
    sendLate!()
    expect(await late.promise).toBe('enqueued')
    const after = await fetch(`${server.url}/after`, { signal: AbortSignal.timeout(3000) })
    expect(await after.text()).toBe('still here')
  })
})
