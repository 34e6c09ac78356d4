// docs/in-process.md and docs/in-process-speed.md, "A fetch captured before listen()": on msw 3, `setupServer` catches
// the requests of the global `fetch` as it is when `listen()` runs; a reference taken before (a client module that keeps
// `const fetchImpl = globalThis.fetch` at import) calls the real one, which msw never sees (issue 37). The request goes
// out to the network: here, to a server on loopback that answers what the simulator never would. The remedy:
// `simulator.fetch`, which needs no interception at all.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.ts'

// Taken when this module is loaded, before any `listen()`: what a client module does at import.
const capturedAtImport = globalThis.fetch

let real: Server
let baseUrl = ''
beforeAll(async () => {
  real = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('the real network'))
  await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(real.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise((resolve) => real.close(resolve)))

describe('a fetch captured before msw 3 listens', () => {
  it('escapes setupServer: the request reaches the network, and the simulator never sees it', async () => {
    const simulator = createSimulator({ baseUrl })
    const server = setupServer(...simulator.handlers)
    server.listen({ onUnhandledFrame: 'error' })
    try {
      const headers = { Authorization: 'Bearer demo-pro-key' }
      // The global fetch, read now: the simulator answers.
      const caught = await globalThis.fetch(`${baseUrl}/pets?limit=1`, { headers })
      expect(caught.status).toBe(200)
      expect(await caught.json()).toHaveLength(1)
      // The reference taken at import: the real server answers, and the journal has only the first request.
      const escaped = await capturedAtImport(`${baseUrl}/pets?limit=1`, { headers })
      expect(await escaped.text()).toBe('the real network')
      expect(simulator.journal.entries()).toHaveLength(1)
    } finally {
      server.close()
    }
  })

  it('is no trap for simulator.fetch: the client is handed the simulator, and no interception is involved', async () => {
    const simulator = createSimulator({ baseUrl })
    const fetchImpl: typeof fetch = simulator.fetch
    const answer = await fetchImpl(`${baseUrl}/pets?limit=1`, { headers: { Authorization: 'Bearer demo-pro-key' } })
    expect(answer.status).toBe(200)
    expect(simulator.journal.entries().map((entry) => entry.operation)).toEqual(['listPets'])
  })
})
