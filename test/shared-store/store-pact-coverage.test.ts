import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppOptions } from '../../src/app/app.ts'
import type { Pact } from '../../src/core/contract/pact-export.ts'
import { createNodeApp, startServer } from '../../src/node.ts'
import { startCli } from '../support/cli-process.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { newPet, startFleet } from './fleet.ts'

// Issue 45, High 3: on the store, the README's flow (requests, `POST /__sim/reset` between tests, then the pact)
// answered 0 interactions and coverage 0 where memory mode gave 6 and 4, and a clock move or a fault rule cleared them
// too. The pact and coverage survive resets, clock moves and fault rules on the store as they do in memory, on the
// instance that published the change and on the one that did not.
const options: AppOptions = { seed: 3, pets: 4, keys: { 'demo-pro-key': 'pro' } }
let redis: RedisServer
let namespaces = 0
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(async () => {
  await redis?.stop()
})

interface Target {
  api(index: number, path: string, init?: RequestInit): Promise<Response>
  control(index: number, path: string, method?: string, body?: unknown): Promise<Response>
}

/** What a test run reads at its end: the pact's interactions and the coverage's met answers. */
interface Outcome {
  readonly interactions: number
  readonly met: number
}

async function read(target: Target, index: number): Promise<Outcome> {
  const pact = (await (await target.control(index, '/__sim/requests.pact')).json()) as { interactions: unknown[] }
  const coverage = (await (await target.control(index, '/__sim/coverage')).json()) as { summary: { met: number } }
  return { interactions: pact.interactions.length, met: coverage.summary.met }
}

/**
 * Two "tests" of the README's flow, a reset between them, traffic through `instances` in turn; then a clock move and
 * a fault rule added and removed, each of which changes the world but must leave the pact and coverage alone.
 */
async function readmeFlow(target: Target, instances: readonly number[]): Promise<void> {
  const on = (step: number) => instances[step % instances.length]!
  const key = { authorization: 'Bearer demo-pro-key' }
  await target.api(on(0), '/pets?limit=2', { headers: key })
  await target.api(on(1), '/pets/1', { headers: key })
  await target.api(on(2), '/pets', { ...newPet('Rex'), headers: { ...key, 'content-type': 'application/json' } })
  expect((await target.control(on(3), '/__sim/reset', 'POST', {})).status).toBe(200)
  await target.api(on(4), '/pets/999999', { headers: key })
  await target.api(on(5), '/pets?limit=1')
  await target.api(on(6), '/pets', { method: 'POST', headers: { ...key, 'content-type': 'text/plain' }, body: 'x' })
  expect((await target.control(on(7), '/__sim/reset', 'POST', {})).status).toBe(200)
  expect((await target.control(on(8), '/__sim/clock', 'POST', { advance: '1h' })).status).toBe(200)
  const added = await target.control(on(9), '/__sim/faults', 'POST', { operation: 'listPets', status: 503 })
  expect(added.status).toBeLessThan(300)
  expect((await target.control(on(10), '/__sim/faults', 'DELETE')).status).toBeLessThan(300)
}

/** The same flow in memory mode: the numbers the store must give. */
async function inMemory(): Promise<Outcome> {
  const app = createNodeApp(options)
  const server = await startServer({ app, port: 0, host: '127.0.0.1', log: 'silent' })
  const origin = server.url.replace(/\/$/, '')
  const target: Target = {
    api: (_index, path, init) => fetch(`${origin}/v1${path}`, init),
    control: (_index, path, method = 'GET', body) => control(origin, path, method, body),
  }
  try {
    await readmeFlow(target, [0])
    return await read(target, 0)
  } finally {
    await server.close()
  }
}

function control(origin: string, path: string, method: string, body: unknown): Promise<Response> {
  return fetch(`${origin}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
}

async function onStore(size: number, instances: readonly number[]): Promise<Outcome[]> {
  const fleet = await startFleet(size, { url: redis.socketUrl, namespace: `pact-${++namespaces}` }, options)
  const target: Target = {
    api: (index, path, init) => fetch(`${fleet.origins[index]}/v1${path}`, init),
    control: (index, path, method = 'GET', body) => control(fleet.origins[index]!, path, method, body),
  }
  try {
    await readmeFlow(target, instances)
    const outcomes: Outcome[] = []
    for (let index = 0; index < size; index++) outcomes.push(await read(target, index))
    return outcomes
  } finally {
    await fleet.close()
  }
}

describe('the pact and coverage on the store (issue 45, High 3)', () => {
  let memory: Outcome
  beforeAll(async () => {
    memory = await inMemory()
  })

  it('memory mode records the flow: the numbers the store is held to are not nothing', () => {
    expect(memory.interactions).toBeGreaterThanOrEqual(5)
    expect(memory.met).toBeGreaterThanOrEqual(4)
  })

  it('keeps them through resets, a clock move and fault rules on one instance, as memory mode does', async () => {
    expect(await onStore(1, [0])).toEqual([memory])
  })

  it('gives the same on two instances, on the one that published the changes and on the one that did not', async () => {
    // All traffic and every change through instance 0: instance 1 only reads.
    expect(await onStore(2, [0])).toEqual([memory, memory])
    // Traffic and changes through both in turn.
    expect(await onStore(2, [0, 1])).toEqual([memory, memory])
  })
})

describe('--pact at SIGTERM on the store (issue 45, High 3)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-store-pact-'))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  /** The README's flow through `count` CLI processes (on the store given by `store`, or in memory); each one's pact. */
  async function pactsOf(count: number, store: readonly string[]): Promise<string[][]> {
    const files = Array.from({ length: count }, (_, index) => join(directory, `${store.length === 0 ? 'memory' : 'store'}-${index}.json`))
    const clis: Awaited<ReturnType<typeof startCli>>[] = []
    for (const file of files) clis.push(await startCli(['--port', '0', '--log', 'silent', '--seed', '3', '--pact', file, ...store]))
    const target: Target = {
      api: (index, path, init) => fetch(`${clis[index]!.apiUrl}${path}`, init),
      control: (index, path, method = 'GET', body) => control(clis[index]!.origin, path, method, body),
    }
    await readmeFlow(
      target,
      clis.map((_, index) => index),
    )
    for (const cli of clis) expect(await cli.stop()).toBe(0)
    return files.map((file) => (JSON.parse(readFileSync(file, 'utf8')) as Pact).interactions.map((interaction) => interaction.description))
  }

  it('writes on every instance the interactions memory mode writes', async () => {
    const [memory] = await pactsOf(1, [])
    expect(memory!.length).toBeGreaterThanOrEqual(3)
    const onStore = await pactsOf(2, ['--store', redis.socketUrl, '--store-namespace', 'pact-cli'])
    expect(onStore).toEqual([memory, memory])
  }, 60_000)
})
