/** A rate-limit plan: how many API requests a key may make per minute and per UTC day. */
export interface Plan {
  /** `free`, `pro`, `business`, or `enterprise`. */
  readonly name: PlanName
  readonly perMinute: number
  readonly perDay: number
}

export type PlanName = 'free' | 'pro' | 'business' | 'enterprise'

/** The spec's fixed plans. Enterprise limits are custom, per key. */
export const standardPlans = {
  free: { name: 'free', perMinute: 60, perDay: 1_000 },
  pro: { name: 'pro', perMinute: 300, perDay: 10_000 },
  business: { name: 'business', perMinute: 1_000, perDay: 100_000 },
} as const satisfies Record<string, Plan>

/** Limits of the anonymous bucket that requests without a valid key count in. */
export const anonymousPlan: Plan = standardPlans.free

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
      return { name: 'enterprise', perMinute, perDay }
    }
  }
  throw new RangeError(
    `Unknown plan "${text}": use free, pro, business or enterprise:<perMinute>/<perDay> (positive whole numbers)`,
  )
}

/** The text form of a plan, the inverse of {@link parsePlan}. */
export function formatPlan(plan: Plan): string {
  return plan.name === 'enterprise' ? `enterprise:${plan.perMinute}/${plan.perDay}` : plan.name
}
