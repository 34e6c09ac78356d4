// What Node's parser gives up on (a malformed request, headers too large) is answered with raw bytes; its CORS grant
// followed the Origin it read back from those bytes, whatever the origin. It now follows the same policy as every
// other answer: this machine's pages, and the origins the user named.
import { afterEach, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { rawExchange } from '../support/raw-http.ts'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const malformed = (origin: string) => `GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\nBad Header\r\n\r\n`

it.each([
  ['a page of this machine', 'http://localhost:5173', true],
  ['a page the user named', 'https://app.example', true],
  ['any other page', 'https://evil.example', false],
])('grants CORS on a malformed request only to %s', async (_name, origin, granted) => {
  const server = await startServer({
    app: createNodeApp({ corsOrigins: ['https://app.example'] }),
    port: 0,
    host: '127.0.0.1',
    log: 'silent',
  })
  servers.push(server)
  const reply = await rawExchange(Number(new URL(server.url).port), malformed(origin))
  expect(reply).toMatch(/^HTTP\/1\.1 400 /)
  expect(reply.toLowerCase().includes(`access-control-allow-origin: ${origin}`)).toBe(granted)
})
