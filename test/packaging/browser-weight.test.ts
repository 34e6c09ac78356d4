import { expect, it } from 'vitest'
import { measureBrowserWeight } from './browser-size.ts'

// The budget of issue #11: a browser app using petstore-sim under
// setupWorker grows by at most 60 kB gzipped over msw alone (it grew by
// 184 kB while faker's English locale was in the bundle).
it('adds at most 60 kB gzipped to a setupWorker page, over msw alone', async () => {
  const weight = await measureBrowserWeight()
  expect(weight.mswOnly.gzipBytes).toBeGreaterThan(50_000) // msw is really in both pages
  expect(weight.addedGzipBytes).toBeLessThanOrEqual(60_000)
  expect(weight.withSimulator.byPackage.map((entry) => entry.name)).toEqual(expect.arrayContaining(['petstore-sim', 'msw']))
  // zod is bundled into petstore-sim, and is a real part of what it adds.
  expect(weight.zodGzipBytes).toBeGreaterThan(5_000)
  expect(weight.zodGzipBytes).toBeLessThan(weight.addedGzipBytes)
  // So is faker's SimpleFaker, which generates the seeded catalogue (and none of faker's locales).
  expect(weight.fakerGzipBytes).toBeGreaterThan(15_000)
  expect(weight.fakerGzipBytes).toBeLessThan(30_000)
  expect(weight.withSimulator.byPackage.map((entry) => entry.name)).not.toContain('@faker-js/faker')
}, 60_000)
