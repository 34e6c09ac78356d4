// The fake-timer recipe of docs/grading-clients.md, as written there (only the import's path differs).
import { expect, it, vi } from 'vitest'
import { createSimulator } from '../../../src/index.ts'

/** The client under test: retries a 429 after its Retry-After. */
async function listWithRetry(fetch: typeof globalThis.fetch): Promise<number> {
  for (;;) {
    const response = await fetch('/v1/pets?limit=1', { headers: { authorization: 'Bearer test-key' } })
    if (response.status !== 429) return response.status
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after')) * 1000))
  }
}

it('honours Retry-After', async () => {
  vi.useFakeTimers({ now: new Date('2030-06-15T10:00:00Z') })
  const simulator = createSimulator({ clock: { now: () => Date.now() }, keys: { 'test-key': 'enterprise:3/1000' } })
  const calls = (async () => {
    const statuses: number[] = []
    for (let call = 0; call < 5; call++) statuses.push(await listWithRetry(simulator.fetch))
    return statuses
  })()
  await vi.runAllTimersAsync()
  expect(await calls).toEqual([200, 200, 200, 200, 200])
  expect(simulator.clientReport().verdict).toBe('pass')
  vi.useRealTimers()
})

it('accuses the same client when it retries at once, under the same fake timers', async () => {
  vi.useFakeTimers({ now: new Date('2030-06-15T10:00:00Z') })
  const simulator = createSimulator({ clock: { now: () => Date.now() }, keys: { 'test-key': 'enterprise:3/1000' } })
  for (let call = 0; call < 6; call++) await simulator.fetch('/v1/pets?limit=1', { headers: { authorization: 'Bearer test-key' } })
  const findings = simulator.clientReport().callers[0]!.findings.map((finding) => [finding.rule, finding.count])
  expect(findings).toEqual([
    ['retry-after-ignored', 2],
    ['no-backoff', 1],
  ])
  vi.useRealTimers()
})
