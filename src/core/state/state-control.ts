import { createKeyRing, type KeyRing, type KeySpec } from '../access/api-keys.ts'
import type { CompactPets } from '../catalogue/compact-pets.ts'
import type { RateLimiter } from '../access/rate-limiter.ts'
import type { Pet } from '../model/pet-types.ts'
import type { PetStore } from '../catalogue/pet-store.ts'
import type { PageTexts } from '../catalogue/page-texts.ts'
import { createFaultRules, type FaultRuleInput, type FaultRules } from '../faults/fault-rules.ts'
import type { JsonCache } from '../http/json-text.ts'
import type { RouteTable } from '../operations/route-table.ts'
import { toEpochMilliseconds, type SimulatorClock } from '../time/clock.ts'
import demoKeys from '../../../fixtures/demo-keys.json' with { type: 'json' }
import type { RequestJournal } from '../journal/request-journal.ts'
import { parseFixturePets } from '../catalogue/fixture-pets.ts'
import {
  builtInScenarios,
  scenarioPets,
  usageBuckets,
  type CatalogueDefaults,
  type ScenarioDefinition,
  type ScenarioSummary,
} from './scenarios.ts'
import type { RandomSource } from '../operations/operation-context.ts'
import {
  fromSnapshotBuckets,
  parseSnapshot,
  snapshotFormat,
  toSnapshotBuckets,
  type SnapshotReader,
  type StateSnapshot,
} from './state-snapshot.ts'

/**
 * A fault rule or a key of the simulator's own options (`faults`, `keys`) that cannot be used. Apart from a
 * scenario's own (`Scenario <name>: …`), so that the message names the option, and the CLI the flag or the config
 * file's key it came from: "Scenario default: …" named neither (issue #31).
 */
export class SimulatorOptionError extends RangeError {
  /** The option the value came from. */
  readonly option: 'faults' | 'keys'
  /** For `faults`: the rule's index in the array. */
  readonly index: number | undefined
  /** The problem, without the option's name. */
  readonly problem: string

  constructor(option: 'faults' | 'keys', index: number | undefined, problem: string) {
    super(`${option}${index === undefined ? '' : `[${index}]`}: ${problem}`)
    this.option = option
    this.index = index
    this.problem = problem
  }
}

/** What scenarios are made from: the user's scenarios and the options they fall back on. {@link StateControl.reconfigure} replaces it. */
export interface StateConfig {
  readonly scenarios: ReadonlyMap<string, ScenarioDefinition>
  /** The catalogue of the options, for scenarios that do not bring their own. */
  readonly catalogue: CatalogueDefaults
  /** The fault rules of the options, for scenarios that do not bring their own. */
  readonly faultRules: readonly FaultRuleInput[]
  /** The keys of the options (the demo keys when undefined), for scenarios that do not bring their own. */
  readonly keys: KeySpec | undefined
}

export interface StateParts extends StateConfig {
  readonly store: PetStore
  readonly limiter: RateLimiter
  readonly journal: RequestJournal
  readonly clock: SimulatorClock
  readonly faults: FaultRules
  readonly table: RouteTable
  readonly basePath: string
  readonly petJson: JsonCache
  readonly pageTexts: PageTexts
  readonly random: RandomSource
  /** Puts a key ring in force. */
  useKeyRing(ring: KeyRing): void
  /** Runs a change with the parts' own events held back, then publishes one `reset`. */
  quietly(change: () => void): void
}

/** Resets, scenarios and snapshots of one simulator: every way its whole state is replaced. */
export interface StateControl {
  readonly scenario: string
  /** Whether the keys in force are the demo keys (whose tokens are public). */
  readonly demoKeys: boolean
  reset(): void
  scenarios(): ScenarioSummary[]
  useScenario(name: string): void
  snapshot(): StateSnapshot
  snapshotReader(): SnapshotReader
  restore(data: unknown): void
  /**
   * New scenarios and options to fall back on (a reloaded config file), and a
   * reset into the scenario named (default: the active one) made from them;
   * or a `RangeError` and nothing changes.
   */
  reconfigure(config: StateConfig, scenario?: string): void
}

/** A scenario made ready to switch to: everything in it computed and checked. */
interface PreparedScenario {
  readonly name: string
  readonly definition: ScenarioDefinition
  readonly pets: readonly Pet[] | CompactPets
  readonly keyRing: KeyRing
  readonly demoKeys: boolean
  readonly faults: readonly FaultRuleInput[]
  readonly clockSet: number | undefined
}

export function createStateControl(parts: StateParts): StateControl {
  const { store, limiter, clock, faults } = parts
  let active: PreparedScenario | undefined
  let config: StateConfig = parts

  /**
   * Everything a scenario needs computed and checked, before anything changes. `checkOnly`: checked the same, but
   * generated pets are not generated (their seed and count were checked with the scenario's shape), and only the
   * scenario's own fixtures are read (the options' are read by the scenario in use): every scenario is checked at
   * start, at this cost.
   */
  const prepare = (name: string, checkOnly = false): PreparedScenario => {
    const definition = config.scenarios.get(name)
    if (definition === undefined) {
      throw new RangeError(`No scenario ${JSON.stringify(name)} (there are ${[...config.scenarios.keys()].join(', ')})`)
    }
    try {
      if (checkOnly && definition.fixtures !== undefined) parseFixturePets(definition.fixtures, config.catalogue.defaultStatus)
      const rules = definition.faults ?? config.faultRules
      // Checked on rules of their own, so that a bad rule changes nothing.
      const check = createFaultRules(parts.table, () => 0, parts.basePath)
      for (const [index, rule] of rules.entries()) {
        try {
          check.add(rule)
        } catch (error) {
          if (definition.faults !== undefined) throw error
          throw new SimulatorOptionError('faults', index, (error as Error).message)
        }
      }
      const spec = definition.keys ?? config.keys
      let keyRing: KeyRing
      try {
        keyRing = createKeyRing(spec ?? demoKeys)
      } catch (error) {
        if (definition.keys !== undefined) throw error
        throw new SimulatorOptionError('keys', undefined, (error as Error).message)
      }
      return {
        name,
        definition,
        pets: checkOnly ? [] : scenarioPets(definition, config.catalogue),
        keyRing,
        demoKeys: spec === undefined,
        faults: rules,
        clockSet: definition.clock?.set === undefined ? undefined : toEpochMilliseconds(definition.clock.set),
      }
    } catch (error) {
      if (error instanceof SimulatorOptionError) throw error
      throw new RangeError(`Scenario ${name}: ${(error as Error).message}`, { cause: error })
    }
  }
  /**
   * Every scenario of the user's checked, so that a bad one is found at start (or reload), not only when someone
   * switches to it. The built-in ones are the package's own constants (the test suite switches to each), and what
   * they take from the options is checked by the scenario in use: checking `degraded`'s fault rules again at every
   * start loaded zod in the Node build, which loads it only when a fault rule is first added (test/packaging).
   */
  const checkAll = () => {
    for (const [name, definition] of config.scenarios) if (definition !== builtInScenarios[name]) prepare(name, true)
  }
  checkAll()
  const current = () => {
    if (active === undefined) throw new Error('No scenario is active yet')
    return active
  }
  const switchTo = (prepared: PreparedScenario) => {
    if (prepared === active) return
    parts.useKeyRing(prepared.keyRing)
    store.replaceInitial(prepared.pets)
    active = prepared
  }
  /** The active scenario's start: what reset returns to. */
  const startOver = () => {
    const scenario = current()
    store.reset()
    parts.petJson.clear()
    parts.pageTexts.clear()
    parts.random.reset()
    faults.clear()
    for (const rule of scenario.faults) faults.add(rule)
    limiter.reset()
    parts.journal.clear()
    clock.resetOffset()
    if (scenario.clockSet !== undefined) clock.set(scenario.clockSet)
    if (scenario.definition.clock?.freeze === true) clock.freeze()
    const { usage } = scenario.definition
    if (usage !== undefined) limiter.load(usageBuckets(usage, scenario.keyRing.keys, clock.now()))
  }
  const snapshotWith = (pets: readonly Pet[]): StateSnapshot => ({
    format: snapshotFormat,
    takenAt: new Date(clock.now()).toISOString(),
    scenario: current().name,
    catalogue: { nextId: store.nextId, pets },
    clock: clock.setting,
    rateLimits: toSnapshotBuckets(limiter.records()),
    faults: { nextId: faults.nextId, rules: faults.list() },
  })
  const snapshot = () => snapshotWith(store.all())
  const load = (prepared: PreparedScenario, data: StateSnapshot) => {
    switchTo(prepared)
    startOver()
    faults.load(data.faults.rules, data.faults.nextId)
    clock.restore(data.clock)
    limiter.load(fromSnapshotBuckets(data.rateLimits, prepared.keyRing.keys))
    store.load(data.catalogue.pets, data.catalogue.nextId)
  }

  return {
    get scenario() {
      return current().name
    },
    get demoKeys() {
      return current().demoKeys
    },
    reset: () => parts.quietly(startOver),
    scenarios: () => [...config.scenarios].map(([name, definition]) => ({ name, description: definition.description ?? '' })),
    useScenario(name) {
      const prepared = prepare(name)
      parts.quietly(() => {
        switchTo(prepared)
        startOver()
      })
    },
    snapshot,
    snapshotReader: () => ({ pets: store.reader(), snapshot: snapshotWith([]) }),
    reconfigure(next, scenario) {
      const previous = config
      config = next
      let prepared: PreparedScenario
      try {
        checkAll()
        prepared = prepare(scenario ?? current().name)
      } catch (error) {
        config = previous
        throw error
      }
      parts.quietly(() => {
        switchTo(prepared)
        startOver()
      })
    },
    restore(data) {
      const parsed = parseSnapshot(data)
      const target = parsed.scenario === active?.name ? current() : prepare(parsed.scenario)
      // Everything checked before anything changes: a bad fault rule or a clock out of range, found half-way, emptied
      // the journal although the state was put back. The rules on rules of their own, the clock's setting against now.
      try {
        createFaultRules(parts.table, () => 0, parts.basePath).load(parsed.faults.rules, parsed.faults.nextId)
        clock.checkSetting(parsed.clock)
      } catch (error) {
        throw error instanceof RangeError ? new RangeError(`Invalid snapshot: ${error.message}`) : error
      }
      // All or nothing still, should anything else fail half-way: the state is put back as it was.
      const previous = { scenario: current(), snapshot: snapshot() }
      parts.quietly(() => {
        try {
          load(target, parsed)
        } catch (error) {
          load(previous.scenario, previous.snapshot)
          throw error instanceof RangeError ? new RangeError(`Invalid snapshot: ${error.message}`) : error
        }
      })
    },
  }
}
