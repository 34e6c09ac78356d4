/** A rate-limit plan: how many API requests a key may make per minute and per UTC day. */
export interface Plan {
  /** `free`, `pro`, `business`, or `enterprise`. */
  readonly name: PlanName
  readonly perMinute: number
  readonly perDay: number
}

export type PlanName = 'free' | 'pro' | 'business' | 'enterprise'

/**
 * The spec's fixed plans. Enterprise limits are custom, per key.
 * Frozen, like every plan handed out here: one object is shared by every
 * simulator in the process (each `free` key, and {@link anonymousPlan}), so a
 * write through one simulator's `keys[0].plan` would change the limits of all.
 */
export const standardPlans = Object.freeze({
  free: Object.freeze({ name: 'free', perMinute: 60, perDay: 1_000 }),
  pro: Object.freeze({ name: 'pro', perMinute: 300, perDay: 10_000 }),
  business: Object.freeze({ name: 'business', perMinute: 1_000, perDay: 100_000 }),
} as const) satisfies Readonly<Record<string, Plan>>

/** Limits of the anonymous bucket that requests without a valid key count in (frozen, shared). */
export const anonymousPlan: Plan = standardPlans.free

const planNames: readonly string[] = ['free', 'pro', 'business', 'enterprise'] satisfies PlanName[]

/**
 * Reads a plan from its text form: `free`, `pro`, `business`, or
 * `enterprise:<perMinute>/<perDay>` with positive whole numbers.
 *
 * @example
 * parsePlan('pro') // { name: 'pro', perMinute: 300, perDay: 10000 }
 * parsePlan('enterprise:5000/2000000')
 */
export function parsePlan(text: string): Plan {
  const trimmed = text.trim()
  if (trimmed === 'free' || trimmed === 'pro' || trimmed === 'business') {
    return standardPlans[trimmed]
  }
  const match = /^enterprise:(\d+)\/(\d+)$/.exec(trimmed)
  if (match) {
    const perMinute = Number(match[1])
    const perDay = Number(match[2])
    if (perMinute >= 1 && perDay >= 1 && Number.isSafeInteger(perMinute) && Number.isSafeInteger(perDay)) {
      return Object.freeze({ name: 'enterprise', perMinute, perDay })
    }
  }
  throw new RangeError(`Unknown plan "${text}": use free, pro, business or enterprise:<perMinute>/<perDay> (positive whole numbers)`)
}

/**
 * A frozen copy of a plan given as an object, checked like {@link parsePlan}
 * checks text: a known name and positive whole limits. Copied, so that the
 * caller's own object can change afterwards without changing the limits.
 * Throws a `RangeError` naming what is wrong.
 */
export function toPlan(plan: Plan): Plan {
  const { name, perMinute, perDay } = plan
  if (!planNames.includes(name)) {
    throw new RangeError(`Unknown plan name ${JSON.stringify(name)}: use free, pro, business or enterprise`)
  }
  if (!(Number.isSafeInteger(perMinute) && perMinute >= 1 && Number.isSafeInteger(perDay) && perDay >= 1)) {
    throw new RangeError(`A plan's perMinute and perDay must be positive whole numbers (got ${perMinute}/${perDay})`)
  }
  return Object.freeze({ name, perMinute, perDay })
}

/** The text form of a plan, the inverse of {@link parsePlan}. */
export function formatPlan(plan: Plan): string {
  return plan.name === 'enterprise' ? `enterprise:${plan.perMinute}/${plan.perDay}` : plan.name
}
