import demoKeys from '../../../fixtures/demo-keys.json' with { type: 'json' }
import { createKeyRing, type ApiKey, type KeyRing, type KeySpec } from '../access/api-keys.ts'
import { createApiPipeline, type ApiPipeline } from '../pipeline/api-pipeline.ts'
import { ApiError } from '../pipeline/api-error.ts'
import { createSimulatorClock, isInstant, type Clock, type SimulatorClock } from '../time/clock.ts'
import { defaults } from './defaults.ts'
import { getPetDeprecation, type DeprecationPolicy } from '../api/deprecation.ts'
import { createJsonCache } from '../pipeline/json-text.ts'
import { createPetStore, type PetStore } from '../catalogue/pet-store.ts'
import { createRateLimiter, type BanPolicy, type RateLimiter } from '../access/rate-limiter.ts'
import { createOriginPolicy, type OriginPolicy } from '../access/origin-policy.ts'
import { createRequestJournal, type RequestJournal } from './request-journal.ts'
import { apiRoutes } from '../api/api-routes.ts'
import { createCoverageTally, type ContractCoverage } from './contract-coverage.ts'
import type { PetStatus } from '../api/pet-types.ts'
import type { GeneratePet } from '../catalogue/seed-pets.ts'
import { createSeededRandom } from './seeded-random.ts'
import type { FaultRuleInput, FaultRules } from '../faults/fault-rules.ts'
import type { Latency, RandomSource, SimulatorState } from './simulator-context.ts'
import { createSimulatorEvents, type SimulatorEvents } from './simulator-events.ts'
import { readSnapshot, type SimulatorSnapshot } from './simulator-state.ts'
import { scenarioTable, type ScenarioDefinition, type ScenarioSummary } from './scenarios.ts'
import type { StateSnapshot } from './state-snapshot.ts'
import { createStateControl, type StateConfig } from './state-control.ts'

/** The demo keys used when no keys are given, one per plan (`fixtures/demo-keys.json`). */
export const demoKeySpec: KeySpec = demoKeys

export interface SimulatorOptions {
  /** Seed of the generated catalogue. Default 20301205: every run is the same. */
  seed?: number
  /** How many pets to generate. Default 50. Ignored with `fixtures`. */
  pets?: number
  /** Pets given as data instead of generated (validated; see `fixtures/pets.example.json`). */
  fixtures?: unknown
  /**
   * Shapes each generated pet with faker's API, `({ faker, id, pet }) => ({ ...pet, name: … })`:
   * `faker` is seeded with `seed`, the result is validated like a fixture. Not with `fixtures`.
   */
  generatePet?: GeneratePet
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
  /** The most bytes the journal's exchanges hold (estimated); the oldest are evicted past it. Default 16 MiB. */
  journalMaxBytes?: number
  /** The most bytes the journal keeps of each body, the rest cut and marked `truncated`. Default 64 KiB. */
  journalBodyCapBytes?: number
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
  /** Your own named scenarios (presets of state), beside the built-in ones; one of the same name replaces a built-in. */
  scenarios?: Readonly<Record<string, ScenarioDefinition>>
  /** The scenario to start in. Default `default`: the options above as they are. */
  scenario?: string
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
  /** The API keys in force, with their plans (a scenario may bring its own). */
  readonly keys: readonly ApiKey[]
  readonly limiter: RateLimiter
  /** The requests the API answered with their whole exchange, most recent last: `find`, `count`, `waitFor`, `toHar`, `clear`. */
  readonly journal: RequestJournal
  /**
   * Which documented answers of each operation were met, and how (the
   * behaviour, `Prefer: code=`, a fault rule); undocumented statuses seen;
   * deprecated operations called. Counted over every request since creation
   * or {@link resetCoverage}: `reset()` and `journal.clear()` keep it, so one
   * report covers a whole test run.
   */
  coverage(): ContractCoverage
  /** Starts contract coverage over. */
  resetCoverage(): void
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
  /** The whole state as plain, versioned JSON (`"format": 1`): catalogue, next id, clock, rate-limit buckets and bans, fault rules, scenario. */
  snapshot(): StateSnapshot
  /**
   * Replaces the state with a snapshot's, at once; or throws a `RangeError`
   * naming the problem and changes nothing. The journal starts empty.
   */
  restore(snapshot: unknown): void
  /** The active scenario's name: `reset()` returns to its start. */
  readonly scenario: string
  /** Every scenario this simulator knows, built-in and own. */
  scenarios(): ScenarioSummary[]
  /** Switches to a scenario: a reset into it. A `RangeError` for an unknown or invalid one, and nothing changes. */
  useScenario(name: string): void
  /**
   * Replaces the catalogue, keys, fault rules and scenarios the simulator was
   * created with (a reloaded config file), then resets into the scenario
   * named, or the active one: checked first, or a `RangeError` and nothing
   * changes. Other options stay as created.
   */
  reconfigure(options: ReconfigurableOptions): void
}

/** The options {@link SimulatorCore.reconfigure} replaces. */
export type ReconfigurableOptions = Pick<SimulatorOptions, 'seed' | 'pets' | 'fixtures' | 'keys' | 'faults' | 'scenarios' | 'scenario'>

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
  if (options.fixtures !== undefined && options.generatePet !== undefined) {
    throw new TypeError('generatePet shapes generated pets: give it or fixtures, not both')
  }
  // The scenario's catalogue and keys replace these when it is applied, below.
  const maxPets = options.maxPets ?? defaults.maxPets
  if (!(Number.isSafeInteger(maxPets) && maxPets >= 0)) throw new RangeError(`maxPets must be a whole number of 0 or more (got ${maxPets})`)
  const store = createPetStore({ initialPets: [], defaultStatus, maxCreated: maxPets })
  let ring = createKeyRing({})
  const keyRing: KeyRing = {
    authenticate: (token) => ring.authenticate(token),
    get keys() {
      return ring.keys
    },
  }
  const ban = options.ban === false ? false : { ...defaults.ban, ...options.ban }
  const limiter = createRateLimiter({ clock, ban, maxAnonymousBuckets: options.maxAnonymousBuckets ?? defaults.maxAnonymousBuckets })
  const deprecation = { ...getPetDeprecation, ...options.deprecation }
  const coverage = createCoverageTally(apiRoutes, () => deprecation.sunsetAt)
  const journal = createRequestJournal({
    capacity: options.journalSize ?? defaults.journalSize,
    maxBytes: options.journalMaxBytes ?? defaults.journalMaxBytes,
    bodyCapBytes: options.journalBodyCapBytes ?? defaults.journalBodyCapBytes,
    onRecord: events.request,
    coverage,
    origin,
  })
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
    deprecation,
    basePath,
    latency: options.latency,
    petJson: createJsonCache(petJsonCacheSize),
    random: createRandomSource(seed),
    prefer: options.prefer ?? true,
    resets: () => resets,
  }
  const pipeline = createApiPipeline(state, { onFaultsChange: () => changed('faults') })
  const control = createStateControl({
    store,
    limiter,
    journal,
    clock,
    faults: pipeline.faults,
    table: pipeline.table,
    basePath,
    petJson: state.petJson,
    random: state.random,
    ...stateConfig(options, defaultStatus),
    useKeyRing(next) {
      ring = next
    },
    quietly(change) {
      resetting = true
      // First: requests under way from now on belong to the state before, and are not journaled after it.
      resets++
      try {
        change()
      } finally {
        resetting = false
      }
      events.changed('reset')
    },
  })
  control.useScenario(options.scenario ?? 'default')

  return {
    store,
    clock,
    get keys() {
      return ring.keys
    },
    limiter,
    journal,
    basePath,
    baseOrigin: origin,
    pipeline,
    faults: pipeline.faults,
    bodyLimit,
    origins: createOriginPolicy(options.corsOrigins),
    events,
    coverage: () => coverage.report(),
    resetCoverage: () => coverage.clear(),
    reset: control.reset,
    get scenario() {
      return control.scenario
    },
    scenarios: control.scenarios,
    useScenario: control.useScenario,
    // generatePet is code, not configuration: a reloaded config file keeps the one the simulator was created with.
    reconfigure: (next) => control.reconfigure(stateConfig({ ...next, generatePet: options.generatePet }, defaultStatus), next.scenario),
    snapshot: control.snapshot,
    restore: control.restore,
    state: () =>
      readSnapshot({
        clock,
        keys: ring.keys,
        demoKeys: control.demoKeys,
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

/** What scenarios are made from, read from options. */
function stateConfig(options: ReconfigurableOptions & Pick<SimulatorOptions, 'generatePet'>, defaultStatus: PetStatus): StateConfig {
  return {
    scenarios: scenarioTable(options.scenarios),
    catalogue: {
      seed: options.seed ?? defaults.seed,
      pets: options.pets ?? defaults.pets,
      fixtures: options.fixtures,
      defaultStatus,
      generatePet: options.generatePet,
    },
    faultRules: options.faults ?? [],
    keys: options.keys,
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
