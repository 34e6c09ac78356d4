import { execFile } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { probeRoutes, type HeapFigures, type ProbeRoute } from './allocation-probe.ts'

// Promotion guarded next to allocation (issue 47): V8 pretenured the journal's entries, so each request's dead entry
// kept its headers, body and answer alive until a full collection, with the bytes allocated unchanged and the
// allocation budget blind to it. This holds the bytes per request that reach the old generation (promoted by a
// scavenge or allocated there directly) to test/bench/promotion-budget.json. They depend on the process's history and
// heap flags, so they are taken in a child process launched as the bin launches the simulator (its shebang's flags),
// GETs before POSTs as `npm run bench` runs them; bytes, not time, so a contended machine does not move them much.
// Update on purpose only (CONTRIBUTING.md, Performance): `UPDATE_PROMOTION_BUDGET=1 npx vitest run <this file>`.

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

const budgetFile = new URL('./promotion-budget.json', import.meta.url)
const budgets = JSON.parse(readFileSync(budgetFile, 'utf8')) as BudgetFile
/**
 * Above the figure measured: a window holds some ten scavenges, and what one promotes depends on where in a request
 * it falls, so repeated runs vary by some 10 % (and a few dozen bytes on the GET routes); a pretenured entry is some
 * 700 bytes a request.
 */
const margin = 0.2
const slackBytes = 60
/** Enough requests for some ten scavenges a route at the bin's 16 MiB semi-space (some 12 kB a request), bounded. */
const requests = 10_000
const warmup = 10_000

const bin = fileURLToPath(new URL('../../bin/petstore-sim.js', import.meta.url))
const probe = fileURLToPath(new URL('./allocation-probe.ts', import.meta.url))
/** The V8 flags of the bin's shebang (`#!/usr/bin/env -S node --max-semi-space-size=16`): the heap users run. */
const binFlags = readFileSync(bin, 'utf8')
  .split('\n', 1)[0]!
  .split(' ')
  .filter((part) => part.startsWith('--'))

describe('bytes promoted per request, against test/bench/promotion-budget.json', () => {
  it('every hot route stays within its budget', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [...binFlags, probe], {
      env: { ...process.env, PROBE_REQUESTS: String(requests), PROBE_WARMUP: String(warmup) },
      timeout: 100_000,
    })
    const figures = JSON.parse(stdout) as Record<ProbeRoute, HeapFigures>
    const routes = Object.keys(probeRoutes) as ProbeRoute[]
    console.log(`bytes promoted per request: ${JSON.stringify(figures)}`)
    let held = budgets.routes
    if (process.env.UPDATE_PROMOTION_BUDGET === '1') {
      held = Object.fromEntries(
        routes.map((route) => {
          const measured = figures[route].promoted
          return [route, { measured, budget: Math.ceil((measured * (1 + margin) + slackBytes) / 10) * 10 }]
        }),
      ) as Record<ProbeRoute, RouteBudget>
      writeFileSync(budgetFile, `${JSON.stringify({ ...budgets, routes: held }, null, 2)}\n`)
    }
    const over = routes
      .filter((route) => figures[route].promoted > held[route].budget)
      .map(
        (route) =>
          `${route} promotes ${figures[route].promoted} bytes a request, past its budget of ${held[route].budget} ` +
          `(${held[route].measured} when the budget was set)`,
      )
    const message =
      `${over.join('; ')}. Find what lives past a scavenge or is pretenured (CONTRIBUTING.md, Performance: ` +
      '--trace-gc-nvp, a heap snapshot) or, if the cost is meant, update the budget (UPDATE_PROMOTION_BUDGET=1) with ' +
      "the issue's bar and the A/B in the commit message."
    expect(over, message).toEqual([])
  }, 120_000)
})
