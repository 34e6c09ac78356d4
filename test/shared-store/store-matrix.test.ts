import { defineApiScenarios } from '../scenarios/api-scenarios.ts'
import { defineCorsScenarios } from '../scenarios/cors-scenarios.ts'
import { defineErrorStateScenarios } from '../scenarios/error-state-scenarios.ts'
import { defineJournalScenarios } from '../scenarios/journal-scenarios.ts'
import { afterAll, beforeAll, describe } from 'vitest'
import type { ApiTarget } from '../support/api-target.ts'
import { pageOrigin, scenarioPetCount, scenarioSeed, testKeySpec } from '../support/api-target.ts'
import { controlledTarget } from '../support/cli-target.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from './fleet.ts'

// The behaviour matrix's scenarios, every answer contract-checked, against two instances on one store: the API sent to
// one, the control plane (reset, clock, faults, journal) driven through the other. What passes here holds fleet-wide.
let redis: RedisServer
let fleet: Fleet
let target: ApiTarget & { close(): Promise<unknown> }
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(
    2,
    { url: redis.socketUrl },
    { seed: scenarioSeed, pets: scenarioPetCount, keys: testKeySpec, corsOrigins: [pageOrigin] },
  )
  target = controlledTarget(`${fleet.origins[0]}/v1`, fleet.origins[1]!, fetch, async () => {})
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})

for (const [title, define] of [
  ['Animal Store API', defineApiScenarios],
  ['Error states on demand', defineErrorStateScenarios],
  ['CORS', defineCorsScenarios],
  ['Journal', defineJournalScenarios],
] as const) {
  describe(`${title} [two instances on one store]`, () => define(() => target))
}
