// Issue 49, part 5: a sandbox's scenario and keys are chosen when it is made, by the body of
// `PUT /__sim/sandboxes/<name>` (`{"scenario": "…", "keys": {"<token>": "<plan>"}}`), so that a Playwright worker's
// sandbox starts as its suite needs; a reset returns to them. A bad body makes nothing and changes nothing.
import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(): Promise<string> {
  const app = createNodeApp({ seed: 7, pets: 5 })
  const server = await startServer({ app, port: 0, host: '127.0.0.1', log: 'silent' })
  servers.push(server)
  return server.url.replace(/\/$/, '')
}

const json = async (response: Response) => (await response.json()) as any
const put = (origin: string, name: string, body?: unknown) =>
  fetch(`${origin}/__sim/sandboxes/${name}`, {
    method: 'PUT',
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
const names = async (origin: string) =>
  (await json(await fetch(`${origin}/__sim/sandboxes`))).sandboxes.map((sandbox: { name: string }) => sandbox.name)

describe('PUT /__sim/sandboxes/<name> with a body (issue 49)', () => {
  it('makes the sandbox in the scenario and with the keys sent, and a reset keeps both', async () => {
    const origin = await start()
    const made = await put(origin, 'team-a', { scenario: 'empty', keys: { 'team-key': 'free' } })
    expect(made.status).toBe(201)
    expect(await json(made)).toMatchObject({ name: 'team-a', scenario: 'empty', pets: 0, created: true })
    const api = `${origin}/sandboxes/team-a/v1/pets`
    const own = await fetch(api, { headers: { authorization: 'Bearer team-key' } })
    expect(own.status).toBe(200)
    expect(await own.json()).toEqual([])
    expect(own.headers.get('x-ratelimit-limit')).toBe('60')
    // The keys sent replace the configured ones in this sandbox only.
    expect((await fetch(api, { headers: { authorization: 'Bearer demo-pro-key' } })).status).toBe(401)
    expect((await fetch(`${origin}/v1/pets`, { headers: { authorization: 'Bearer demo-pro-key' } })).status).toBe(200)
    const reset = await fetch(`${origin}/sandboxes/team-a/__sim/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(reset.status).toBe(200)
    expect((await fetch(api, { headers: { authorization: 'Bearer team-key' } })).status).toBe(200)
    expect((await json(await fetch(`${origin}/sandboxes/team-a/__sim/scenario`))).active).toBe('empty')
  })

  it('puts a sandbox that exists into the settings sent (200), and one without a body is left as it is', async () => {
    const origin = await start()
    expect((await put(origin, 'team-b')).status).toBe(201)
    const again = await put(origin, 'team-b', { scenario: 'empty' })
    expect(again.status).toBe(200)
    expect(await json(again)).toMatchObject({ scenario: 'empty', pets: 0, created: false })
    const bare = await put(origin, 'team-b')
    expect(bare.status).toBe(200)
    expect(await json(bare)).toMatchObject({ scenario: 'empty', created: false })
  })

  it.each([
    ['an unknown scenario', { scenario: 'no-such' }, 404, 'scenario_not_found', 'GET /__sim/scenario'],
    ['a scenario that is not a string', { scenario: 3 }, 400, 'invalid_body', 'scenario'],
    ['keys that are not an object', { keys: ['team-key'] }, 400, 'invalid_body', 'keys'],
    ['a key with an unknown plan', { keys: { 'team-key': 'platinum' } }, 400, 'invalid_body', 'platinum'],
    ['an unknown field', { scenarios: 'empty' }, 400, 'invalid_body', 'scenarios'],
  ])('refuses %s, making no sandbox', async (_kind, body, status, code, named) => {
    const origin = await start()
    const refused = await put(origin, 'team-c', body)
    expect(refused.status).toBe(status)
    const error = await json(refused)
    expect(error.code).toBe(code)
    expect(error.message).toContain(named)
    expect(await names(origin)).toEqual([])
  })

  it('changes nothing in a sandbox that exists when its body is refused', async () => {
    const origin = await start()
    expect((await put(origin, 'team-d', { scenario: 'empty' })).status).toBe(201)
    expect((await put(origin, 'team-d', { keys: { 'team-key': 'platinum' } })).status).toBe(400)
    expect(await names(origin)).toEqual(['team-d'])
    expect((await json(await fetch(`${origin}/sandboxes/team-d/__sim/scenario`))).active).toBe('empty')
    expect((await fetch(`${origin}/sandboxes/team-d/v1/pets`, { headers: { authorization: 'Bearer demo-pro-key' } })).status).toBe(200)
  })
})
