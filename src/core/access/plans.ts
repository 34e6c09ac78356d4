/**
 * The plans' names: the one declaration `PlanName`, {@link parsePlan} and its
 * messages, {@link toPlan} and the CLI's help derive from. Every name but
 * {@link customPlanName} is a fixed plan in {@link standardPlans}.
 */
export const planNames = ['free', 'pro', 'business', 'enterprise'] as const

export type PlanName = (typeof planNames)[number]

/** The plan whose limits are custom, per key: `enterprise:<perMinute>/<perDay>`. */
export const customPlanName = 'enterprise' satisfies PlanName

type StandardPlanName = Exclude<PlanName, typeof customPlanName>

/** A rate-limit plan: how many API requests a key may make per minute and per UTC day. */
export interface Plan {
  /** One of {@link planNames}. */
  readonly name: PlanName
  readonly perMinute: number
  readonly perDay: number
}

/**
 * The spec's fixed plans, one per name of {@link planNames} but the custom one
 * (the compiler checks both ways). Frozen, like every plan handed out here: one
 * object is shared by every simulator in the process (each `free` key, and
 * {@link anonymousPlan}), so a write through one simulator's `keys[0].plan`
 * would change the limits of all.
 */
export const standardPlans = Object.freeze({
  free: Object.freeze({ name: 'free', perMinute: 60, perDay: 1_000 }),
  pro: Object.freeze({ name: 'pro', perMinute: 300, perDay: 10_000 }),
  business: Object.freeze({ name: 'business', perMinute: 1_000, perDay: 100_000 }),
} as const) satisfies { readonly [Name in StandardPlanName]: Plan & { readonly name: Name } }

/** Limits of the anonymous bucket that requests without a valid key count in (frozen, shared). */
export const anonymousPlan: Plan = standardPlans.free

/** Every text form of a plan, for help and messages: `free`, `pro`, `business`, `enterprise:<perMinute>/<perDay>`. */
export const planForms: readonly string[] = planNames.map((name) => (name === customPlanName ? `${name}:<perMinute>/<perDay>` : name))

/** The plans in help text: `free, pro, business, enterprise:<perMinute>/<perDay>` (the CLI's `--key`, `verify --plan`). */
export const planHelp: string = planForms.join(', ')

/** `a, b, c or d`. */
function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`
}

function isStandardPlanName(name: string): name is StandardPlanName {
  return name !== customPlanName && (planNames as readonly string[]).includes(name)
}

const customPlanPattern = new RegExp(`^${customPlanName}:(\\d+)/(\\d+)$`)

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
  if (isStandardPlanName(trimmed)) return standardPlans[trimmed]
  const match = customPlanPattern.exec(trimmed)
  if (match) {
    const perMinute = Number(match[1])
    const perDay = Number(match[2])
    if (perMinute >= 1 && perDay >= 1 && Number.isSafeInteger(perMinute) && Number.isSafeInteger(perDay)) {
      return Object.freeze({ name: customPlanName, perMinute, perDay })
    }
  }
  throw new RangeError(`Unknown plan "${text}": use ${orList(planForms)} (positive whole numbers)`)
}

/**
 * A frozen copy of a plan given as an object, checked like {@link parsePlan}
 * checks text: a known name and positive whole limits. Copied, so that the
 * caller's own object can change afterwards without changing the limits.
 * Throws a `RangeError` naming what is wrong.
 */
export function toPlan(plan: Plan): Plan {
  const { name, perMinute, perDay } = plan
  if (!(planNames as readonly string[]).includes(name)) {
    throw new RangeError(`Unknown plan name ${JSON.stringify(name)}: use ${orList(planNames)}`)
  }
  if (!(Number.isSafeInteger(perMinute) && perMinute >= 1 && Number.isSafeInteger(perDay) && perDay >= 1)) {
    throw new RangeError(`A plan's perMinute and perDay must be positive whole numbers (got ${perMinute}/${perDay})`)
  }
  return Object.freeze({ name, perMinute, perDay })
}

/** The text form of a plan, the inverse of {@link parsePlan}. */
export function formatPlan(plan: Plan): string {
  return plan.name === customPlanName ? `${customPlanName}:${plan.perMinute}/${plan.perDay}` : plan.name
}
