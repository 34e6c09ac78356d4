// Issue 49, part 5: the Playwright fixture's setup calls (petstore-sim/playwright) check their status, and a refusal
// is an Error that names its cause and what to change: the old recipe ignored them, and every test after the 50th
// sandbox failed on a 503 too_many_sandboxes it never saw.
import { afterEach, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import type { AppOptions } from '../../src/app/app.ts'
import { closeSandbox, openSandbox, resetSandbox } from '../../src/playwright/sandbox-client.ts'

const servers: RunningServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(options: AppOptions = {}): Promise<string> {
  const server = await startServer({ app: createNodeApp({ seed: 7, pets: 5, ...options }), port: 0, host: '127.0.0.1', log: 'silent' })
  servers.push(server)
  return server.url.replace(/\/$/, '')
}

const names = async (origin: string) =>
  ((await (await fetch(`${origin}/__sim/sandboxes`)).json()) as { sandboxes: Array<{ name: string }> }).sandboxes.map((s) => s.name)

describe("the Playwright fixture's sandbox calls", () => {
  it('makes the sandbox with its scenario and keys, resets it to them, and deletes it', async () => {
    const origin = await start()
    const sandbox = await openSandbox({ url: `${origin}/`, name: 'pw-worker-0', scenario: 'empty', keys: { 'team-key': 'pro' } })
    expect(sandbox).toMatchObject({
      name: 'pw-worker-0',
      apiUrl: `${origin}/sandboxes/pw-worker-0/v1`,
      controlUrl: `${origin}/sandboxes/pw-worker-0/__sim`,
    })
    const headers = { authorization: 'Bearer team-key', 'content-type': 'application/json' }
    const created = await fetch(`${sandbox.apiUrl}/pets`, { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' })
    expect(created.status).toBe(201)
    await resetSandbox(sandbox)
    expect(await (await fetch(`${sandbox.apiUrl}/pets`, { headers })).json()).toEqual([])
    await closeSandbox(sandbox)
    expect(await names(origin)).toEqual([])
    // Gone already (expired, or deleted by a worker before): deleting it again is no failure.
    await closeSandbox(sandbox)
  })

  it('says the cap and the flag when the simulator holds all the sandboxes it may', async () => {
    const origin = await start({ sandboxes: { max: 1 } })
    await openSandbox({ url: origin, name: 'pw-worker-0' })
    await expect(openSandbox({ url: origin, name: 'pw-worker-1' })).rejects.toThrow(
      /PUT .*\/__sim\/sandboxes\/pw-worker-1 \(making sandbox pw-worker-1\) answered 503 too_many_sandboxes: .*cap \(--max-sandboxes 1\).*raise its cap \(--max-sandboxes, PETSTORE_SIM_MAX_SANDBOXES\), run fewer workers/,
    )
  })

  it('says an admin token is needed, and which variable the fixture reads it from', async () => {
    const origin = await start({ control: { adminToken: 'the-admin-token' } })
    await expect(openSandbox({ url: origin, name: 'pw-worker-0' })).rejects.toThrow(
      /answered 401 admin_unauthorized: .*PETSTORE_SIM_ADMIN_TOKEN/,
    )
    const sandbox = await openSandbox({ url: origin, name: 'pw-worker-0', adminToken: 'the-admin-token' })
    await resetSandbox(sandbox)
    await closeSandbox(sandbox)
  })

  it('names an unknown scenario, and makes no sandbox', async () => {
    const origin = await start()
    await expect(openSandbox({ url: origin, name: 'pw-worker-0', scenario: 'no-such' })).rejects.toThrow(
      /answered 404 scenario_not_found: No scenario "no-such"/,
    )
    expect(await names(origin)).toEqual([])
  })

  it('says that no simulator answers, and how to point the fixture at one', async () => {
    const origin = await start()
    await servers.pop()!.close()
    await expect(openSandbox({ url: origin, name: 'pw-worker-0' })).rejects.toThrow(
      /reached no simulator \(ECONNREFUSED\): start one \(npx petstore-sim\) or set PETSTORE_SIM_URL/,
    )
  })
})
