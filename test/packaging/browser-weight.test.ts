import { expect, it } from 'vitest'
import { measureBrowserWeight } from './browser-size.ts'

// The budget: a browser app using petstore-sim under setupWorker grows by at most this much, gzipped, over msw alone
// (it grew by 184 kB while faker's English locale was in the bundle). Issues #11 and #20 set 60 kB; this wave's
// features that run in the browser then added, measured with `npm run size` as each landed: faker's SimpleFaker (the
// design card's seeded faker store, 22.5 kB, with zod/mini saving 16 kB of zod) to 54.1 kB; snapshots and scenarios
// +4.6 kB (63.2); the journal's whole exchange, queries, HAR and coverage +3.6 kB (66.8). 70 kB holds them, with the
// control plane and dashboard kept out of pages that do not use them (simulator.fetch answers without them). Raised
// from 60 on purpose, and said so in the closing note of this change: the figure to argue about is printed by
// `npm run size`.
const budgetGzipBytes = 70_000

it('adds at most the budget, gzipped, to a setupWorker page, over msw alone', async () => {
  const weight = await measureBrowserWeight()
  expect(weight.mswOnly.gzipBytes).toBeGreaterThan(50_000) // msw is really in both pages
  expect(weight.addedGzipBytes).toBeLessThanOrEqual(budgetGzipBytes)
  expect(weight.withSimulator.byPackage.map((entry) => entry.name)).toEqual(expect.arrayContaining(['petstore-sim', 'msw']))
  // zod is bundled into petstore-sim, and is a real part of what it adds.
  expect(weight.zodGzipBytes).toBeGreaterThan(5_000)
  expect(weight.zodGzipBytes).toBeLessThan(weight.addedGzipBytes)
  // So is faker's SimpleFaker, which generates the seeded catalogue (and none of faker's locales).
  expect(weight.fakerGzipBytes).toBeGreaterThan(15_000)
  expect(weight.fakerGzipBytes).toBeLessThan(30_000)
  expect(weight.withSimulator.byPackage.map((entry) => entry.name)).not.toContain('@faker-js/faker')
}, 60_000)
