import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { openRawConnection, rawGet } from '../support/raw-connection.ts'

// Names a client (or a handler) chooses that are also Object.prototype's (issue #26): where they become keys of an
// object, a plain object read Object's own members for them and lost `__proto__`. The journal's views are checked in
// test/core/journal/request-journal.test.ts and test/journal/journal-endpoints.test.ts; this is the Node server's msw lane,
// which turns a handler's Fetch headers into Node's.

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close(100)))
})

const names = ['constructor', 'tostring', 'hasownproperty', '__proto__']
const headers = (): Array<[string, string]> => names.map((name, index) => [name, `h${index}`])

describe("a handler's headers named like Object.prototype members", () => {
  it.each([
    ['a whole body', () => new HttpResponse('whole', { headers: headers() })],
    ['a streamed body', () => new HttpResponse(new ReadableStream({ start: (c) => c.close() }), { headers: headers() })],
  ])('reach the client, with %s', async (_name, answer) => {
    const server = await startServer({
      port: 0,
      host: '127.0.0.1',
      log: 'silent',
      app: createNodeApp(),
      handlers: [http.get('*/named', answer)],
    })
    servers.push(server)
    const connection = await openRawConnection(Number(new URL(server.url).port))
    try {
      connection.send(rawGet('/named'))
      for (let turn = 0; turn < 300 && !connection.pending().includes('\r\n\r\n'); turn++)
        await new Promise((resolve) => setTimeout(resolve, 10))
      const head = connection.pending().split('\r\n\r\n')[0]!.toLowerCase()
      expect(head).toMatch(/^http\/1\.1 200/)
      for (const [index, name] of names.entries()) expect(head).toContain(`\r\n${name}: h${index}\r\n`)
    } finally {
      connection.destroy()
    }
  })
})
