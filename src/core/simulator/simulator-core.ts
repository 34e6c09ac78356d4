import demoKeys from '../../../fixtures/demo-keys.json' with { type: 'json' }
import { createKeyRing, type KeyRing, type KeySpec } from '../access/api-keys.ts'
import { createApiPipeline } from '../pipeline/api-pipeline.ts'
import { ApiError } from '../http/api-error.ts'
import { createSimulatorClock, isInstant, type Clock } from '../time/clock.ts'
import { defaults } from '../defaults.ts'
import { getPetDeprecation } from '../operations/deprecation.ts'
import { createJsonCache } from '../http/json-text.ts'
import { createPageTexts } from '../catalogue/page-texts.ts'
import { createPetStore } from '../catalogue/pet-store.ts'
import { createRateLimiter } from '../access/rate-limiter.ts'
import { createOriginPolicy } from '../access/origin-policy.ts'
import { createRequestJournal } from '../journal/request-journal.ts'
import { withPactExport } from '../contract/pact-module.ts'
import { createPactRecorder } from '../contract/pact-recorder.ts'
import { toEntry } from '../journal/journal-views.ts'
import { createKeyScrubber } from '../journal/journal-redaction.ts'
import { apiRoutes } from '../operations/api-routes.ts'
import { createCoverageTally } from '../journal/contract-coverage.ts'
import { createLiveClientGrader, type LiveClientGrader } from '../grading/client-report-options.ts'
import type { PetStatus } from '../model/pet-types.ts'
import { createSeededRandom } from '../time/seeded-random.ts'
import type { Latency, RandomSource, OperationContext } from '../operations/operation-context.ts'
import { createSimulatorEvents } from './simulator-events.ts'
import { worldMemory } from './world-memory.ts'
import { callerBucketBytes, callersMaxBytes } from '../access/caller-buckets.ts'
import { readStatus } from '../state/simulator-status.ts'
import { defaultScenario, scenarioTable } from '../state/scenarios.ts'
import { createStateControl, type StateConfig } from '../state/state-control.ts'
import type { ReconfigurableOptions, SimulatorCore, SimulatorOptions } from './simulator-options.ts'

export type { ReconfigurableOptions, SimulatorCore, SimulatorOptions } from './simulator-options.ts'

/** The demo keys used when no keys are given, one per plan (`fixtures/demo-keys.json`). */
export const demoKeySpec: KeySpec = demoKeys

/** Pets whose JSON text is kept: more than the pages listPets can show (3 statuses and none, 100 each). */
const petJsonCacheSize = 10_000

export function createSimulatorCore(options: SimulatorOptions = {}): SimulatorCore {
  const resolved = resolveBaseUrl(options.baseUrl ?? defaults.basePath)
  const sandboxPath = options.sandboxPath ?? ''
  const { origin } = resolved
  const basePath = `${sandboxPath}${resolved.basePath}`
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
  const maxAnonymousBuckets = options.maxAnonymousBuckets ?? defaults.maxAnonymousBuckets
  const limiter = createRateLimiter({ clock, ban, maxAnonymousBuckets })
  const deprecation = { ...getPetDeprecation, ...options.deprecation }
  const coverage = createCoverageTally(apiRoutes, () => deprecation.sunsetAt)
  const scrub = createKeyScrubber(() => ring.keys)
  // Kept apart from the journal, so that a reset or a journal clear between tests loses none of the pact (issue 36).
  const pact = createPactRecorder({
    view: (recorded) => toEntry(sandboxPath === '' ? recorded : { ...recorded, path: recorded.path.slice(sandboxPath.length) }, scrub),
    basePath,
    maxBytes: checkedBytes('pactMaxBytes', options.pactMaxBytes ?? defaults.pact.maxKeptBytes),
  })
  // Made once the journal is (it reads the journal for an ignore list with filters); fed by it from the first request.
  let grader: LiveClientGrader | undefined
  const journal = withPactExport(
    createRequestJournal({
      capacity: options.journalSize ?? defaults.journalSize,
      maxBytes: options.journalMaxBytes ?? defaults.journalMaxBytes,
      bodyCapBytes: options.journalBodyCapBytes ?? defaults.journalBodyCapBytes,
      onRecord(recorded, input) {
        // A refusal before the API ran is no interaction of the API's, nor a client's use of it.
        if (recorded.refused !== true) {
          pact.observe(recorded, input.requestJson)
          grader!.observe(recorded)
        }
        events.request(recorded)
      },
      coverage,
      origin,
      basePath,
      scrub,
    }),
    pact,
  )
  grader = createLiveClientGrader(journal, { sunsetAt: deprecation.sunsetAt, maxCallers: defaults.maxGradedCallers })
  // The report is the journal's: a clear (a reset, `journal.clear()`, a restore) empties both.
  const clearJournal = journal.clear
  journal.clear = () => {
    clearJournal()
    grader!.clear()
  }
  validateLatency(options.latency)
  const bodyLimit = options.bodyLimit ?? defaults.bodyLimit
  if (!(Number.isSafeInteger(bodyLimit) && bodyLimit >= 0))
    throw new RangeError(`bodyLimit must be a whole number of bytes (got ${bodyLimit})`)
  const petJson = createJsonCache(petJsonCacheSize)
  const shared = options.shared?.({ sandboxPath, options })
  const state: OperationContext = {
    store,
    keyRing,
    limiter,
    clock,
    journal,
    deprecation,
    basePath,
    latency: options.latency,
    petJson,
    pageTexts: createPageTexts(store, petJson),
    random: createRandomSource(seed),
    prefer: options.prefer ?? true,
    resets: () => resets,
    shared,
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
    pageTexts: state.pageTexts,
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
  control.useScenario(options.scenario ?? defaultScenario)

  const core: SimulatorCore = {
    store,
    clock,
    get keys() {
      return ring.keys
    },
    limiter,
    journal,
    pact,
    basePath,
    baseOrigin: origin,
    pipeline,
    faults: pipeline.faults,
    bodyLimit,
    origins: createOriginPolicy(options.corsOrigins),
    events,
    coverage: () => coverage.report(),
    resetCoverage: () => coverage.clear(),
    memory: () => {
      const journalUsage = journal.usage()
      const pactUsage = pact.usage()
      return worldMemory({
        journal: { bytes: journalUsage.bytes, maxBytes: journalUsage.maxBytes },
        pact: { bytes: pactUsage.bytes, maxBytes: pactUsage.maxBytes },
        coverage: coverage.usage(),
        callers: { bytes: limiter.size * callerBucketBytes, maxBytes: callersMaxBytes(maxAnonymousBuckets, ring.keys.length) },
      })
    },
    clientReport: (reportOptions) => grader.report(reportOptions),
    reset: control.reset,
    get scenario() {
      return control.scenario
    },
    scenarios: control.scenarios,
    useScenario: control.useScenario,
    // generatePet is code, not configuration: a reloaded config file keeps the one the simulator was created with.
    reconfigure: (next) => control.reconfigure(stateConfig({ ...next, generatePet: options.generatePet }, defaultStatus), next.scenario),
    snapshot: control.snapshot,
    snapshotReader: control.snapshotReader,
    restore: control.restore,
    state: () =>
      readStatus({
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
    shared,
  }
  shared?.attach(core)
  return core
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

function checkedBytes(name: string, value: number): number {
  if (!(Number.isSafeInteger(value) && value >= 0)) throw new RangeError(`${name} must be a whole number of bytes (got ${value})`)
  return value
}

function validateLatency(latency: Latency | undefined): void {
  if (latency === undefined) return
  const valid =
    typeof latency === 'number'
      ? latency >= 0 && Number.isFinite(latency)
      : latency.min >= 0 && latency.max >= latency.min && Number.isFinite(latency.max)
  if (!valid) throw new RangeError('latency must be a number of ms of 0 or more, or { min, max } with 0 <= min <= max')
}
