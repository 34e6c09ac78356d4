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
