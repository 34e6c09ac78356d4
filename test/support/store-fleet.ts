import { expect } from 'vitest'
import { scenarioCliArgs } from './cli-target.ts'
import { contractViolations } from './contract.ts'
import { startCli } from './cli-process.ts'
import type { RedisServer } from './redis-server.ts'

/**
 * Simulator processes sharing one store (`--store`, issue 40): the real CLI, each on its own free loopback port, as
 * replicas behind a load balancer are. The tests of test/shared-store start them on a Redis of their own
 * (`startRedisServer()`), and talk to each instance by its origin.
 */
export interface StoreInstance {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  readonly cli: Awaited<ReturnType<typeof startCli>>
  /** Whether the process is still running (a store that fails must never bring it down). */
  alive(): boolean
}

/**
 * The flags every instance of a fleet shares: one seeded catalogue, the given keys, the store and its namespace, and
 * `--store-timeout`: 5 s unless given, so that a machine busy with other tests never turns a slow answer of a healthy
 * store into a 503 (the fault tests give a short one, and look for the 503s).
 */
export function storeArgs(
  server: RedisServer,
  namespace: string,
  keys: Readonly<Record<string, string>>,
  more: readonly string[] = [],
  storeTimeoutMs = 5000,
) {
  return [
    ...scenarioCliArgs(keys),
    '--store',
    server.socketUrl,
    '--store-namespace',
    namespace,
    '--store-timeout',
    String(storeTimeoutMs),
    ...more,
  ]
}

/** Starts `count` instances together (as a fleet does: they race to seed the empty store), each with `args`. */
export async function startInstances(count: number, args: readonly string[]): Promise<StoreInstance[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startCli(args, {}, 20_000)))
  const instances = started.flatMap((result) => (result.status === 'fulfilled' ? [toInstance(result.value)] : []))
  const failed = started.find((result) => result.status === 'rejected')
  if (failed !== undefined) {
    await stopInstances(instances)
    throw failed.reason
  }
  return instances
}

function toInstance(cli: Awaited<ReturnType<typeof startCli>>): StoreInstance {
  return { origin: cli.origin, cli, alive: () => cli.child.exitCode === null && cli.child.signalCode === null }
}

export async function stopInstances(instances: readonly StoreInstance[]): Promise<void> {
  await Promise.all(instances.map((instance) => instance.cli.stop()))
}

export interface StoreCallOptions {
  readonly key?: string | null
  readonly method?: string
  readonly body?: unknown
  readonly headers?: Record<string, string>
  /** The sandbox whose API this is (`/sandboxes/<name>/v1`); the default world when undefined. */
  readonly sandbox?: string | undefined
}

export interface StoreAnswer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

/** The API base path of a world: `/v1`, or `/sandboxes/<name>/v1`. */
export const apiBase = (sandbox?: string) => `${sandbox === undefined ? '' : `/sandboxes/${sandbox}`}/v1`

/** One API request to one instance, its answer contract-checked against fixtures/openapi.yaml (as `checkedFetch` does). */
export async function callApi(instance: StoreInstance, path: string, options: StoreCallOptions = {}): Promise<StoreAnswer> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== null && options.key !== undefined) headers.authorization = `Bearer ${options.key}`
  let body: string | undefined
  if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers['content-type'] = 'application/json'
  }
  const base = apiBase(options.sandbox)
  const method = options.method ?? 'GET'
  const response = await fetch(`${instance.origin}${base}${path}`, { method, headers, body })
  const text = await response.text()
  // Checked as checkedFetch checks, with the body in the message: a failing test then shows what the instance said.
  const violations = contractViolations({ method, apiPath: path, status: response.status, headers: response.headers, bodyText: text })
  if (violations.length > 0) {
    throw new Error(
      `Contract violation by ${method} ${base}${path} -> ${response.status} ${text.slice(0, 300)}:\n- ${violations.join('\n- ')}`,
    )
  }
  return { status: response.status, headers: response.headers, body: parseBody(text) }
}

/** One control request (`/__sim…`) to one instance, for the default world or a sandbox. */
export async function control(
  instance: StoreInstance,
  path: string,
  options: { method?: string; body?: unknown; sandbox?: string | undefined } = {},
): Promise<StoreAnswer> {
  const prefix = options.sandbox === undefined ? '' : `/sandboxes/${options.sandbox}`
  const response = await fetch(`${instance.origin}${prefix}/__sim${path}`, {
    method: options.method ?? 'GET',
    // A control request that changes state is JSON, even without a body (else 415).
    headers: options.method === 'POST' || options.method === 'PUT' ? { 'content-type': 'application/json' } : {},
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    // Bounded: a control plane waiting on a store that does not answer fails the test rather than hang it.
    signal: AbortSignal.timeout(10_000),
  })
  return { status: response.status, headers: response.headers, body: await readBody(response) }
}

/** A control request that must succeed (2xx): its body. */
export async function controlOk(
  instance: StoreInstance,
  path: string,
  options: { method?: string; body?: unknown; sandbox?: string | undefined } = {},
): Promise<any> {
  const answer = await control(instance, path, options)
  expect(answer.status, `${options.method ?? 'GET'} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300)
  return answer.body
}

/** Sets the fleet's clock through one instance, frozen, as the scenario targets do. */
export async function freezeClock(instance: StoreInstance, iso: string, sandbox?: string): Promise<void> {
  await controlOk(instance, '/clock', { method: 'POST', body: { set: iso, freeze: true }, sandbox })
}

async function readBody(response: Response): Promise<unknown> {
  return parseBody(await response.text())
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The X-RateLimit-* headers and Retry-After of an answer, as numbers (NaN when absent). */
export function limitHeaders(answer: StoreAnswer) {
  const read = (name: string) => Number(answer.headers.get(name) ?? Number.NaN)
  return {
    limit: read('x-ratelimit-limit'),
    remaining: read('x-ratelimit-remaining'),
    reset: read('x-ratelimit-reset'),
    retryAfter: read('retry-after'),
  }
}

/**
 * The 503 a request gets while the store does not answer: the spec's Error body with `store_unavailable`, a
 * `Retry-After` of a whole number of seconds (at least 1), and the rate-limit headers the spec wants on every answer.
 */
export function expectStoreUnavailable(answer: StoreAnswer): void {
  expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 503, code: 'store_unavailable' })
  expect(Object.keys(answer.body).sort()).toEqual(['code', 'message', 'status'])
  expect(answer.body.status).toBe(503)
  expect(answer.body.message).toMatch(/store/i)
  expect(answer.headers.get('content-type')).toBe('application/json')
  expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(answer.headers.get(name), name).toMatch(/^\d+$/)
  }
}

/** A small seeded generator (mulberry32): the "random" splits are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state)
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Polls `read` (at most `attempts` times, `intervalMs` apart) until `done` holds of its value; returns the last value. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, attempts = 100, intervalMs = 50): Promise<T> {
  let value = await read()
  for (let attempt = 1; attempt < attempts && !done(value); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
    value = await read()
  }
  return value
}
