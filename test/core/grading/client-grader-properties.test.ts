import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../../src/simulator.ts'
import { gradeRequests } from '../../../src/core/grading/client-grader.ts'
import { fromEntry } from '../../../src/core/grading/gradable-request.ts'
import { clientRuleIds } from '../../../src/core/grading/client-rules.ts'
import { defaults } from '../../../src/core/defaults.ts'
import { getPetDeprecation } from '../../../src/core/operations/deprecation.ts'

// The report kept incrementally, one request at a time as the journal records it, equals the report computed from
// the journal's entries read whole (their public view), for random traffic and clock moves. Fixed seed, bounded runs.

const action = fc.oneof(
  fc.record({ kind: fc.constant('list' as const), key: fc.constantFrom('k-a', 'k-b', 'nope', ''), limit: fc.constantFrom(1, 50, 500) }),
  fc.record({ kind: fc.constant('get' as const), key: fc.constantFrom('k-a', 'k-b') }),
  fc.record({ kind: fc.constant('create' as const), key: fc.constantFrom('k-a', 'k-b'), name: fc.constantFrom('Rex', 'Tom') }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 70_000 }) }),
  fc.record({
    kind: fc.constant('jump' as const),
    to: fc.constantFrom('2030-06-15T10:00:00Z', '2030-12-05T00:00:00Z', '2031-01-01T00:00:00Z'),
  }),
  fc.record({ kind: fc.constant('fault' as const), status: fc.constantFrom(500, 503, 0) }),
  fc.record({ kind: fc.constant('burst' as const), key: fc.constantFrom('k-a', 'k-b'), count: fc.integer({ min: 1, max: 8 }) }),
)

describe('the client report, incremental', () => {
  it('equals the report computed from the whole journal', async () => {
    const seen = new Set<string>()
    await fc.assert(
      fc.asyncProperty(fc.array(action, { maxLength: 40 }), async (actions) => {
        const simulator = createSimulator({
          keys: { 'k-a': 'enterprise:3/1000', 'k-b': 'free' },
          pets: 3,
          ban: { after: 3, durationMs: 30_000 },
        })
        simulator.clock.set('2030-06-15T10:00:00Z')
        simulator.clock.freeze()
        const auth = (key: string): Record<string, string> => (key === '' ? {} : { authorization: `Bearer ${key}` })
        for (const step of actions) {
          if (step.kind === 'list') await simulator.fetch(`/v1/pets?limit=${step.limit}`, { headers: auth(step.key) })
          else if (step.kind === 'burst') {
            for (let index = 0; index < step.count; index++) await simulator.fetch('/v1/pets?limit=1', { headers: auth(step.key) })
          } else if (step.kind === 'get') await simulator.fetch('/v1/pets/1', { headers: auth(step.key) })
          else if (step.kind === 'create') {
            const response = await simulator.fetch('/v1/pets', {
              method: 'POST',
              headers: { ...auth(step.key), 'content-type': 'application/json' },
              body: JSON.stringify({ name: step.name, categoryId: 1 }),
            })
            await response.text().catch(() => '')
          } else if (step.kind === 'wait') simulator.clock.advance(step.ms)
          else if (step.kind === 'jump') simulator.clock.set(step.to)
          else if (step.status === 0) simulator.faults.add({ operation: 'createPet', fault: 'truncate', times: 1 })
          else simulator.faults.add({ status: step.status, times: 2 })
        }
        const whole = gradeRequests(simulator.journal.entries().map(fromEntry), {
          sunsetAt: getPetDeprecation.sunsetAt,
          maxCallers: defaults.maxGradedCallers,
        })
        const live = simulator.clientReport()
        for (const grade of live.callers) for (const finding of grade.findings) seen.add(finding.rule)
        expect(live).toEqual(whole)
      }),
      { seed: 4848, numRuns: 60 },
    )
    // The traffic earned every rule at least once, so every rule was compared.
    expect([...seen].sort()).toEqual([...clientRuleIds].sort())
  })
})
