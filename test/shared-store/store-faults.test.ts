// Issue 40: when the store fails, the fleet fails closed and says so. Under a bounded load on two instances, a store
// paused (SIGSTOP) or killed (SIGKILL) gives 503 store_unavailable with Retry-After (never an answer decided without
// the store, never a crash), /__sim/health says not ready so a load balancer drains the instance, and the service
// comes back without a restart when the store does. No success past the key's limit over the whole run.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { generatePets } from '../../src/core/catalogue/seed-pets.ts'
import { scenarioPetCount, scenarioSeed } from '../support/api-target.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import {
  callApi,
  control,
  expectStoreUnavailable,
  freezeClock,
  limitHeaders,
  pollUntil,
  startInstances,
  stopInstances,
  storeArgs,
  type StoreInstance,
} from '../support/store-fleet.ts'
import { startLoad, untilOutcomes, type LoadControl, type LoadOutcome } from '../support/store-load.ts'

const seededPets = generatePets({ seed: scenarioSeed, count: scenarioPetCount })
const perMinute = 40
const keys = { 'pause-key': `enterprise:${perMinute}/100000`, 'kill-key': `enterprise:${perMinute}/100000`, 'writer-key': 'business' }
/** The longest a request waits on the store: short, so that the test spends little time on 503s. */
const storeTimeoutMs = 300

let server: RedisServer
let fleet: StoreInstance[]

beforeAll(async () => {
  server = await startRedisServer()
  fleet = await startInstances(2, storeArgs(server, 'store-faults', keys, [], storeTimeoutMs))
  await freezeClock(fleet[0]!, '2030-06-15T10:00:30.000Z')
}, 60_000)

afterAll(async () => {
  await stopInstances(fleet ?? [])
  await server?.stop()
})

const health = (instance: StoreInstance) => control(instance, '/health')
const sentIn = (phase: string) => (outcome: LoadOutcome) => outcome.phase === phase
const answeredEveryInstance = (outcomes: readonly LoadOutcome[], phase: string, status: (status: number) => boolean) =>
  fleet.every((_, index) =>
    outcomes.some((outcome) => outcome.phase === phase && outcome.instance === index && status(outcome.answer?.status ?? 0)),
  )

/** The store out: every instance answers 503 store_unavailable, reports not ready, and is still running. */
async function expectFailedClosed(load: LoadControl, phase: string): Promise<void> {
  await untilOutcomes(load, `a 503 from every instance (${phase})`, (outcomes) =>
    answeredEveryInstance(outcomes, phase, (status) => status === 503),
  )
  for (const instance of fleet) {
    const probe = await pollUntil(
      () => health(instance),
      (answer) => answer.status === 503,
    )
    expect(probe.status).toBe(503)
    expect(probe.body).toMatchObject({ status: 'unavailable', store: { ready: false } })
    expect(typeof probe.body.store.cause).toBe('string')
    expect(instance.alive()).toBe(true)
  }
}

/** The store back: every instance answers from it again (200, or 429 once the key's limit is reached) and is ready. */
async function expectServiceBack(load: LoadControl, phase: string): Promise<void> {
  await untilOutcomes(load, `a 200 or 429 from every instance (${phase})`, (outcomes) =>
    answeredEveryInstance(outcomes, phase, (status) => status === 200 || status === 429),
  )
  for (const instance of fleet) {
    const probe = await pollUntil(
      () => health(instance),
      (answer) => answer.status === 200,
    )
    expect({ status: probe.status, body: probe.body }).toMatchObject({ status: 200, body: { status: 'ok', store: { ready: true } } })
  }
}

/** Moves the load on to `next` once every request sent in `phase` has its answer (bounded). */
async function settle(load: LoadControl, phase: string, next: string): Promise<void> {
  load.phase = next
  await pollUntil(
    async () => load.inFlight(phase),
    (count) => count === 0,
    200,
  )
  expect(load.inFlight(phase)).toBe(0)
}

/** No key's successes past its limit: within one store's life and one window, at most the limit, each its own count. */
function expectWithinLimit(outcomes: readonly LoadOutcome[]): void {
  const windows = new Map<string, LoadOutcome[]>()
  for (const outcome of outcomes.filter((candidate) => candidate.answer?.status === 200)) {
    const window = `${outcome.key} ${limitHeaders(outcome.answer!).reset}`
    windows.set(window, [...(windows.get(window) ?? []), outcome])
  }
  for (const [window, successes] of windows) {
    const remaining = successes.map((outcome) => limitHeaders(outcome.answer!).remaining)
    expect(successes.length, window).toBeLessThanOrEqual(perMinute)
    expect(new Set(remaining).size, `${window}: ${remaining.join(',')}`).toBe(remaining.length)
  }
}

it('fails closed while the store is paused or killed, and serves again when it is back', { timeout: 60_000 }, async () => {
  for (const instance of fleet) expect((await health(instance)).body).toMatchObject({ status: 'ok', store: { ready: true } })
  const before = await callApi(fleet[0]!, '/pets', {
    key: 'writer-key',
    method: 'POST',
    body: { name: 'Lost With The Store', categoryId: 1 },
  })
  expect(before.status).toBe(201)

  const load = startLoad(fleet, { key: 'pause-key', phase: 'up' })
  try {
    await untilOutcomes(load, '8 successes', (outcomes) => outcomes.filter((outcome) => outcome.answer?.status === 200).length >= 8)

    // Paused: the store holds every connection and answers nothing.
    await settle(load, 'up', 'pausing')
    server.pause()
    await settle(load, 'pausing', 'paused')
    await expectFailedClosed(load, 'paused')
    // Requests sent while it was paused may still be waiting on it: they are answered (503) before it resumes.
    await settle(load, 'paused', 'resuming')
    server.resume()
    load.phase = 'resumed'
    await expectServiceBack(load, 'resumed')
    // Its counts were kept: the key reaches its limit (and no further, below).
    await untilOutcomes(load, "pause-key's 429", (outcomes) =>
      outcomes.some((outcome) => outcome.key === 'pause-key' && outcome.answer?.status === 429),
    )

    // Killed: the store and its data are gone.
    load.key = 'kill-key'
    load.phase = 'up again'
    await untilOutcomes(load, 'a success with kill-key', (outcomes) =>
      outcomes.some((outcome) => outcome.phase === 'up again' && outcome.answer?.status === 200),
    )
    load.phase = 'killing'
    await server.kill()
    await settle(load, 'killing', 'killed')
    await expectFailedClosed(load, 'killed')
    await settle(load, 'killed', 'restarting')
    await server.restart()
    load.phase = 'restarted'
    await expectServiceBack(load, 'restarted')
    await untilOutcomes(load, "kill-key's 429 from the new store", (outcomes) =>
      outcomes.some((outcome) => outcome.phase === 'restarted' && outcome.answer?.status === 429),
    )
  } finally {
    await load.stop()
  }

  const outcomes = load.outcomes
  // Every request had an answer: no reset connection, none left waiting past the bound.
  expect(outcomes.filter((outcome) => outcome.failure !== undefined).map((outcome) => `${outcome.phase}: ${outcome.failure}`)).toEqual([])
  // Never an answer decided without the store: whatever was sent while it was out got the 503, each as it should be.
  for (const outcome of outcomes.filter((candidate) => candidate.phase === 'paused' || candidate.phase === 'killed')) {
    expect(outcome.answer!.status).toBe(503)
  }
  for (const outcome of outcomes.filter((candidate) => candidate.answer?.status === 503)) expectStoreUnavailable(outcome.answer!)
  // Every other answer is the contract's.
  expect(outcomes.flatMap((outcome) => outcome.violations)).toEqual([])
  // No success past the limit: the paused store's counts, one life; the killed store's and the new one's, apart.
  expectWithinLimit(outcomes.filter((outcome) => outcome.key === 'pause-key'))
  expectWithinLimit(outcomes.filter(sentIn('up again')))
  expectWithinLimit(outcomes.filter(sentIn('restarted')))
  expect(outcomes.filter(sentIn('paused')).length).toBeGreaterThan(0)
  expect(outcomes.filter(sentIn('killed')).length).toBeGreaterThan(0)

  // The store came back empty: the world was seeded again from the options, the clock is the machine's again.
  // On every instance: no copy of the old world outlives the store's (each keeps one, to read pets from).
  for (const [index, instance] of fleet.entries()) {
    expect((await callApi(instance, '/pets?limit=100', { key: 'writer-key' })).body, `instance ${index}`).toEqual(seededPets)
    expect((await control(instance, '/clock')).body, `instance ${index}`).toMatchObject({ frozen: false })
  }
})
