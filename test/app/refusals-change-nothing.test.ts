// Issue 45, the class "a refused request changes nothing": a request the simulator refuses before the API runs makes
// no sandbox, counts against no rate-limit bucket (keyed or anonymous), adds no pact interaction and no coverage; the
// journal holds exactly what docs/journal.md and docs/cli.md promise (an API request refused for its Host or its page's
// origin is journaled with its status, nothing else is). One table over every kind of refusal, each sent as raw HTTP
// to a real server, and the world's state read before and after through the control plane.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { rawExchange } from '../support/raw-http.ts'

let server: RunningServer
let origin: string
let port: number
beforeAll(async () => {
  // allowedHosts: the Host check of a simulator bound to loopback, as the CLI has it; the header picks sandboxes too.
  const app = createNodeApp({ seed: 3, pets: 5, allowedHosts: [], sandboxes: { header: true }, bodyLimit: 1024 })
  // trustProxy: a client off loopback is sent as one forwarded by a proxy on this machine (control_forbidden).
  server = await startServer({ app, port: 0, host: '127.0.0.1', log: 'silent', trustProxy: ['loopback'] })
  origin = server.url.replace(/\/$/, '')
  port = Number(new URL(origin).port)
  // A sandbox that exists, and traffic that gives the state something to keep.
  expect((await fetch(`${origin}/__sim/sandboxes/kept`, { method: 'PUT' })).status).toBe(201)
  expect((await fetch(`${origin}/v1/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro-key' } })).status).toBe(200)
})
afterAll(async () => {
  await server?.close()
})

const json = async (path: string) => (await (await fetch(`${origin}${path}`)).json()) as any

/** What one world (the default one, `''`, or a sandbox's `/sandboxes/<name>`) holds that a request could change. */
async function worldAt(prefix: string) {
  const state = await json(`${prefix}/__sim/state`)
  const journal = await json(`${prefix}/__sim/requests?limit=1000`)
  const pact = await json(`${prefix}/__sim/requests.pact`)
  const coverage = await json(`${prefix}/__sim/coverage`)
  return {
    keys: state.keys.map((key: { plan: string; minute: unknown; day: unknown }) => ({ plan: key.plan, minute: key.minute, day: key.day })),
    anonymous: state.anonymous,
    pets: state.pets,
    journal: (journal.requests as { status: number; path: string }[]).map(({ status, path }) => ({ status, path })),
    pact: pact.interactions.length,
    coverage: JSON.stringify(coverage),
  }
}

/** Everything a request could have changed, read through the control plane (which journals and counts nothing). */
async function world() {
  const sandboxes = await json('/__sim/sandboxes')
  return {
    sandboxes: sandboxes.sandboxes.map((sandbox: { name: string }) => sandbox.name),
    worlds: { default: await worldAt(''), kept: await worldAt('/sandboxes/kept') },
  }
}

const key = 'Authorization: Bearer demo-pro-key\r\n'
const get = (target: string, headers = '', host = '127.0.0.1') =>
  `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${headers}Connection: close\r\n\r\n`
const post = (target: string, headers: string, body: string) =>
  `POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`

/** Each refusal: what is sent, the status expected, and what the journal gains by the docs (`journaled`). */
const refusals: readonly { what: string; send: string; status: number; journaled?: boolean }[] = [
  { what: 'a foreign Host on the API (DNS rebinding)', send: get('/v1/pets', key, 'rebound.example'), status: 403, journaled: true },
  { what: 'a page of a foreign origin', send: get('/v1/pets', `${key}Origin: https://evil.example\r\n`), status: 403, journaled: true },
  {
    what: "a foreign page's <img> (Fetch Metadata)",
    send: get('/v1/pets', 'Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\nSec-Fetch-Dest: image\r\n'),
    status: 403,
    journaled: true,
  },
  {
    what: "a foreign page's preflight",
    send: `OPTIONS /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://evil.example\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n`,
    status: 403,
    journaled: true,
  },
  // The same refusals in a sandbox that exists: its own journal has the entry, and nothing else changes.
  { what: "a foreign Host on a sandbox's API", send: get('/sandboxes/kept/v1/pets', key, 'rebound.example'), status: 403, journaled: true },
  {
    what: "a page of a foreign origin on a sandbox's API",
    send: get('/sandboxes/kept/v1/pets', `${key}Origin: https://evil.example\r\n`),
    status: 403,
    journaled: true,
  },
  {
    what: "a foreign page's control request to a sandbox",
    send: post('/sandboxes/kept/__sim/reset', 'Origin: https://evil.example\r\n', '{}'),
    status: 403,
  },
  { what: 'a request target that is not a path', send: get('*', key), status: 400 },
  { what: 'an encoded dot segment', send: get('/v1/%2e%2e/v1/pets', key), status: 400 },
  { what: 'a control request from a foreign page', send: post('/__sim/reset', 'Origin: https://evil.example\r\n', '{}'), status: 403 },
  { what: 'a control request from off loopback', send: post('/__sim/reset', 'X-Forwarded-For: 192.0.2.1\r\n', '{}'), status: 403 },
  {
    what: 'a control request to a sandbox that does not exist, from off loopback',
    send: post('/sandboxes/nobody/__sim/reset', 'X-Forwarded-For: 192.0.2.1\r\n', '{}'),
    status: 403,
  },
  {
    what: 'a control POST that is not JSON',
    send: `POST /__sim/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    status: 415,
  },
  {
    what: 'a control request under a foreign Host',
    send: post('/__sim/reset', '', '{}').replace('Host: 127.0.0.1', 'Host: rebound.example'),
    status: 403,
  },
  { what: 'a sandbox that does not exist, keyless', send: get('/sandboxes/nobody/v1/pets'), status: 404 },
  {
    what: 'a sandbox that does not exist, a wrong key',
    send: get('/sandboxes/nobody/v1/pets', 'Authorization: Bearer nope\r\n'),
    status: 404,
  },
  { what: 'a bad sandbox name', send: get('/sandboxes/UPPER/v1/pets', key), status: 400 },
  {
    what: 'a sandbox path and header that disagree',
    send: get('/sandboxes/kept/v1/pets', `${key}X-Petstore-Sandbox: other\r\n`),
    status: 400,
  },
  { what: 'a control body past the limit', send: post('/__sim/faults', '', 'x'.repeat(2048)), status: 413 },
  { what: 'malformed HTTP', send: 'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n', status: 400 },
  { what: 'no Host', send: `GET /v1/pets HTTP/1.1\r\n${key}Connection: close\r\n\r\n`, status: 400 },
  { what: 'an Expect other than 100-continue', send: get('/v1/pets', `${key}Expect: the-unexpected\r\n`), status: 417 },
]

describe('a refused request changes nothing (issue 45)', () => {
  it.each(refusals)('$what', async ({ send, status, journaled }) => {
    const before = await world()
    const reply = await rawExchange(port, send)
    expect(Number(reply.slice(9, 12)), reply.slice(0, 300)).toBe(status)
    const after = await world()
    expect(after.sandboxes).toEqual(before.sandboxes)
    const added: number[] = []
    for (const name of ['default', 'kept'] as const) {
      const { journal: journalBefore, ...restBefore } = before.worlds[name]
      const { journal: journalAfter, ...restAfter } = after.worlds[name]
      expect(restAfter, name).toEqual(restBefore)
      // The journal: as it was, or with the one entry the docs promise, its status as sent.
      expect(journalAfter.slice(0, journalBefore.length), name).toEqual(journalBefore)
      added.push(...journalAfter.slice(journalBefore.length).map((entry) => entry.status))
    }
    expect(added).toEqual(journaled === true ? [status] : [])
  })
})

// The boundary: what the API itself answers is not a refusal of the simulator's. The spec's 401 for a request without
// a key counts in its anonymous bucket (docs/where-the-spec-is-silent.md: so 401s carry honest headers), and
// createPet's 413 comes after authentication and the limits (docs/journal.md lists it as the simulator's own answer
// in the coverage): both are journaled, counted and covered.
describe('what the API answers itself is counted, as the docs say', () => {
  it.each([
    ['the 401 of a request without a key', post('/v1/pets', '', '{}'), 401, 'anonymous'],
    ["createPet's 413 for a body past the limit", post('/v1/pets', key, 'x'.repeat(2048)), 413, 'pro'],
  ])('%s', async (_what, send, status, bucket) => {
    const before = await world()
    const reply = await rawExchange(port, send)
    expect(Number(reply.slice(9, 12))).toBe(status)
    const after = await world()
    const [was, is] = [before.worlds.default, after.worlds.default]
    expect(is.journal.slice(was.journal.length).map((entry) => entry.status)).toEqual([status])
    expect(is.coverage).not.toEqual(was.coverage)
    if (bucket === 'anonymous') expect(is.anonymous).not.toEqual(was.anonymous)
    else
      expect(is.keys.find((entry: { plan: string }) => entry.plan === bucket)).not.toEqual(
        was.keys.find((entry: { plan: string }) => entry.plan === bucket),
      )
  })
})
