import { afterAll, beforeAll, beforeEach, describe, expect } from 'vitest'
import type { AppOptions } from '../../../src/app/app.ts'
import { createNodeApp, startServer } from '../../../src/node.ts'
import { connectStore } from '../../../src/node/shared-store/connect-store.ts'
import { contractViolations } from '../../support/contract.ts'
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts'

/**
 * The world contract (issue 46, part 2): one suite, written once, run against every kind of world. A kind is how the
 * state of a world is kept: in memory (one simulator), in the shared store with one instance, and in the shared store
 * with two instances on one Redis. Every case makes its change through instance `a` and reads it back on every
 * instance of `readers` (`a`, and `b` when there is one), over HTTP only: the API and the `/__sim` control plane.
 *
 * This file is the suite's only coupling to how a world is built (`createNodeApp`, and `connectStore` as the CLI's
 * `--store` uses it, `src/cli/start-serving.ts`): the cases know nothing of the store's insides, so they hold while
 * those are rewritten (the `World` interface of issue 46, part 1).
 */

/** One simulator of a world, reached by its loopback origin. */
export interface Instance {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  /** The name used in assertion messages: `a`, `b`, `late`. */
  readonly name: string
  /** An API request (`/v1…`, or a sandbox's), its answer checked against fixtures/openapi.yaml. */
  api(path: string, options?: ApiOptions): Promise<Answer>
  /** A control request (`/__sim…`, or a sandbox's); a POST or PUT is sent as JSON. */
  control(path: string, options?: ControlOptions): Promise<Answer>
  /** A control request that must answer 2xx: its body. */
  controlOk(path: string, options?: ControlOptions): Promise<any>
}

export interface ApiOptions {
  /** The API key sent as a bearer token; `null` for none. Default {@link proKey}. */
  readonly key?: string | null
  readonly method?: string
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
  readonly sandbox?: string
}

export interface ControlOptions {
  readonly method?: string
  readonly body?: unknown
  readonly sandbox?: string
}

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

export type WorldKind = 'memory' | 'store, one instance' | 'store, two instances'

export interface World {
  readonly kind: WorldKind
  /** The instance every change is made through. */
  readonly a: Instance
  /** The instances a change is read back on: `a`, and the other instance when the world has two. */
  readonly readers: readonly Instance[]
  /** Whether the world is kept in the shared store. */
  readonly shared: boolean
  /**
   * Another instance of the same world started now, after `a` has served what it served: in the store, a new
   * simulator on the same store and namespace, with the same options; in memory there is no other instance, so `a`.
   * Closed with the world.
   */
  startLate(): Promise<Instance>
  /**
   * Runs `flow` on a fresh simulator in memory started with the same options, and gives what it returned: the
   * figures memory mode gives for the same traffic, which every kind of world must give.
   */
  inMemory<T>(flow: (readers: readonly Instance[]) => Promise<T>): Promise<T>
}

/** The keys every world is started with (besides the options a describe gives). */
export const proKey = 'contract-pro-key'
export const freeKey = 'contract-free-key'
/** A key with a tiny plan, for the limits: 3 a minute, 5 a day. */
export const tinyKey = 'contract-tiny-key'

/** The options every world starts with: a small seeded catalogue and the keys above. */
export const baseOptions: AppOptions = {
  seed: 46,
  pets: 6,
  keys: { [proKey]: 'pro', [freeKey]: 'free', [tinyKey]: 'enterprise:3/5' },
}

/** An instant the cases freeze the clock at, away from a minute's edge. */
export const frozenAt = '2031-03-04T05:06:07.000Z'

interface Started {
  readonly instance: Instance
  close(): Promise<void>
}

async function serve(
  name: string,
  options: AppOptions,
  store?: { url: string; namespace: string },
  server: { readonly trustProxy?: readonly string[] } = {},
): Promise<Started> {
  const connected =
    store === undefined ? undefined : await connectStore({ url: store.url, namespace: store.namespace, waitMs: 5000, timeoutMs: 5000 })
  try {
    const app = createNodeApp({ ...connected?.appOptions, ...options })
    await connected?.attach(app)
    const running = await startServer({ ...server, app, port: 0, host: '127.0.0.1', log: 'silent' })
    return {
      instance: instanceAt(name, running.url.replace(/\/$/, '')),
      async close() {
        await running.close()
        await connected?.close()
      },
    }
  } catch (error) {
    await connected?.close()
    throw error
  }
}

const worldPrefix = (sandbox: string | undefined) => (sandbox === undefined ? '' : `/sandboxes/${sandbox}`)

function instanceAt(name: string, origin: string): Instance {
  const control = async (path: string, options: ControlOptions = {}): Promise<Answer> => {
    const method = options.method ?? 'GET'
    const response = await fetch(`${origin}${worldPrefix(options.sandbox)}/__sim${path}`, {
      method,
      headers: method === 'POST' || method === 'PUT' ? { 'content-type': 'application/json' } : {},
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(10_000),
    })
    return read(response)
  }
  return {
    origin,
    name,
    async api(path, options = {}) {
      const key = options.key === undefined ? proKey : options.key
      const headers: Record<string, string> = { ...options.headers }
      if (key !== null) headers.authorization = `Bearer ${key}`
      let body: string | undefined
      if (options.body !== undefined) {
        body = JSON.stringify(options.body)
        headers['content-type'] ??= 'application/json'
      }
      const method = options.method ?? 'GET'
      const response = await fetch(`${origin}${worldPrefix(options.sandbox)}/v1${path}`, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(10_000),
      })
      const answer = await read(response)
      const violations = contractViolations({
        method,
        apiPath: path,
        status: answer.status,
        headers: answer.headers,
        bodyText: answer.text,
      })
      if (violations.length > 0) {
        throw new Error(
          `${name}: ${method} ${path} -> ${answer.status} ${answer.text.slice(0, 300)} breaks the contract:\n- ${violations.join('\n- ')}`,
        )
      }
      return answer
    },
    control,
    async controlOk(path, options = {}) {
      const answer = await control(path, options)
      expect(answer.status, `${name}: ${options.method ?? 'GET'} /__sim${path} answered ${answer.text.slice(0, 300)}`).toBeLessThan(300)
      return answer.body
    },
  }
}

async function read(response: Response): Promise<Answer> {
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON (the HAR is JSON; the dashboard is not): the text
  }
  return { status: response.status, headers: response.headers, body, text }
}

let namespaces = 0

async function startWorld(kind: WorldKind, options: AppOptions): Promise<World & { close(): Promise<void> }> {
  const started: Started[] = []
  const inMemory = async <T>(flow: (readers: readonly Instance[]) => Promise<T>): Promise<T> => {
    const reference = await serve('memory', options)
    try {
      return await flow([reference.instance])
    } finally {
      await reference.close()
    }
  }
  let redis: RedisServer | undefined
  const close = async () => {
    for (const one of started.reverse()) await one.close()
    await redis?.stop()
  }
  try {
    if (kind === 'memory') {
      started.push(await serve('a', options))
      const a = started[0]!.instance
      return { kind, a, readers: [a], shared: false, startLate: async () => a, inMemory, close }
    }
    redis = await startRedisServer()
    const store = { url: redis.socketUrl, namespace: `contract-${process.pid}-${++namespaces}` }
    started.push(await serve('a', options, store))
    if (kind === 'store, two instances') started.push(await serve('b', options, store))
    const readers = started.map((one) => one.instance)
    return {
      kind,
      a: readers[0]!,
      readers,
      shared: true,
      async startLate() {
        const late = await serve('late', options, store)
        started.push(late)
        return late.instance
      },
      inMemory,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

/** Every kind of world the contract holds for. */
export const worldKinds: readonly WorldKind[] = ['memory', 'store, one instance', 'store, two instances']

/**
 * Back to a world's start before each case: reset, no fault rules, sandboxes, journal, pact or coverage (which a
 * reset keeps), through `a`. Each step's answer is checked: a clean slate that did not happen fails the case.
 */
async function cleanSlate(world: World): Promise<void> {
  const { a } = world
  await a.controlOk('/scenario', { method: 'POST', body: { name: 'default' } })
  await a.controlOk('/faults', { method: 'DELETE' })
  const { sandboxes } = await a.controlOk('/sandboxes')
  for (const sandbox of sandboxes as { name: string }[]) {
    expect((await a.control(`/sandboxes/${sandbox.name}`, { method: 'DELETE' })).status).toBe(204)
  }
  await a.controlOk('/requests', { method: 'DELETE' })
  await a.controlOk('/requests.pact', { method: 'DELETE' })
  await a.controlOk('/coverage', { method: 'DELETE' })
}

/**
 * Defines the same cases once per kind of world (`describeMatrix`'s shape): one world per kind for the describe,
 * started with {@link baseOptions} and `options`, back to its start before each case.
 */
export function describeWorlds(title: string, define: (world: () => World) => void, options: AppOptions = {}): void {
  for (const kind of worldKinds) {
    describe(`${title} [${kind}]`, () => {
      let world: (World & { close(): Promise<void> }) | undefined
      beforeAll(async () => {
        world = await startWorld(kind, { ...baseOptions, ...options })
      }, 30_000)
      afterAll(async () => {
        await world?.close()
      })
      beforeEach(async () => {
        await cleanSlate(world!)
      })
      define(() => world!)
    })
  }
}

/** A createPet body. */
export const newPet = (name: string, categoryId = 1) => ({ name, categoryId })

/**
 * For the limiter's differential test: a simulator in memory (the TypeScript limiter) and two instances on one store
 * (the store's admission script), started with the same options, each trusting loopback as a proxy so that
 * `X-Forwarded-For` names the anonymous callers.
 */
export async function startLimiterPair(options: AppOptions): Promise<{
  readonly memory: Instance
  readonly store: readonly [Instance, Instance]
  close(): Promise<void>
}> {
  const server = { trustProxy: ['loopback'] }
  const redis = await startRedisServer()
  const started: Started[] = []
  const close = async () => {
    for (const one of started.reverse()) await one.close()
    await redis.stop()
  }
  try {
    const store = { url: redis.socketUrl, namespace: `limiter-${process.pid}` }
    started.push(await serve('memory', options, undefined, server))
    started.push(await serve('store a', options, store, server))
    started.push(await serve('store b', options, store, server))
    return { memory: started[0]!.instance, store: [started[1]!.instance, started[2]!.instance], close }
  } catch (error) {
    await close()
    throw error
  }
}
