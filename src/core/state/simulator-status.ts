import type { ApiKey } from '../access/api-keys.ts'
import { apiRoutes } from '../operations/api-routes.ts'
import type { DeprecationPolicy } from '../operations/deprecation.ts'
import { faultKinds, transportFaults, type TransportFault } from '../http/fault-kinds.ts'
import type { FaultRule, FaultRules } from '../faults/fault-rules.ts'
import { anonymousPlan } from '../access/plans.ts'
import { keyCallerPrefix, type BanPolicy, type RateLimiter, type WindowUsage } from '../access/rate-limiter.ts'
import type { RequestCounts, RequestJournal } from '../journal/request-journal.ts'
import type { SimulatorClock } from '../time/clock.ts'

/** One rate-limit window as the status shows it: times in ISO 8601. */
export interface WindowStatus {
  readonly limit: number
  readonly used: number
  readonly remaining: number
  /** When the window starts over: the next UTC minute, or the next UTC midnight. */
  readonly resetAt: string
}

/** A key in force, with what it has used. */
export interface KeyStatus {
  /** The key's fingerprint (`key#1a2b3c4d`), as the journal and the logs name it. */
  readonly key: string
  /** The token itself, only for the documented demo keys (`fixtures/demo-keys.json`) when they are the keys in force. */
  readonly token?: string
  /** The plan in its text form: `pro`, `enterprise:5000/1000000`. */
  readonly plan: string
  readonly minute: WindowStatus
  readonly day: WindowStatus
  /** When the key's ban ends, while it is banned; `null` otherwise. */
  readonly bannedUntil: string | null
}

/** An operation of the API, as the route table declares it. */
export interface OperationStatus {
  readonly operation: string
  readonly method: string
  /** Under the base path, with `{name}` for a parameter, as in the OpenAPI document. */
  readonly path: string
}

/** A transport fault kind a rule can do, as the fault-kind table declares it. */
export interface FaultKindStatus {
  readonly kind: TransportFault
  /** Whether the operation runs (its state changes happen) before the damage. */
  readonly operationRuns: boolean
  /** Whether the status and headers reach the client; the journal records status 0 when not. */
  readonly answerSent: boolean
  readonly description: string
}

// Derived once from the tables they describe, frozen: every status shares them.
const operations: readonly OperationStatus[] = Object.freeze(
  apiRoutes.map(({ operation, method, path }) => Object.freeze({ operation, method, path })),
)
const faultKindList: readonly FaultKindStatus[] = Object.freeze(transportFaults.map((kind) => Object.freeze({ kind, ...faultKinds[kind] })))

/**
 * What `simulator.state()` and `GET /__sim/state` return: the picture the
 * dashboard shows, for scripts and CI. Every instant is on the simulator's
 * clock, in ISO 8601.
 */
export interface SimulatorStatus {
  readonly clock: { readonly now: string; readonly epochMs: number; readonly frozen: boolean }
  readonly keys: readonly KeyStatus[]
  /** Callers without a valid key, in aggregate: their plan's limits, buckets held, how many are banned. */
  readonly anonymous: { readonly perMinute: number; readonly perDay: number; readonly buckets: number; readonly banned: number }
  /** The ban after continued 429s, or `false` when there is none. */
  readonly ban: { readonly after: number; readonly durationMs: number } | false
  readonly faults: readonly FaultRule[]
  /** API requests answered since the start or the last reset, in all and by status class (`none`: a fault's reset or hang). */
  readonly requests: RequestCounts
  /** Pets in the catalogue. */
  readonly pets: number
  /** The API's path prefix, e.g. `/v1`. */
  readonly basePath: string
  /** When getPet was deprecated and when it is removed (410 from then on). */
  readonly getPet: { readonly deprecatedAt: string; readonly sunsetAt: string }
  /** The API's operations, in the route table's order: what fault rules and the journal name. */
  readonly operations: readonly OperationStatus[]
  /** The transport faults a rule can do (`fault`), in the fault-kind table's order. */
  readonly faultKinds: readonly FaultKindStatus[]
}

/** What a status is read from: parts of one simulator. */
export interface StatusSources {
  readonly clock: SimulatorClock
  readonly keys: readonly ApiKey[]
  /** Whether the keys in force are the demo keys, whose tokens are public (the README lists them). */
  readonly demoKeys: boolean
  readonly limiter: RateLimiter
  readonly ban: BanPolicy | false
  readonly faults: FaultRules
  readonly journal: RequestJournal
  readonly pets: () => number
  readonly basePath: string
  readonly deprecation: DeprecationPolicy
}

/**
 * Reads the status: O(keys) for the keys' windows, a scan of the bans for
 * the anonymous aggregate, and the fault rules; nothing is counted or changed.
 * On a running clock the limiter reads the time again, a fraction of a
 * millisecond later than `clock.epochMs`: windows are whole minutes, so the
 * figures agree unless a minute ends in between.
 */
export function readStatus(sources: StatusSources): SimulatorStatus {
  const epochMs = sources.clock.now()
  const iso = (ms: number) => new Date(ms).toISOString()
  const window = (usage: WindowUsage): WindowStatus => ({
    limit: usage.limit,
    used: usage.used,
    remaining: usage.remaining,
    resetAt: iso(usage.resetAt),
  })
  const keys = sources.keys.map((key): KeyStatus => {
    const usage = sources.limiter.usage(`${keyCallerPrefix}${key.token}`, key.plan)
    return {
      key: key.fingerprint,
      ...(sources.demoKeys ? { token: key.token } : {}),
      plan: key.planLabel,
      minute: window(usage.minute),
      day: window(usage.day),
      bannedUntil: usage.bannedUntil === undefined ? null : iso(usage.bannedUntil),
    }
  })
  const anonymous = sources.limiter.anonymousUsage()
  return {
    clock: { now: iso(epochMs), epochMs, frozen: sources.clock.frozen },
    keys,
    anonymous: { perMinute: anonymousPlan.perMinute, perDay: anonymousPlan.perDay, buckets: anonymous.buckets, banned: anonymous.banned },
    ban: sources.ban === false ? false : { after: sources.ban.after, durationMs: sources.ban.durationMs },
    faults: sources.faults.list(),
    requests: sources.journal.counts(),
    pets: sources.pets(),
    basePath: sources.basePath,
    getPet: { deprecatedAt: iso(sources.deprecation.deprecatedAt), sunsetAt: iso(sources.deprecation.sunsetAt) },
    operations,
    faultKinds: faultKindList,
  }
}
