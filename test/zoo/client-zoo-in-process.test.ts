import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSimulator } from '../../src/simulator.ts'
import { misbehaving, wellBehaved, type ZooWorld } from './zoo-clients.ts'

// The zoo in-process, as the fake-timer recipe of docs/grading-clients.md runs it: each client against a simulator
// of its own whose clock reads the faked Date, its `fetch` the simulator's, its waits fake timers run at once. The
// clients that cannot run so are left to the CLI's zoo: got (node:http, not fetch) and the createPet one (its
// AbortSignal.timeout is a real timer).

/** The longest delay a timer takes: 2^31 - 1 ms, some 24.8 days. */
const longestTimer = 2 ** 31 - 1

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

async function graded(client: (world: ZooWorld) => Promise<void>) {
  vi.useFakeTimers({
    now: new Date('2030-06-15T10:00:00Z'),
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  })
  const simulator = createSimulator({ clock: { now: () => Date.now() }, keys: { 'zoo-key': 'enterprise:3/1000' }, pets: 3 })
  vi.stubGlobal('fetch', simulator.fetch)
  const world: ZooWorld = {
    apiUrl: 'http://zoo.test/v1',
    key: 'zoo-key',
    // In steps a timer can take (a longer delay fires at once): getPet's client waits months for its removal date.
    sleep: async (milliseconds) => {
      for (let left = Math.max(0, milliseconds); left > 0; left -= longestTimer) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(left, longestTimer)))
      }
    },
    now: async () => Date.now(),
  }
  const done = client(world)
  await vi.runAllTimersAsync()
  await done
  return simulator.clientReport()
}

const rulesOf = (report: Awaited<ReturnType<typeof graded>>) =>
  [...new Set(report.callers.flatMap((grade) => grade.findings.map((finding) => finding.rule)))].sort()

describe('the client zoo in-process, on fake timers', () => {
  for (const [name, client] of Object.entries(wellBehaved).filter(([name]) => name !== 'got')) {
    it(`accuses no well-behaved client: ${name}`, async () => {
      const report = await graded(client)
      expect(rulesOf(report)).toEqual([])
      expect(report.callers[0]!.requests).toBeGreaterThanOrEqual(5)
    })
  }
  for (const [name, { client, rules }] of Object.entries(misbehaving).filter(([name]) => !name.startsWith('createPet'))) {
    it(`gives exactly its rule ids to: ${name}`, async () => {
      expect(rulesOf(await graded(client))).toEqual([...rules].sort())
    })
  }
})
