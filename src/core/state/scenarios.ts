import type { ApiKey, KeySpec } from '../access/api-keys.ts'
import type { BucketRecord } from '../access/rate-limiter.ts'
import { keyCallerPrefix } from '../access/rate-limiter.ts'
import type { Pet, PetStatus } from '../model/pet-types.ts'
import { describeIssues, english } from '../model/schemas.ts'
import { parseFixturePets } from '../catalogue/fixture-pets.ts'
import { isCompactPets, type CompactPets } from '../catalogue/compact-pets.ts'
import { generateCompactPets, generatePets, type GeneratePet } from '../catalogue/seed-pets.ts'
import type { FaultRuleInput } from '../faults/fault-rules.ts'
import type { Instant } from '../time/clock.ts'
import { scenarioSchema } from './scenario-schema.ts'

/** How much of a window a scenario marks as used: a number of requests, or `"all"` (the plan's limit). */
export type ScenarioUsage = number | 'all'

/**
 * A named preset of state: what the simulator starts with when the scenario
 * is chosen (and again on every reset while it is active). Every part is
 * optional; a part left out is the simulator's own (its options).
 *
 * @example
 * createSimulator({ scenarios: { 'two-cats': { description: 'Two cats', fixtures: [{ name: 'Tom', categoryId: 2 }, { name: 'Kit', categoryId: 2 }] } } })
 */
export interface ScenarioDefinition {
  /** One line for `GET /__sim/scenario` and the dashboard. */
  description?: string | undefined
  /** Generate this many pets (with `seed`, or the simulator's seed). */
  pets?: number | undefined
  seed?: number | undefined
  /** Pets given as data instead of generated (as `fixtures` in the options). */
  fixtures?: unknown
  /** Every pet of the catalogue gets this status. */
  status?: PetStatus | undefined
  /** The clock at the scenario's start: `set` to an instant, and/or `freeze` it there. */
  clock?: { set?: Instant | undefined; freeze?: boolean | undefined } | undefined
  /** The fault rules in force, instead of the simulator's own. */
  faults?: readonly FaultRuleInput[] | undefined
  /** The API keys, instead of the simulator's own (token -> plan). */
  keys?: KeySpec | undefined
  /** Requests already used in the current minute and day, per key token (`"*"`: every key). */
  usage?: Readonly<Record<string, { minute?: ScenarioUsage | undefined; day?: ScenarioUsage | undefined }>> | undefined
}

/** A scenario as `GET /__sim/scenario` lists it. */
export interface ScenarioSummary {
  readonly name: string
  readonly description: string
}

/** The scenario a simulator starts in when none is named: its own options as they are. */
export const defaultScenario = 'default'

/** The scenarios every simulator has; users add their own (`scenarios` option, config file) and may replace these. */
export const builtInScenarios: Readonly<Record<string, ScenarioDefinition>> = Object.freeze({
  [defaultScenario]: { description: "The simulator's own options: the generated (or given) catalogue, real time, no faults" },
  empty: { description: 'No pets at all', pets: 0 },
  'all-sold': { description: 'The usual catalogue, every pet sold', status: 'sold' },
  sunset: {
    // The day after getPet's removal date (the spec's 5 December 2030): getPet answers 410.
    description: 'The clock on 6 December 2030, past getPet’s removal: getPet answers 410',
    clock: { set: '2030-12-06T00:00:00.000Z' },
  },
  'rate-limited': {
    description: 'Every key has used its whole minute: the next request is a 429 until the minute ends',
    usage: { '*': { minute: 'all' } },
  },
  degraded: {
    // Seeded like everything random in the simulator: the same run gives the same failures.
    description: 'One request in ten answers 503, one in four is 0.2-2 s slow, on every operation (seeded)',
    faults: [
      { status: 503, probability: 0.1 },
      { delay: { min: 200, max: 2000 }, probability: 0.25 },
    ],
  },
})

export const scenarioNamePattern = /^[a-z0-9][a-z0-9._-]{0,63}$/i

/**
 * The built-in scenarios with the user's over them, each checked; a
 * `RangeError` names the first bad one.
 */
export function scenarioTable(own: Readonly<Record<string, ScenarioDefinition>> | undefined): ReadonlyMap<string, ScenarioDefinition> {
  const table = new Map(Object.entries(builtInScenarios))
  for (const [name, definition] of Object.entries(own ?? {})) {
    if (!scenarioNamePattern.test(name)) {
      throw new RangeError(`Scenario name ${JSON.stringify(name)}: use letters, digits, ".", "_" and "-" (at most 64)`)
    }
    const parsed = scenarioSchema().safeParse(definition, english)
    if (!parsed.success) throw new RangeError(`Scenario ${name}: ${describeIssues(parsed.error).replace(/^body: /, '')}`)
    table.set(name, definition)
  }
  return table
}

/** What a scenario's catalogue is made from, when it does not give its own. */
export interface CatalogueDefaults {
  readonly seed: number
  readonly pets: number
  readonly fixtures: unknown
  readonly defaultStatus: PetStatus
  /** Shapes each generated pet (`createSimulator({ generatePet })`); not used with fixtures. */
  readonly generatePet?: GeneratePet | undefined
}

/**
 * A scenario's catalogue: its own fixtures or generation, else the simulator's; then its `status`, if any, on every
 * pet. Generated pets without `generatePet` come as columns (`compact-pets.ts`), not objects.
 */
export function scenarioPets(definition: ScenarioDefinition, base: CatalogueDefaults): Pet[] | CompactPets {
  const own = definition.fixtures !== undefined || definition.pets !== undefined || definition.seed !== undefined
  const fixtures = own ? definition.fixtures : base.fixtures
  const seed = definition.seed ?? base.seed
  const count = own ? (definition.pets ?? base.pets) : base.pets
  const pets =
    fixtures !== undefined
      ? parseFixturePets(fixtures, base.defaultStatus)
      : base.generatePet === undefined
        ? generateCompactPets(seed, count)
        : generatePets({ seed, count, generatePet: base.generatePet, defaultStatus: base.defaultStatus })
  const { status } = definition
  if (status === undefined) return pets
  if (isCompactPets(pets)) return pets.withStatus(status)
  return pets.map((pet) => (pet.status === status ? pet : Object.freeze({ ...pet, status })))
}

const minuteMs = 60_000
const dayMs = 86_400_000

/** A scenario's `usage` as limiter buckets at `now`: for each key named (or every key, for `"*"`), its minute and day counts. */
export function usageBuckets(usage: ScenarioDefinition['usage'], keys: readonly ApiKey[], now: number): BucketRecord[] {
  if (usage === undefined) return []
  return keys.flatMap((key) => {
    const spec = usage[key.token] ?? usage['*']
    if (spec === undefined) return []
    const amount = (value: ScenarioUsage | undefined, limit: number) => (value === 'all' ? limit : Math.min(value ?? 0, limit))
    const minuteCount = amount(spec.minute, key.plan.perMinute)
    // A minute's requests are also the day's.
    const dayCount = Math.min(Math.max(amount(spec.day, key.plan.perDay), minuteCount), key.plan.perDay)
    return [
      {
        caller: `${keyCallerPrefix}${key.token}`,
        minute: Math.floor(now / minuteMs),
        minuteCount,
        day: Math.floor(now / dayMs),
        dayCount,
        refusedInARow: 0,
      },
    ]
  })
}
