// Issue 45, Medium 7: a sandbox is made only by a request the simulator admits. With --admin-token, 60 keyless
// requests (401) made 50 sandboxes and the admin's PUT /__sim/sandboxes/ci-job-1 was then 503 too_many_sandboxes for
// 30 minutes; a Safari before 16.4 sends a foreign page's <img> without Fetch Metadata, like curl, and 60 of them
// filled the cap too. Now a sandbox is made implicitly only by a request with a key the API knows, or by a control
// request the control plane admits (docs/sharing.md); any other request to a sandbox that does not exist is a
// 404 sandbox_not_found (or the control plane's own refusal) and makes nothing.
import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import type { AppOptions } from '../../src/app/app.ts'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(options: AppOptions = {}): Promise<string> {
  const app = createNodeApp({ seed: 7, pets: 5, ...options })
  const server = await startServer({ app, port: 0, host: '127.0.0.1', log: 'silent' })
  servers.push(server)
  return server.url.replace(/\/$/, '')
}

const adminToken = 'admin-token-of-ci'
const admin = { authorization: `Bearer ${adminToken}` }
const json = async (response: Response) => (await response.json()) as any

/** Each kind of request that must not make a sandbox: its path under /sandboxes/<name>, and what it sends. */
const refusedKinds: readonly [string, string, RequestInit, number][] = [
  ['no key', '/v1/pets', {}, 404],
  ['a key the API does not know', '/v1/pets', { headers: { authorization: 'Bearer not-a-key' } }, 404],
  ['another scheme than Bearer', '/v1/pets', { headers: { authorization: 'Basic ZGVtbzpkZW1v' } }, 404],
  // Safari before 16.4: a foreign page's <img>, without Sec-Fetch-* or Origin, as curl sends it.
  ['an <img> without Fetch Metadata', '/v1/pets', { headers: { accept: 'image/webp,*/*', referer: 'https://evil.example/' } }, 404],
  [
    'a keyless createPet',
    '/v1/pets',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x","categoryId":1}' },
    404,
  ],
  ['the OpenAPI document, keyless', '/openapi.json', {}, 404],
  ['the root, keyless', '/', { headers: { accept: 'application/json' } }, 404],
  ["the dashboard's page", '/__sim/', {}, 404],
  ['the health probe', '/__sim/health', {}, 404],
  ['a control read without the admin token', '/__sim/requests', {}, 401],
  [
    'a control reset with a wrong admin token',
    '/__sim/reset',
    { method: 'POST', headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' }, body: '{}' },
    401,
  ],
  [
    'a control reset with the token but not JSON',
    '/__sim/reset',
    { method: 'POST', headers: { ...admin, 'content-type': 'text/plain' }, body: '{}' },
    415,
  ],
]

describe('a sandbox is made only by a request the simulator admits (issue 45, Medium 7)', () => {
  it.each(refusedKinds)(
    '60 requests of one kind (%s) make no sandbox, and the admin still makes one',
    async (_kind, path, init, status) => {
      const origin = await start({ control: { adminToken } })
      const statuses = new Set<number>()
      for (let index = 0; index < 60; index++) {
        const response = await fetch(`${origin}/sandboxes/job-${index}${path}`, init)
        statuses.add(response.status)
        await response.arrayBuffer()
      }
      expect([...statuses]).toEqual([status])
      const listed = await json(await fetch(`${origin}/__sim/sandboxes`, { headers: admin }))
      expect(listed.sandboxes).toEqual([])
      const made = await fetch(`${origin}/__sim/sandboxes/ci-job-1`, { method: 'PUT', headers: admin })
      expect(made.status).toBe(201)
      expect((await json(made)).created).toBe(true)
    },
  )

  it('answers a keyless request to a sandbox that does not exist 404 sandbox_not_found, saying what makes one', async () => {
    const origin = await start()
    const response = await fetch(`${origin}/sandboxes/team-a/v1/pets`)
    expect(response.status).toBe(404)
    const body = await json(response)
    expect(body).toMatchObject({ code: 'sandbox_not_found', status: 404 })
    expect(body.message).toContain('PUT /__sim/sandboxes/team-a')
    // A bad name is still the 400 that says what a name may be.
    expect((await json(await fetch(`${origin}/sandboxes/Team/v1/pets`))).code).toBe('sandbox_name_invalid')
  })

  it('makes one for a request with a known key, or a control request with the admin token; keyless requests then reach it', async () => {
    const origin = await start({ control: { adminToken } })
    expect((await fetch(`${origin}/sandboxes/by-key/v1/pets`, { headers: { authorization: 'Bearer demo-free-key' } })).status).toBe(200)
    const reset = await fetch(`${origin}/sandboxes/by-admin/__sim/reset`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(reset.status).toBe(200)
    const listed = await json(await fetch(`${origin}/__sim/sandboxes`, { headers: admin }))
    expect(listed.sandboxes.map((sandbox: { name: string }) => sandbox.name)).toEqual(['by-key', 'by-admin'])
    // Once it exists, a keyless request is the API's own 401, as in the default world.
    const keyless = await fetch(`${origin}/sandboxes/by-key/v1/pets`)
    expect(keyless.status).toBe(401)
    expect((await json(keyless)).code).toBe('missing_api_key')
    expect((await fetch(`${origin}/sandboxes/by-key/openapi.json`)).status).toBe(200)
  })

  it('makes one for a loopback control request without an admin token (the Playwright fixture)', async () => {
    const origin = await start()
    const reset = await fetch(`${origin}/sandboxes/pw-worker-0/__sim/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(reset.status).toBe(200)
    const listed = await json(await fetch(`${origin}/__sim/sandboxes`))
    expect(listed.sandboxes.map((sandbox: { name: string }) => sandbox.name)).toEqual(['pw-worker-0'])
  })

  it('with X-Petstore-Sandbox, makes none for a keyless request either', async () => {
    const origin = await start({ sandboxes: { header: true } })
    const response = await fetch(`${origin}/v1/pets`, { headers: { 'x-petstore-sandbox': 'team-h' } })
    expect(response.status).toBe(404)
    expect((await json(response)).code).toBe('sandbox_not_found')
    expect((await json(await fetch(`${origin}/__sim/sandboxes`))).sandboxes).toEqual([])
  })
})
