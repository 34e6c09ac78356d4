import demoKeys from '../../../fixtures/demo-keys.json' with { type: 'json' }
import { createKeyRing, type ApiKey, type KeySpec } from '../access/api-keys.ts'
import { createApiPipeline, type ApiPipeline } from '../pipeline/api-pipeline.ts'
import { ApiError } from '../pipeline/api-error.ts'
import { createSimulatorClock, isInstant, type Clock, type SimulatorClock } from '../time/clock.ts'
import { defaults } from './defaults.ts'
import { getPetDeprecation, type DeprecationPolicy } from '../api/deprecation.ts'
import { createJsonCache } from '../pipeline/json-text.ts'
import { parseFixturePets } from '../catalogue/fixture-pets.ts'
import { createPetStore, type PetStore } from '../catalogue/pet-store.ts'
import { createRateLimiter, type BanPolicy, type RateLimiter } from '../access/rate-limiter.ts'
import { createOriginPolicy, type OriginPolicy } from '../access/origin-policy.ts'
import { createRequestJournal, type RequestJournal } from './request-journal.ts'
import type { PetStatus } from '../api/pet-types.ts'
import { generatePets } from '../catalogue/seed-pets.ts'
import { createSeededRandom } from './seeded-random.ts'
import type { FaultRuleInput, FaultRules } from '../faults/fault-rules.ts'
import type { Latency, RandomSource, SimulatorState } from './simulator-context.ts'
import { createSimulatorEvents, type SimulatorEvents } from './simulator-events.ts'
import { readSnapshot, type SimulatorSnapshot } from './simulator-state.ts'

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
  /** Largest request body in bytes, on every lane; larger ones get 413. Default 1 MiB. */
  bodyLimit?: number
  /** The most rate-limit buckets kept for callers without a valid key; past it the least recently used is forgotten. Default 100,000. */
  maxAnonymousBuckets?: number
  /** The most pets createPet may add until a reset; past it createPet answers 507 `store_full`. Default 100,000. */
  maxPets?: number
  /** Whether `Prefer: code=<status>` forces an operation's documented answer. Default true. */
  prefer?: boolean
  /**
   * Origins of the web pages that may call the simulator over the network (`app.fetch`, the server), besides the
   * pages of this machine (`localhost`, `127.x.y.z`, `[::1]`), which always may; `['*']` for any. Others get 403
   * `origin_not_allowed`. In-process MSW handlers answer the page they run in, and never check.
   */
  corsOrigins?: readonly string[]
  /** Fault rules in force from the start (and again after every reset); more can be added with `faults.add`. */
  faults?: readonly FaultRuleInput[]
}

/**
 * One simulated Animal Store without any transport: its store, keys, clock,
 * limiter, journal and the API pipeline over them. The MSW handlers
 * (`createSimulator`), `createApp` and the Node server are lanes onto it.
 */
export interface SimulatorCore {
  readonly store: PetStore
  /** The simulator's clock: `advance(ms)` and `set(instant)` move rate-limit windows, bans and the sunset. */
  readonly clock: SimulatorClock
  /** The API keys in force, with their plans. */
  readonly keys: readonly ApiKey[]
  readonly limiter: RateLimiter
  /** The requests the API answered, most recent last. */
  readonly journal: RequestJournal
  /** The API's path prefix, e.g. `/v1`. */
  readonly basePath: string
  /** The origin and prefix of a full base URL (`https://api.example.com/v1`); `undefined` for a path prefix (any origin). */
  readonly baseOrigin: string | undefined
  /** The API pipeline every lane answers API requests through. */
  readonly pipeline: ApiPipeline
  /** The fault rules in force: `add(rule)` -> id, `remove(id)`, `list()`, `clear()`. `reset()` puts back the ones given as options. */
  readonly faults: FaultRules
  /** Largest request body in bytes that any lane reads. */
  readonly bodyLimit: number
  /** Which web pages may call over the network (see `corsOrigins`). */
  readonly origins: OriginPolicy
  /**
   * What happens to the simulator, as it happens: each request the API
   * answered, and each reset, clock move and change of the fault rules.
   * Costs nothing per request while no one listens.
   */
  readonly events: SimulatorEvents
  /** Back to the state right after creation: initial pets, no counts or bans, empty journal, clock offset undone. */
  reset(): void
  /**
   * The picture the dashboard shows, as data (also `GET /__sim/state`): the
   * keys with both windows' usage and bans, the anonymous callers in
   * aggregate, the clock, the fault rules, request counts and pets.
   */
  state(): SimulatorSnapshot
}

/** Pets whose JSON text is kept: more than the pages listPets can show (3 statuses and none, 100 each). */
const petJsonCacheSize = 10_000

export function createSimulatorCore(options: SimulatorOptions = {}): SimulatorCore {
  const { basePath, origin } = resolveBaseUrl(options.baseUrl ?? defaults.basePath)
  const events = createSimulatorEvents()
  // A reset publishes one event, not the clock and fault changes it is made of.
  let resetting = false
  let resets = 0
  const changed = (type: 'clock' | 'faults') => {
    if (!resetting) events.changed(type)
  }
  const clock = createSimulatorClock(options.clock === undefined ? undefined : checkedClock(options.clock), () => changed('clock'))
  const defaultStatus = options.defaultStatus ?? defaults.defaultStatus
  const seed = options.seed ?? defaults.seed
  const initialPets =
    options.fixtures === undefined
      ? generatePets({ seed, count: options.pets ?? defaults.pets })
      : parseFixturePets(options.fixtures, defaultStatus)
  const maxPets = options.maxPets ?? defaults.maxPets
  if (!(Number.isSafeInteger(maxPets) && maxPets >= 0)) throw new RangeError(`maxPets must be a whole number of 0 or more (got ${maxPets})`)
  const store = createPetStore({ initialPets, defaultStatus, maxCreated: maxPets })
  const keyRing = createKeyRing(options.keys ?? demoKeySpec)
  const ban = options.ban === false ? false : { ...defaults.ban, ...options.ban }
  const limiter = createRateLimiter({ clock, ban, maxAnonymousBuckets: options.maxAnonymousBuckets ?? defaults.maxAnonymousBuckets })
  const journal = createRequestJournal({ capacity: options.journalSize ?? defaults.journalSize, onRecord: events.request })
  validateLatency(options.latency)
  const bodyLimit = options.bodyLimit ?? defaults.bodyLimit
  if (!(Number.isSafeInteger(bodyLimit) && bodyLimit >= 0))
    throw new RangeError(`bodyLimit must be a whole number of bytes (got ${bodyLimit})`)
  const state: SimulatorState = {
    store,
    keyRing,
    limiter,
    clock,
    journal,
    deprecation: { ...getPetDeprecation, ...options.deprecation },
    basePath,
    latency: options.latency,
    petJson: createJsonCache(petJsonCacheSize),
    random: createRandomSource(seed),
    prefer: options.prefer ?? true,
    resets: () => resets,
  }
  const pipeline = createApiPipeline(state, { onFaultsChange: () => changed('faults') })
  const initialFaults = options.faults ?? []
  const addInitialFaults = () => {
    for (const rule of initialFaults) pipeline.faults.add(rule)
  }
  addInitialFaults()

  return {
    store,
    clock,
    keys: keyRing.keys,
    limiter,
    journal,
    basePath,
    baseOrigin: origin,
    pipeline,
    faults: pipeline.faults,
    bodyLimit,
    origins: createOriginPolicy(options.corsOrigins),
    events,
    reset() {
      resetting = true
      // First: requests under way from now on belong to the state before, and are not journaled after it.
      resets++
      try {
        store.reset()
        state.petJson.clear()
        state.random.reset()
        pipeline.faults.clear()
        addInitialFaults()
        limiter.reset()
        journal.clear()
        clock.resetOffset()
      } finally {
        resetting = false
      }
      events.changed('reset')
    },
    state: () =>
      readSnapshot({
        clock,
        keys: keyRing.keys,
        demoKeys: options.keys === undefined,
        limiter,
        ban,
        faults: pipeline.faults,
        journal,
        pets: () => store.size,
        basePath,
        deprecation: state.deprecation,
      }),
  }
}

/**
 * The simulator's own generator, seeded like its catalogue (but with a
 * sequence of its own): the same seed gives the same latencies and the same
 * fault sequence in every run; reset starts the sequence over.
 */
function createRandomSource(seed: number): RandomSource {
  let next = createSeededRandom(seed + 0.5)
  return {
    next: () => next(),
    reset() {
      next = createSeededRandom(seed + 0.5)
    },
  }
}

/**
 * Splits a base URL option into its path prefix and, for a full URL, its
 * origin.
 *
 * @example
 * resolveBaseUrl('/v1/') // { basePath: '/v1', origin: undefined }
 * resolveBaseUrl('https://api.example.com/v1') // { basePath: '/v1', origin: 'https://api.example.com' }
 */
export function resolveBaseUrl(baseUrl: string): { basePath: string; origin: string | undefined } {
  const trimmed = baseUrl.replace(/\/+$/, '')
  if (trimmed.startsWith('/') || trimmed === '') {
    if (/[*?#:]/.test(trimmed)) throw new RangeError(`The base path must be a plain path like /v1 (got ${baseUrl})`)
    return { basePath: trimmed, origin: undefined }
  }
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    throw new RangeError(`The base URL must be a path like /v1 or an absolute URL (got ${baseUrl})`)
  }
  return { basePath: url.pathname.replace(/\/+$/, ''), origin: url.origin }
}

/**
 * A clock given as an option, each reading checked where it is read: a `NaN` or an instant outside 1970..9999 went
 * out as `X-RateLimit-Reset: NaN`, and threw a `RangeError` in the dashboard's timer, which ended the process. A
 * bad reading is now an `invalid_clock` error: the request that read it gets a 500 Error body naming the clock.
 */
function checkedClock(source: Clock): Clock {
  return {
    now() {
      const value = source.now()
      if (isInstant(value)) return value
      throw new ApiError(
        'invalid_clock',
        `The simulator's clock (the clock option) read ${typeof value === 'number' ? String(value) : typeof value}: a clock must give whole milliseconds from 1970 to 9999`,
      )
    },
  }
}

function validateLatency(latency: Latency | undefined): void {
  if (latency === undefined) return
  const valid =
    typeof latency === 'number'
      ? latency >= 0 && Number.isFinite(latency)
      : latency.min >= 0 && latency.max >= latency.min && Number.isFinite(latency.max)
  if (!valid) throw new RangeError('latency must be a number of ms of 0 or more, or { min, max } with 0 <= min <= max')
}
