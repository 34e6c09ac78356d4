import type { ApiKey, KeySpec } from '../access/api-keys.ts'
import type { OriginPolicy } from '../access/origin-policy.ts'
import type { BanPolicy, RateLimiter } from '../access/rate-limiter.ts'
import type { DeprecationPolicy } from '../operations/deprecation.ts'
import type { PetStatus } from '../model/pet-types.ts'
import type { PetStore } from '../catalogue/pet-store.ts'
import type { GeneratePet } from '../catalogue/seed-pets.ts'
import type { FaultRuleInput, FaultRules } from '../faults/fault-rules.ts'
import type { ApiPipeline } from '../pipeline/api-pipeline.ts'
import type { Clock, SimulatorClock } from '../time/clock.ts'
import type { ContractCoverage } from '../journal/contract-coverage.ts'
import type { WorldMemory } from './world-memory.ts'
import type { RequestJournal } from '../journal/request-journal.ts'
import type { ClientReport } from '../grading/client-grader.ts'
import type { ClientReportOptions } from '../grading/client-report-options.ts'
import type { PactExport } from '../contract/pact-module.ts'
import type { PactRecorder } from '../contract/pact-recorder.ts'
import type { ScenarioDefinition, ScenarioSummary } from '../state/scenarios.ts'
import type { Latency } from '../operations/operation-context.ts'
import type { SharedWorld } from '../operations/shared-world.ts'
import type { SharedSandboxes } from './sandbox-registry.ts'
import type { SimulatorEvents } from './simulator-events.ts'
import type { SimulatorStatus } from '../state/simulator-status.ts'
import type { SnapshotReader, StateSnapshot } from '../state/state-snapshot.ts'

// What createSimulatorCore (simulator-core.ts) takes and returns, apart from how it builds them.

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
  /** API keys: token -> plan (a text form `parsePlan` reads: `planForms` in core/access/plans.ts). Default: the demo keys. */
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
  /**
   * The most bytes (estimated) the pact's kept interactions hold; past it a new shape is not kept and an export fails
   * until `journal.clearPact()`. Default 4 MiB (docs/journal.md, "Memory budgets").
   */
  pactMaxBytes?: number
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
  /**
   * @internal
   * A sandbox's own path before the base path (`/sandboxes/<name>`, set by the app for each sandbox): its answers
   * (`Location`, `Link`), journal and HAR carry it, as the client sent it; its pact leaves it out, for the real API has
   * no sandboxes.
   */
  sandboxPath?: string
  /**
   * @internal
   * Keeps the world in a shared store (`--store`, the Node side's `connectStore`): called once per world (the default
   * one, each sandbox) with the world's sandbox path (`''` for the default one) and the options it is made from.
   */
  shared?: SharedWorlds
}

/** @internal A world's link to the shared store: the pipeline's hook, and what the app calls around control requests. */
export interface SharedWorldLink extends SharedWorld {
  /** The world's simulator, once made: the link keeps it up to date with the fleet's. */
  attach(core: SimulatorCore): void
  /**
   * Answers a control request with `respond`: the world's copy brought up to date with the fleet first (state, buckets,
   * journal), and what the request changed (a reset, the clock, fault rules, a journal clear…) published to the fleet
   * after. Requests that may change something are taken one at a time on an instance.
   */
  control<Answer>(request: { readonly method: string; readonly path: string }, respond: () => Answer | Promise<Answer>): Promise<Answer>
  /** Whether the store answers; `cause` says why not. */
  health(): { readonly ready: boolean; readonly cause?: string | undefined }
  /**
   * The world's copy brought up to date with the fleet (one bounded read), for `/__sim/health` to show the fleet's
   * pets and clock; never rejects: a store that does not answer is what `health()` then says.
   */
  refresh(): Promise<void>
  /** The world's copy was forgotten here (a sandbox's, expired, deleted or replaced): the link stops following it. */
  release(): void
  /** The default world's: the fleet's sandboxes, as `GET|PUT|DELETE /__sim/sandboxes…` list, make and delete them. */
  readonly sandboxes?: SharedSandboxes | undefined
  /** The calls this instance made to the store (every world's, one connection), for `GET /__sim/metrics`. */
  readonly calls?: SharedStoreCalls | undefined
}

/** @internal The store's calls as an instance made them: each round trip's seconds, bucketed, and the calls that failed. */
export interface SharedStoreCalls {
  readonly roundTrips: { readonly bounds: readonly number[]; readonly counts: ArrayLike<number>; readonly sum: number }
  readonly errors: number
}

/** @internal Makes the link of each world; see {@link SimulatorOptions.shared}. */
export type SharedWorlds = (world: { readonly sandboxPath: string; readonly options: SimulatorOptions }) => SharedWorldLink

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
  /** @internal The rate limiter; what it holds is `state()`'s `keys` and `anonymous`. */
  readonly limiter: RateLimiter
  /**
   * The requests the API answered with their whole exchange, most recent last: `find`, `count`, `waitFor`, `toHar`,
   * `clear`; and the pact of every request since creation or `clearPact()` (resets and `clear()` keep it): `toPact`.
   */
  readonly journal: RequestJournal & PactExport
  /**
   * The pact's interactions, one per shape, kept across resets (what `journal.toPact` and `GET /__sim/requests.pact`
   * export); users clear them with `journal.clearPact()`.
   * @internal
   */
  readonly pact: PactRecorder
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
  /**
   * What this world keeps, store by store, in estimated bytes against each store's budget (docs/journal.md, "Memory
   * budgets"): the journal, the pact, coverage and the callers' buckets. `GET /__sim/health` answers it as `memory`.
   */
  memory(): WorldMemory
  /**
   * The consumer's side of the contract: each caller graded against the spec's rules for clients (Retry-After,
   * backoff, bans, getPet's deprecation and removal, malformed and unauthenticated requests), on the simulator's
   * clock, with its plan advice (docs/grading-clients.md). Graded as requests are journaled; starts over when the
   * journal does (a reset, `journal.clear()`).
   *
   * @example
   * assertClientsCompliant(simulator.clientReport({ ignore: [{ rule: 'invalid-request' }] }))
   */
  clientReport(options?: ClientReportOptions): ClientReport
  /** The API's path prefix, e.g. `/v1`. */
  readonly basePath: string
  /** The origin and prefix of a full base URL (`https://api.example.com/v1`); `undefined` for a path prefix (any origin). */
  readonly baseOrigin: string | undefined
  /** @internal The world's link to the shared store (`--store`); undefined in memory. */
  readonly shared: SharedWorldLink | undefined
  /** @internal The API pipeline every lane answers API requests through. */
  readonly pipeline: ApiPipeline
  /** The fault rules in force: `add(rule)` -> id, `remove(id)`, `list()`, `clear()`. `reset()` puts back the ones given as options. */
  readonly faults: FaultRules
  /** Largest request body in bytes that any lane reads. */
  readonly bodyLimit: number
  /** @internal Which web pages may call over the network (see `corsOrigins`). */
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
  state(): SimulatorStatus
  /** The whole state as plain, versioned JSON (`"format": 1`): catalogue, next id, clock, rate-limit buckets and bans, fault rules, scenario. */
  snapshot(): StateSnapshot
  /**
   * The same snapshot, its pets read a slice at a time (what `GET /__sim/snapshot` streams): no pet is made or
   * copied ahead of its slice, whatever the catalogue's size.
   */
  snapshotReader(): SnapshotReader
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
