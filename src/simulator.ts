import type { HttpHandler } from 'msw'
import demoKeys from '../fixtures/demo-keys.json' with { type: 'json' }
import { createKeyRing, type ApiKey, type KeySpec } from './core/api-keys.ts'
import { createSimulatorClock, type Clock, type SimulatorClock } from './core/clock.ts'
import { getPetDeprecation, type DeprecationPolicy } from './core/deprecation.ts'
import { parseFixturePets } from './core/fixture-pets.ts'
import { createPetStore, type PetStore } from './core/pet-store.ts'
import { createRateLimiter, defaultBanPolicy, type BanPolicy, type RateLimiter } from './core/rate-limiter.ts'
import { createRequestJournal, type RequestJournal } from './core/request-journal.ts'
import type { PetStatus } from './core/schemas.ts'
import { defaultPetCount, defaultSeed, generatePets } from './core/seed-pets.ts'
import type { Latency } from './http/api-context.ts'
import { createApiHandlers } from './http/api-handlers.ts'
import { setClientAddress } from './http/message-annotations.ts'

/** The demo keys used when no keys are given, one per plan (`fixtures/demo-keys.json`). */
export const demoKeySpec: KeySpec = demoKeys

export interface SimulatorOptions {
  /** Seed of the generated catalogue. Default 20301205: every run is the same. */
  seed?: number
  /** How many pets to generate. Default 50. Ignored with `fixtures`. */
  pets?: number
  /** Pets given as data instead of generated (validated; see `fixtures/pets.example.json`). */
  fixtures?: unknown
  /** API keys: token -> plan (`free`, `pro`, `business`, `enterprise:<perMinute>/<perDay>`). Default: the demo keys. */
  keys?: KeySpec
  /**
   * Where the API lives: a path prefix (any origin; default `/v1`) or a full
   * base URL such as your production or staging address, `https://api.example.com/v1`.
   */
  baseUrl?: string
  /** The time source. Default: real time. The simulator's own clock can still be moved (`simulator.clock`). */
  clock?: Clock
  /** The temporary ban after continued 429s: `{ after, durationMs }`, or `false` for none. Default 10 and 10 minutes. */
  ban?: Partial<BanPolicy> | false
  /** Status of a pet created without one. Default `available`. */
  defaultStatus?: PetStatus
  /** Delay every API response by this many ms, or by a random amount in a range. Default none. */
  latency?: Latency
  /** How many requests the journal keeps. Default 1000. */
  journalSize?: number
  /** When getPet counts as deprecated and when it is removed. Default: deprecated 2025-12-05, removed 2030-12-05. */
  deprecation?: Partial<DeprecationPolicy>
}

/**
 * One simulated Animal Store: its own store, keys, clock, limiter and journal.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSimulator } from 'petstore-sim'
 *
 * const simulator = createSimulator({ seed: 42 })
 * const server = setupServer(...simulator.handlers)
 * server.listen()
 * afterEach(() => simulator.reset())
 */
export interface Simulator {
  /** The MSW request handlers: give them to `setupServer` or `setupWorker`. */
  readonly handlers: HttpHandler[]
  readonly store: PetStore
  /** The simulator's clock: `advance(ms)` and `set(instant)` move rate-limit windows, bans and the sunset. */
  readonly clock: SimulatorClock
  /** The API keys in force, with their plans. */
  readonly keys: readonly ApiKey[]
  readonly limiter: RateLimiter
  /** The requests the API handlers answered, most recent last. */
  readonly journal: RequestJournal
  /** The API's path prefix, e.g. `/v1`. */
  readonly basePath: string
  /** Back to the state right after creation: initial pets, no counts or bans, empty journal, clock offset undone. */
  reset(): void
  /**
   * Tells the simulator the network address of a request's client, so that
   * requests without a valid key are limited per address. Transports call it.
   */
  setClientAddress(request: Request, address: string): void
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const { basePath, urlPrefix } = resolveBaseUrl(options.baseUrl ?? '/v1')
  const clock = createSimulatorClock(options.clock)
  const initialPets =
    options.fixtures === undefined
      ? generatePets({ seed: options.seed ?? defaultSeed, count: options.pets ?? defaultPetCount })
      : parseFixturePets(options.fixtures, options.defaultStatus)
  const store = createPetStore({ initialPets, defaultStatus: options.defaultStatus ?? 'available' })
  const keyRing = createKeyRing(options.keys ?? demoKeySpec)
  const ban = options.ban === false ? false : { ...defaultBanPolicy, ...options.ban }
  if (ban !== false && !(ban.after >= 0 && ban.durationMs > 0)) {
    throw new RangeError('ban.after must be 0 or more and ban.durationMs more than 0')
  }
  const limiter = createRateLimiter({ clock, ban })
  const journal = createRequestJournal({ capacity: options.journalSize })
  validateLatency(options.latency)

  const handlers = createApiHandlers({
    store,
    keyRing,
    limiter,
    clock,
    journal,
    deprecation: { ...getPetDeprecation, ...options.deprecation },
    basePath,
    urlPrefix,
    latency: options.latency,
  })

  return {
    handlers,
    store,
    clock,
    keys: keyRing.keys,
    limiter,
    journal,
    basePath,
    reset() {
      store.reset()
      limiter.reset()
      journal.clear()
      clock.resetOffset()
    },
    setClientAddress,
  }
}

/** Splits a base URL option into the path prefix and what msw matches. */
export function resolveBaseUrl(baseUrl: string): { basePath: string; urlPrefix: string } {
  const trimmed = baseUrl.replace(/\/+$/, '')
  if (trimmed.startsWith('/') || trimmed === '') {
    if (/[*?#:]/.test(trimmed)) throw new RangeError(`The base path must be a plain path like /v1 (got ${baseUrl})`)
    return { basePath: trimmed, urlPrefix: `*${trimmed}` }
  }
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    throw new RangeError(`The base URL must be a path like /v1 or an absolute URL (got ${baseUrl})`)
  }
  return { basePath: url.pathname.replace(/\/+$/, ''), urlPrefix: `${url.origin}${url.pathname.replace(/\/+$/, '')}` }
}

function validateLatency(latency: Latency | undefined): void {
  if (latency === undefined) return
  const valid =
    typeof latency === 'number'
      ? latency >= 0 && Number.isFinite(latency)
      : latency.min >= 0 && latency.max >= latency.min && Number.isFinite(latency.max)
  if (!valid) throw new RangeError('latency must be a number of ms of 0 or more, or { min, max } with 0 <= min <= max')
}
