import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createApp, type App } from '../../src/app/app.ts'
import { defaults } from '../../src/core/defaults.ts'

// Issue 45, Medium 6: the pact recorder kept each shape's whole journal view (bodies up to 64 KiB, every header),
// outside the journal's budget and across resets: 50 sandboxes × 500 createPet shapes held 2.8 GiB after every
// sandbox was reset. It now keeps what a pact reads, within a byte budget per world, and says so in `usage()`.

const origin = 'http://127.0.0.1:4010'
const send = (app: App, path: string, init: RequestInit = {}) =>
  app.fetch(new Request(`${origin}${path}`, init), { clientAddress: '127.0.0.1' })
const key = 'Bearer demo-enterprise-key'

async function createPets(app: App, world: string, shapes: number, query: (shape: number) => string): Promise<void> {
  const notes = 'n'.repeat(20_000)
  for (let shape = 0; shape < shapes; shape++) {
    const response = await send(app, `${world}/v1/pets?${query(shape)}`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json', 'x-trace': 't'.repeat(4000) },
      body: JSON.stringify({ name: `Rex${shape}`, categoryId: 1, notes }),
    })
    expect(response.status).toBe(201)
    await response.arrayBuffer()
  }
}

describe('the pact recorder within its byte budget', () => {
  it('keeps 500 shapes of large createPets in each sandbox within the budget, and across a reset', async () => {
    const app = createApp({ seed: 1, pets: 5 })
    for (const world of ['/sandboxes/a', '/sandboxes/b']) {
      await createPets(app, world, 500, (shape) => `q${shape}=1`)
      await send(app, `${world}/__sim/reset`, { method: 'POST' })
      const { simulator } = app.sandboxes!.find(world.slice('/sandboxes/'.length))!
      const usage = simulator.pact.usage()
      expect(usage).toMatchObject({ interactions: 500, maxInteractions: 500, maxBytes: defaults.pact.maxKeptBytes, overflow: 0 })
      // 500 views of these requests held some 12 MB (their 20 kB bodies and 4 kB headers).
      expect(usage.bytes).toBeLessThanOrEqual(defaults.pact.maxKeptBytes)
      const pact = await (await send(app, `${world}/__sim/requests.pact?simulatorChoices=include`)).json()
      expect(pact.interactions).toHaveLength(500)
      // What the pact shows is what it showed from the whole view: the NewPet fields sent, the answer's id and fields.
      expect(pact.interactions[7].request.body.content).toEqual({ name: 'Rex7', categoryId: 1 })
      expect(pact.interactions[7].request.headers).toEqual({ Authorization: ['Bearer <API_KEY>'], 'Content-Type': ['application/json'] })
      expect(pact.interactions[7].response.body.content).toMatchObject({ name: 'Rex7', categoryId: 1 })
      expect(Object.keys(pact.interactions[7].response.headers).sort()).toEqual([
        'Content-Type',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ])
    }
  })

  it('refuses shapes past the byte budget, counts them and fails the export, saying so', async () => {
    const app = createApp({ seed: 1, pets: 5 })
    // Query names of 8 kB: each shape's example and shape hold them, so the budget ends before the 500 shapes do.
    await createPets(app, '', 500, (shape) => `${'q'.repeat(8000)}${shape}=1`)
    const usage = app.simulator.pact.usage()
    expect(usage.bytes).toBeLessThanOrEqual(usage.maxBytes)
    expect(usage.interactions).toBeLessThan(500)
    expect(usage.interactions + usage.overflow).toBe(500)
    const refused = await send(app, '/__sim/requests.pact')
    expect(refused.status).toBe(409)
    expect((await refused.json()).message).toContain(`${usage.overflow} more were not kept`)
    expect(app.simulator.journal.clearPact()).toBe(usage.interactions)
    expect(app.simulator.pact.usage()).toMatchObject({ interactions: 0, bytes: 0, overflow: 0 })
  })

  it('holds, measured, no more than its estimate once every sandbox is reset (10 sandboxes × 500 shapes)', () => {
    const script = fileURLToPath(new URL('./pact-memory.ts', import.meta.url))
    const line = execFileSync(process.execPath, ['--expose-gc', script, '10', '500'], { encoding: 'utf8', timeout: 120_000 })
    const { measuredBytes, estimated, interactions, maxBytes } = JSON.parse(line) as Record<string, number>
    expect(interactions).toBe(5000)
    // Before: 117 MB measured, every view's 20 kB body and 4 kB header kept (and no estimate at all).
    expect(measuredBytes).toBeLessThanOrEqual(10 * maxBytes!)
    // The estimates track what is held: above it (an over-estimate), within a few times it.
    expect(measuredBytes).toBeLessThanOrEqual(estimated!)
    expect(estimated).toBeLessThanOrEqual(4 * measuredBytes!)
  }, 120_000)
})
