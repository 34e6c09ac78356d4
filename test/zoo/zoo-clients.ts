import axios from 'axios'
import axiosRetry from 'axios-retry'
import got from 'got'
import ky from 'ky'
import pRetry from 'p-retry'

// The zoo's clients: each a small program against one world of the API (its own sandbox), given the base URL, a key
// and, for the hand-written ones, the simulator's clock: `sleep` moves it (a frozen clock, so that "waited" is
// exactly what the client waited), `now` reads it. The library clients wait with their own timers, in real time, on a
// clock that runs: their world's clock starts 1.5 s before a minute ends, so Retry-After is 2 s at most.

export interface ZooWorld {
  readonly apiUrl: string
  readonly key: string
  sleep(milliseconds: number): Promise<void>
  now(): Promise<number>
}

export type ZooClient = (world: ZooWorld) => Promise<void>

const auth = (world: ZooWorld, key = world.key) => ({ authorization: `Bearer ${key}` })
/** Five listings: with `enterprise:3/1000`, the fourth meets a 429. */
const listings = 5

async function list(world: ZooWorld, query = 'limit=1', key = world.key): Promise<Response> {
  const response = await fetch(`${world.apiUrl}/pets?${query}`, { headers: auth(world, key) })
  await response.arrayBuffer()
  return response
}

class Limited extends Error {
  readonly retryAfterMs: number
  constructor(retryAfterMs: number) {
    super('429')
    this.retryAfterMs = retryAfterMs
  }
}

/** Well-behaved, on maintained retry libraries, each honouring Retry-After. */
export const wellBehaved: Readonly<Record<string, ZooClient>> = {
  async 'p-retry'(world) {
    for (let index = 0; index < listings; index++) {
      await pRetry(
        async () => {
          const response = await list(world)
          if (response.status === 429) throw new Limited(Number(response.headers.get('retry-after')) * 1000)
        },
        {
          retries: 5,
          minTimeout: 50,
          factor: 2,
          // Awaited before the next attempt: the Retry-After on top of the backoff.
          onFailedAttempt: async ({ error }) => {
            if (error instanceof Limited) await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs))
          },
        },
      )
    }
  },
  async ky(world) {
    const api = ky.create({
      prefix: world.apiUrl,
      headers: auth(world),
      retry: { limit: 5, methods: ['get'], statusCodes: [429], afterStatusCodes: [429] },
      timeout: false,
    })
    for (let index = 0; index < listings; index++) await api.get('pets', { searchParams: { limit: 1 } }).json()
  },
  async 'axios-retry'(world) {
    // The fetch adapter: the same client in-process, where a test's fetch answers it.
    const client = axios.create({ baseURL: world.apiUrl, headers: auth(world), adapter: 'fetch' })
    axiosRetry(client, {
      retries: 5,
      retryCondition: (error) => error.response?.status === 429,
      // Exponential, but never shorter than the Retry-After.
      retryDelay: (count, error) =>
        Math.max(axiosRetry.exponentialDelay(count, error, 50), Number(error.response?.headers['retry-after'] ?? 0) * 1000),
    })
    for (let index = 0; index < listings; index++) await client.get('/pets', { params: { limit: 1 } })
  },
  async got(world) {
    const api = got.extend({ prefixUrl: world.apiUrl, headers: auth(world), retry: { limit: 5, statusCodes: [429] } })
    for (let index = 0; index < listings; index++) await api.get('pets', { searchParams: { limit: 1 } }).json()
  },
  /** Hand-written: when X-RateLimit-Remaining reaches 0, waits until X-RateLimit-Reset; never meets a 429. */
  async 'rate-limit headers'(world) {
    for (let index = 0; index < listings; index++) {
      const response = await list(world)
      if (response.status !== 200) throw new Error(`got ${response.status}`)
      if (response.headers.get('x-ratelimit-remaining') === '0') {
        await world.sleep(Number(response.headers.get('x-ratelimit-reset')) * 1000 - (await world.now()))
      }
    }
  },
  /** Hand-written: exponential backoff from the Retry-After (each wait at least the Retry-After). */
  async 'retry-after, doubled'(world) {
    let attempt = 0
    for (let sent = 0; sent < listings + 3; sent++) {
      const response = await list(world)
      if (response.status !== 429) {
        attempt = 0
        continue
      }
      await world.sleep(Number(response.headers.get('retry-after')) * 1000 * 2 ** attempt++)
    }
  },
}

/** Three listings, then retries after the 429 on a schedule of delays (ms) that ignores its Retry-After. */
async function retriesAfter(world: ZooWorld, delays: readonly number[]): Promise<void> {
  for (let index = 0; index < 4; index++) await list(world)
  for (const delay of delays) {
    if (delay > 0) await world.sleep(delay)
    await list(world)
  }
}

/** Misbehaving, each with the rule ids it earns. */
export const misbehaving: Readonly<Record<string, { readonly client: ZooClient; readonly rules: readonly string[] }>> = {
  'immediate retry loop': { client: (world) => retriesAfter(world, [0, 0, 0, 0]), rules: ['retry-after-ignored', 'no-backoff'] },
  'fixed short delay': { client: (world) => retriesAfter(world, [200, 200, 200]), rules: ['retry-after-ignored', 'no-backoff'] },
  'exponential, Retry-After ignored': { client: (world) => retriesAfter(world, [100, 200, 400, 800]), rules: ['retry-after-ignored'] },
  'hammering into a ban': {
    client: (world) =>
      retriesAfter(
        world,
        Array.from({ length: 14 }, () => 0),
      ),
    rules: ['retry-after-ignored', 'no-backoff', 'banned'],
  },
  'getPet past its removal': {
    async client(world) {
      await fetch(`${world.apiUrl}/pets/1`, { headers: auth(world) }).then((response) => response.arrayBuffer())
      // The removal date passes (the test's clock move): the app still calls getPet.
      await world.sleep(Date.UTC(2030, 11, 5) - (await world.now()))
      const response = await fetch(`${world.apiUrl}/pets/1`, { headers: auth(world) })
      if (response.status !== 410) throw new Error(`got ${response.status}`)
      await response.arrayBuffer()
    },
    rules: ['deprecated-operation', 'removed-operation'],
  },
  'limit=500': { client: (world) => list(world, 'limit=500').then(() => undefined), rules: ['invalid-request'] },
  'wrong key': { client: (world) => list(world, 'limit=1', 'not-a-key').then(() => undefined), rules: ['unauthenticated'] },
  'createPet retried after a timeout': {
    async client(world) {
      const body = JSON.stringify({ name: 'Rex', categoryId: 1 })
      const create = (signal?: AbortSignal) =>
        fetch(`${world.apiUrl}/pets`, { method: 'POST', headers: { ...auth(world), 'content-type': 'application/json' }, body, signal })
      // No answer comes (the world's fault rule hangs it): the client gives up after 100 ms, backs off, sends it again.
      await create(AbortSignal.timeout(100)).then(
        (response) => response.arrayBuffer(),
        () => undefined,
      )
      await new Promise((resolve) => setTimeout(resolve, 500))
      const again = await create()
      if (again.status !== 201) throw new Error(`got ${again.status}`)
      await again.arrayBuffer()
    },
    rules: ['duplicate-create'],
  },
}
