import { get as httpGet } from 'node:http'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../src/node.ts'
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
