import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import type { AppOptions } from '../../src/app/app.ts'
import { checkedFetch } from '../support/checked-fetch.ts'
import { rawExchange, statusAndCode } from '../support/raw-http.ts'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(options: AppOptions = {}, state?: string): Promise<string> {
  const app = createNodeApp({ seed: 7, pets: 5, ...options })
  const server = await startServer({ app, port: 0, host: '127.0.0.1', log: 'silent', ...(state === undefined ? {} : { state }) })
  servers.push(server)
  return server.url.replace(/\/$/, '')
}

const key = { authorization: 'Bearer demo-free-key' }
const json = async (response: Response) => (await response.json()) as any

/** A request to one world's API, every answer contract-checked against the spec. */
function api(origin: string, sandbox: string | undefined, path: string, init: RequestInit = {}): Promise<Response> {
  const prefix = sandbox === undefined ? '' : `/sandboxes/${sandbox}`
  return checkedFetch(`${origin}${prefix}/v1${path}`, { ...init, headers: { ...key, ...init.headers } }, `${prefix}/v1`)
}

const control = (origin: string, sandbox: string | undefined, path: string, init?: RequestInit) =>
  fetch(`${origin}${sandbox === undefined ? '' : `/sandboxes/${sandbox}`}/__sim${path}`, init)

const post = (origin: string, sandbox: string | undefined, path: string, body: unknown) =>
  control(origin, sandbox, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

const createPet = (origin: string, sandbox: string | undefined, name: string) =>
  api(origin, sandbox, '/pets', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  })

describe('sandboxes: isolated worlds in one simulator', () => {
  it('keeps two sandboxes under concurrent load apart from each other and from the default world', async () => {
    const origin = await start({ keys: { 'demo-free-key': 'enterprise:1000/100000', 'tiny-key': 'enterprise:2/100' } })
    // Each world its own fault rule and clock, set before the load.
    await post(origin, 'red', '/faults', { operation: 'getPet', status: 503 })
    await post(origin, 'blue', '/clock', { set: '2029-01-01T00:00:00Z' })
    const perWorld = 40
    const load = (sandbox: string) =>
      Promise.all(Array.from({ length: perWorld }, (_, index) => createPet(origin, sandbox, `${sandbox}-${index}`)))
    const [red, blue] = await Promise.all([load('red'), load('blue')])
    const ids = async (responses: Response[]) => Promise.all(responses.map(async (response) => (await json(response)).id as number))
    expect([...red, ...blue].map((response) => response.status)).toEqual(Array.from({ length: 2 * perWorld }, () => 201))
    const redIds = await ids(red)
    const blueIds = await ids(blue)
    // Ids run on from each catalogue's own base (5 pets): both worlds gave out the same ids, each to its own pets.
    expect(new Set(redIds)).toEqual(new Set(Array.from({ length: perWorld }, (_, index) => 6 + index)))
    expect(new Set(blueIds)).toEqual(new Set(redIds))
    const names = async (sandbox: string | undefined) =>
      (await json(await api(origin, sandbox, '/pets?limit=100'))).map((pet: { name: string }) => pet.name) as string[]
    const redNames = await names('red')
    expect(redNames).toHaveLength(5 + perWorld)
    expect(redNames.filter((name) => name.startsWith('blue-'))).toEqual([])
    expect((await names('blue')).filter((name) => name.startsWith('red-'))).toEqual([])
    // Faults: only red's getPet fails; clock: only blue's moved.
    expect((await api(origin, 'red', '/pets/1')).status).toBe(503)
    expect((await api(origin, 'blue', '/pets/1')).status).toBe(200)
    expect((await json(await control(origin, 'blue', '/clock'))).now).toMatch(/^2029-01-01/)
    expect((await json(await control(origin, 'red', '/clock'))).now).not.toMatch(/^2029-01-01/)
    // Journals: each its own requests only.
    const journal = async (sandbox: string) => (await json(await control(origin, sandbox, '/requests?limit=1000'))).requests as any[]
    expect((await journal('red')).filter((entry) => entry.operation === 'createPet')).toHaveLength(perWorld)
    expect((await journal('blue')).every((entry) => !JSON.stringify(entry).includes('red-'))).toBe(true)
    // Bans and counts: the tiny key spent in red is fresh in blue.
    const tiny = { headers: { authorization: 'Bearer tiny-key' } }
    const redTiny = [
      await api(origin, 'red', '/pets', tiny),
      await api(origin, 'red', '/pets', tiny),
      await api(origin, 'red', '/pets', tiny),
    ]
    expect(redTiny.map((response) => response.status)).toEqual([200, 200, 429])
    expect((await api(origin, 'blue', '/pets', tiny)).status).toBe(200)
    // The default world is untouched by both: its 5 pets, no journal, its fault-free getPet.
    expect(await names(undefined)).toHaveLength(5)
    expect((await api(origin, undefined, '/pets/1')).status).toBe(200)
    expect((await json(await control(origin, undefined, '/requests/count'))).count).toBe(2)
    const listed = await json(await control(origin, undefined, '/sandboxes'))
    expect(listed.sandboxes.map((sandbox: { name: string }) => sandbox.name)).toEqual(['red', 'blue'])
    expect(listed.total.pets).toBe(2 * (5 + perWorld))
  })

  it('resets and deletes one sandbox alone, and makes one explicitly', async () => {
    const origin = await start()
    await createPet(origin, 'a', 'kept-in-a')
    await createPet(origin, 'b', 'kept-in-b')
    expect((await post(origin, 'a', '/reset', {})).status).toBe(200)
    expect(await json(await api(origin, 'a', '/pets?limit=100'))).toHaveLength(5)
    expect(await json(await api(origin, 'b', '/pets?limit=100'))).toHaveLength(6)
    const made = await control(origin, undefined, '/sandboxes/c', { method: 'PUT' })
    expect(made.status).toBe(201)
    expect(await json(made)).toMatchObject({ name: 'c', apiPath: '/sandboxes/c/v1', pets: 5, created: true })
    expect((await control(origin, undefined, '/sandboxes/c', { method: 'PUT' })).status).toBe(200)
    expect((await control(origin, undefined, '/sandboxes/b', { method: 'DELETE' })).status).toBe(204)
    const gone = await control(origin, undefined, '/sandboxes/b', { method: 'DELETE' })
    expect(gone.status).toBe(404)
    expect((await json(gone)).code).toBe('sandbox_not_found')
    // A later request starts it fresh from the configured scenario.
    expect(await json(await api(origin, 'b', '/pets?limit=100'))).toHaveLength(5)
  })

  it('refuses a sandbox past the cap, naming it, and forgets an idle one (manual clock)', async () => {
    const clock = createManualClock('2030-01-01T00:00:00Z')
    const origin = await start({ clock, sandboxes: { max: 2, idleMs: 60_000 } })
    await createPet(origin, 'one', 'x')
    expect((await api(origin, 'two', '/pets')).status).toBe(200)
    clock.advance(30_000)
    expect((await api(origin, 'two', '/pets')).status).toBe(200)
    const refused = await fetch(`${origin}/sandboxes/three/v1/pets`, { headers: key })
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('30')
    const body = await json(refused)
    expect(body).toMatchObject({ code: 'too_many_sandboxes', status: 503 })
    expect(body.message).toContain('--max-sandboxes 2')
    const refusedPut = await control(origin, undefined, '/sandboxes/three', { method: 'PUT' })
    expect(refusedPut.status).toBe(503)
    // "one" has been idle 60 s: it expires, "three" takes its place, and "one" comes back fresh (its pet gone).
    clock.advance(30_000)
    expect((await api(origin, 'three', '/pets')).status).toBe(200)
    const listed = await json(await control(origin, undefined, '/sandboxes'))
    expect(listed.sandboxes.map((sandbox: { name: string }) => sandbox.name)).toEqual(['two', 'three'])
    clock.advance(60_000)
    expect(await json(await api(origin, 'one', '/pets?limit=100'))).toHaveLength(5)
  })

  it.each([
    ['empty', '/sandboxes//v1/pets'],
    ['too long', `/sandboxes/${'a'.repeat(64)}/v1/pets`],
    ['upper case', '/sandboxes/Team/v1/pets'],
    ['an encoded slash', '/sandboxes/a%2Fb/v1/pets'],
    ['an encoded dot segment', '/sandboxes/%2e%2e/v1/pets'],
    ['a Unicode look-alike (Cyrillic a)', '/sandboxes/%D0%B0/v1/pets'],
    ['a fullwidth letter', '/sandboxes/%EF%BD%81/v1/pets'],
    ['a leading dash', '/sandboxes/-a/v1/pets'],
  ])('refuses a bad name (%s) with a 400 that says what a name may be, creating nothing', async (_what, path) => {
    const origin = await start()
    const reply = await rawExchange(
      Number(new URL(origin).port),
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-free-key\r\nConnection: close\r\n\r\n`,
    )
    expect(statusAndCode(reply)).toEqual({ status: 400, code: 'sandbox_name_invalid' })
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))
    expect(body.message).toContain('lower-case ASCII letters, digits')
    const listed = await json(await control(origin, undefined, '/sandboxes'))
    expect(listed.sandboxes).toEqual([])
  })

  it('refuses a bad name on the control plane too', async () => {
    const origin = await start()
    // `%61` decodes to the valid `a`: the name is checked as sent (docs/sharing.md), as it is under /sandboxes/%61/v1.
    for (const name of ['UPPER', 'a%2Fb', `${'x'.repeat(64)}`, '%C3%A9', '%61', 'team%2Da']) {
      const response = await control(origin, undefined, `/sandboxes/${name}`, { method: 'PUT' })
      expect(response.status, name).toBe(400)
      expect((await json(response)).code).toBe('sandbox_name_invalid')
    }
    // The empty name too, as the API's /sandboxes//v1 is: a 400 naming the rule, not a 404 for a route.
    for (const method of ['PUT', 'DELETE']) {
      const response = await control(origin, undefined, '/sandboxes/', { method })
      expect(response.status, method).toBe(400)
      expect((await json(response)).message).toContain('lower-case ASCII letters, digits')
    }
    expect((await json(await control(origin, undefined, '/sandboxes'))).sandboxes).toEqual([])
  })

  it('picks a sandbox by X-Petstore-Sandbox when the header is on; a path naming another is a 400', async () => {
    const origin = await start({ sandboxes: { header: true } })
    await createPet(origin, undefined, 'default-pet')
    const byHeader = await fetch(`${origin}/v1/pets?limit=100`, { headers: { ...key, 'x-petstore-sandbox': 'team-a' } })
    expect(await json(byHeader)).toHaveLength(5)
    const conflict = await fetch(`${origin}/sandboxes/team-b/v1/pets`, { headers: { ...key, 'x-petstore-sandbox': 'team-a' } })
    expect(conflict.status).toBe(400)
    expect((await json(conflict)).code).toBe('sandbox_conflict')
    expect(await json(await fetch(`${origin}/v1/pets?limit=100`, { headers: key }))).toHaveLength(6)
  })

  it('ignores the header when it is off, and answers 404 under /sandboxes/ when sandboxes are off', async () => {
    const origin = await start({ sandboxes: { max: 0 } })
    const byHeader = await fetch(`${origin}/v1/pets?limit=100`, { headers: { ...key, 'x-petstore-sandbox': 'team-a' } })
    expect(byHeader.status).toBe(200)
    const off = await fetch(`${origin}/sandboxes/team-a/v1/pets`, { headers: key })
    expect(off.status).toBe(404)
    expect((await json(off)).message).toContain('Sandboxes are off')
  })

  it("points a sandbox's root at its own dashboard and OpenAPI document, not the default world's", async () => {
    const origin = await start()
    // Made first: a keyless request (this one) makes no sandbox (issue 45), it reaches one that exists.
    expect((await control(origin, undefined, '/sandboxes/team-a', { method: 'PUT' })).status).toBe(201)
    const root = await fetch(`${origin}/sandboxes/team-a/`, { headers: { accept: 'application/json' } })
    expect(root.status).toBe(404)
    const { message } = await json(root)
    expect(message).toContain('No route GET /sandboxes/team-a/:')
    expect(message).toContain('the dashboard is /sandboxes/team-a/__sim/')
    expect(message).toContain('the OpenAPI document is /sandboxes/team-a/openapi.json')
    expect(root.headers.get('link')).toContain('</sandboxes/team-a/openapi.json>')
    const page = await (await fetch(`${origin}/sandboxes/team-a`, { headers: { accept: 'text/html' } })).text()
    expect(page).toContain('href="/sandboxes/team-a/__sim/"')
    expect(page).toContain('href="/sandboxes/team-a/openapi.json"')
    expect(page).toContain('href="/sandboxes/team-a/v1/pets"')
    // The default world's root as it was.
    expect((await json(await fetch(`${origin}/`, { headers: { accept: 'application/json' } }))).message).toContain(
      'the dashboard is /__sim/;',
    )
  })

  it("answers each sandbox's scenario, provider states, snapshot and state about that sandbox alone", async () => {
    const origin = await start()
    const scenarios = await json(await control(origin, 'ctl', '/scenario'))
    const other = scenarios.available.map((scenario: { name: string }) => scenario.name).find((name: string) => name !== scenarios.active)
    expect(other).toBeDefined()
    expect((await post(origin, 'ctl', '/scenario', { name: other })).status).toBe(200)
    expect((await json(await control(origin, 'ctl', '/scenario'))).active).toBe(other)
    expect((await json(await control(origin, undefined, '/scenario'))).active).toBe(scenarios.active)
    // A provider state set up in the sandbox: its catalogue empty, the default world's and a neighbour's as they were.
    expect((await post(origin, 'empty', '/provider-states', { state: 'the catalogue is empty', action: 'setup' })).status).toBe(200)
    expect(await json(await api(origin, 'empty', '/pets?limit=100'))).toEqual([])
    expect(await json(await api(origin, 'full', '/pets?limit=100'))).toHaveLength(5)
    expect(await json(await api(origin, undefined, '/pets?limit=100'))).toHaveLength(5)
    // Its snapshot holds its pets, and restores into it alone.
    await createPet(origin, 'full', 'Only-in-full')
    const snapshot = await control(origin, 'full', '/snapshot')
    expect(snapshot.status).toBe(200)
    const saved = await snapshot.text()
    expect(saved).toContain('Only-in-full')
    expect(await (await control(origin, undefined, '/snapshot')).text()).not.toContain('Only-in-full')
    const restored = await control(origin, 'empty', '/snapshot', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: saved,
    })
    expect(restored.status).toBe(200)
    expect((await json(await api(origin, 'empty', '/pets?limit=100'))).map((pet: { name: string }) => pet.name)).toContain('Only-in-full')
    expect(await json(await api(origin, undefined, '/pets?limit=100'))).toHaveLength(5)
    // Its state (what its dashboard shows) counts its own requests; the default world's, none of them.
    const state = async (sandbox: string | undefined) => JSON.stringify(await json(await control(origin, sandbox, '/state')))
    expect(await state('full')).not.toEqual(await state(undefined))
    const listed = await json(await control(origin, undefined, '/sandboxes'))
    const pets = Object.fromEntries(listed.sandboxes.map((sandbox: { name: string; pets: number }) => [sandbox.name, sandbox.pets]))
    expect(pets).toMatchObject({ empty: 6, full: 6 })
    expect(listed.total).toMatchObject({ sandboxes: 3, pets: pets.ctl + 12 })
  })

  it("keeps each sandbox's own journal, HAR, coverage and pact; the pact without the sandbox's path", async () => {
    const origin = await start()
    await createPet(origin, 'pact-a', 'Rex')
    const har = await json(await control(origin, 'pact-a', '/requests.har'))
    expect(har.log.entries.map((entry: { request: { url: string } }) => new URL(entry.request.url).pathname)).toEqual([
      '/sandboxes/pact-a/v1/pets',
    ])
    const coverage = await json(await control(origin, 'pact-a', '/coverage'))
    expect(JSON.stringify(coverage)).toContain('createPet')
    const pact = await json(await control(origin, 'pact-a', '/requests.pact'))
    expect(pact.interactions.map((interaction: { request: { path: string } }) => interaction.request.path)).toEqual(['/v1/pets'])
    expect((await json(await control(origin, undefined, '/requests.pact'))).interactions).toEqual([])
  })

  it('saves every sandbox with --state, restores them at start, and removes the file of one deleted', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-sim-sandbox-state-'))
    try {
      const state = join(folder, 'state.json')
      const first = await start({}, state)
      await createPet(first, 'kept', 'Saved')
      await createPet(first, 'dropped', 'Gone')
      await servers.pop()!.close()
      expect(existsSync(join(folder, 'state.json.sandboxes', 'kept.json'))).toBe(true)
      const second = await start({}, state)
      const names = (await json(await api(second, 'kept', '/pets?limit=100'))).map((pet: { name: string }) => pet.name)
      expect(names).toContain('Saved')
      expect(
        (await json(await control(second, undefined, '/sandboxes'))).sandboxes.map((sandbox: { name: string }) => sandbox.name),
      ).toEqual(['dropped', 'kept'])
      expect((await control(second, undefined, '/sandboxes/dropped', { method: 'DELETE' })).status).toBe(204)
      await servers.pop()!.close()
      expect(existsSync(join(folder, 'state.json.sandboxes', 'dropped.json'))).toBe(false)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('refuses to start with more sandboxes saved than its cap, naming the folder and the cap', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-sim-sandbox-cap-'))
    try {
      const state = join(folder, 'state.json')
      const first = await start({}, state)
      await createPet(first, 'one', 'x')
      await createPet(first, 'two', 'y')
      await servers.pop()!.close()
      // Not "not a state this simulator can restore", nor a DELETE to send to a simulator that does not start.
      const refused = start({ sandboxes: { max: 1 } }, state)
      await expect(refused).rejects.toThrow(
        `${join(folder, 'state.json.sandboxes')} holds 2 saved sandboxes, more than the cap (--max-sandboxes 1)`,
      )
      await expect(refused).rejects.not.toThrow(/DELETE|not a state/)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
