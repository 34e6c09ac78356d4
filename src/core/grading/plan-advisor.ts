import { standardPlans, customPlanName } from '../access/plans.ts'

const minuteMs = 60_000
const dayMs = 86_400_000

/** The fixed plans, smallest first: what the advisor weighs a caller's traffic against (the spec's plan table). */
const fixedPlans = Object.values(standardPlans).sort((a, b) => a.perMinute - b.perMinute)

/** The fixed plans' names. */
export type FixedPlanName = keyof typeof standardPlans

/** A caller's traffic against the spec's plan table. */
export interface PlanAdvice {
  /** The most requests the caller sent in one UTC minute (on the simulator's clock), refused ones included. */
  readonly busiestMinute: number
  /** The most requests it sent in one UTC day. */
  readonly busiestDay: number
  /** The smallest fixed plan both fit, or `enterprise` when none does. */
  readonly smallestPlan: FixedPlanName | typeof customPlanName
  /** Per fixed plan, the requests that would have been over its minute or day limit: the 429s it would have had. */
  readonly shadow429s: Readonly<Record<FixedPlanName, number>>
}

/**
 * The advisor's state for one caller: the current minute and day and their counts, the busiest of each, and one
 * shadow count per plan. Fixed size, whatever the traffic. A clock moved back starts the window it lands in afresh.
 */
export interface PlanTally {
  count(atMs: number): void
  advice(): PlanAdvice
}

export function createPlanTally(): PlanTally {
  let minute = Number.NaN
  let day = Number.NaN
  let inMinute = 0
  let inDay = 0
  let busiestMinute = 0
  let busiestDay = 0
  const shadow = fixedPlans.map(() => 0)
  return {
    count(atMs) {
      const thisMinute = Math.floor(atMs / minuteMs)
      const thisDay = Math.floor(atMs / dayMs)
      if (thisMinute !== minute) {
        minute = thisMinute
        inMinute = 0
      }
      if (thisDay !== day) {
        day = thisDay
        inDay = 0
      }
      inMinute++
      inDay++
      if (inMinute > busiestMinute) busiestMinute = inMinute
      if (inDay > busiestDay) busiestDay = inDay
      for (let index = 0; index < fixedPlans.length; index++) {
        const plan = fixedPlans[index]!
        if (inMinute > plan.perMinute || inDay > plan.perDay) shadow[index]!++
      }
    },
    advice() {
      const fits = fixedPlans.find((plan) => busiestMinute <= plan.perMinute && busiestDay <= plan.perDay)
      const shadow429s = Object.fromEntries(fixedPlans.map((plan, index) => [plan.name, shadow[index]!])) as Record<FixedPlanName, number>
      return { busiestMinute, busiestDay, smallestPlan: fits?.name ?? customPlanName, shadow429s }
    },
  }
}
