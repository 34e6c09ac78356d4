import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { probeAllocation, probeRoutes, type ProbeRoute } from './allocation-probe.ts'

// Speed guarded without timing (issue 38): the bytes the server allocates per request on the hot routes, which do not
// move between runs (allocation-probe.ts), held to a committed budget. CONTRIBUTING.md (Performance) says how to
// update it on purpose: `UPDATE_ALLOCATION_BUDGET=1 npx vitest run test/bench/allocation-budget.test.ts`.

interface RouteBudget {
  /** Bytes per request measured when the budget was set. */
  readonly measured: number
  /** The most bytes per request allowed: `measured` and a margin above what runs vary by. */
  readonly budget: number
}

interface BudgetFile {
  readonly about: string
  readonly routes: Record<ProbeRoute, RouteBudget>
}

const budgetFile = new URL('./allocation-budget.json', import.meta.url)
const budgets = JSON.parse(readFileSync(budgetFile, 'utf8')) as BudgetFile
/** Above the figure measured: repeated runs vary by ±15 bytes of some 13,000; an object a request is some 100. */
const margin = 0.02

describe('bytes allocated per request, against test/bench/allocation-budget.json', () => {
  it('every hot route stays within its budget', async () => {
    const figures = await probeAllocation({ requests: 2000, warmup: 3000 })
    const routes = Object.keys(probeRoutes) as ProbeRoute[]
    console.log(`bytes allocated per request: ${JSON.stringify(figures)}`)
    let held = budgets.routes
    if (process.env.UPDATE_ALLOCATION_BUDGET === '1') {
      held = Object.fromEntries(
        routes.map((route) => [route, { measured: figures[route], budget: Math.ceil((figures[route] * (1 + margin)) / 50) * 50 }]),
      ) as Record<ProbeRoute, RouteBudget>
      writeFileSync(budgetFile, `${JSON.stringify({ ...budgets, routes: held }, null, 2)}\n`)
    }
    const over = routes
      .filter((route) => figures[route] > held[route].budget)
      .map(
        (route) =>
          `${route} allocates ${figures[route]} bytes a request, past its budget of ${held[route].budget} ` +
          `(${held[route].measured} when the budget was set)`,
      )
    const message =
      `${over.join('; ')}. Find what allocates (CONTRIBUTING.md, Performance: V8's sampling heap profiler) or, if the ` +
      'cost is meant, update the budget (UPDATE_ALLOCATION_BUDGET=1) and say why in the commit.'
    expect(over, message).toEqual([])
  }, 60_000)
})
