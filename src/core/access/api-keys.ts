import { fingerprint } from './fingerprint.ts'
import { formatPlan, parsePlan, toPlan, type Plan } from './plans.ts'

/** An API key in force and the plan its requests are limited by. */
export interface ApiKey {
  readonly token: string
  readonly plan: Plan
  /** The plan in its text form (`pro`, `enterprise:500/50000`), for logs and the journal. */
  readonly planLabel: string
  /** A short label safe to log: never the token itself. */
  readonly fingerprint: string
}

/** Keys as users give them: token -> plan, the plan as text (`pro`, `enterprise:500/50000`) or a {@link Plan}. */
export type KeySpec = Readonly<Record<string, string | Plan>>

/**
 * The set of API keys a simulator accepts.
 *
 * @example
 * const keyRing = createKeyRing({ 'my-key': 'pro' })
 * keyRing.authenticate('my-key')?.plan.perMinute // 300
 */
export interface KeyRing {
  /** The key whose token equals `token`, comparing every key without early exit. */
  authenticate(token: string): ApiKey | undefined
  readonly keys: readonly ApiKey[]
}

/**
 * The keys, their plans and the key list are frozen: a simulator hands them
 * out as `simulator.keys`, and a plan may be shared with other simulators.
 */
export function createKeyRing(spec: KeySpec): KeyRing {
  const keys = Object.entries(spec).map(([token, plan]): ApiKey => {
    if (token.length === 0 || /\s/.test(token)) {
      throw new RangeError(`API key tokens must be non-empty and contain no white space (got ${JSON.stringify(token)})`)
    }
    const parsed = typeof plan === 'string' ? parsePlan(plan) : toPlan(plan)
    return Object.freeze({ token, plan: parsed, planLabel: formatPlan(parsed), fingerprint: fingerprint(token) })
  })
  Object.freeze(keys)
  return {
    keys,
    authenticate(token) {
      let found: ApiKey | undefined
      for (const key of keys) {
        // Every key is compared in full, so neither the position of the first
        // differing character nor which key matched shows in the timing.
        if (constantTimeEqual(key.token, token) && found === undefined) found = key
      }
      return found
    },
  }
}

/**
 * Compares two strings in time that depends on their lengths only, not on
 * where they first differ.
 */
export function constantTimeEqual(expected: string, actual: string): boolean {
  let difference = expected.length ^ actual.length
  const length = Math.max(expected.length, actual.length)
  for (let index = 0; index < length; index++) {
    difference |= (expected.charCodeAt(index % (expected.length || 1)) | 0) ^ (actual.charCodeAt(index % (actual.length || 1)) | 0)
  }
  return difference === 0
}
