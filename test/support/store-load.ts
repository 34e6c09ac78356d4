import { contractViolations } from './contract.ts'
import type { StoreAnswer, StoreInstance } from './store-fleet.ts'

/** One request of a {@link startLoad} run: what was sent, in which phase of the test, and what came back. */
export interface LoadOutcome {
  /** The test's phase when the request was sent (see {@link LoadControl.phase}). */
  readonly phase: string
  readonly key: string
  /** Which instance of the fleet it went to. */
  readonly instance: number
  /** The answer, or why none came (a reset connection, or no answer within the bound). */
  readonly answer: StoreAnswer | undefined
  readonly failure: string | undefined
  /** Contract violations of an answer other than the store's 503 (that one is checked by its own assertion). */
  readonly violations: readonly string[]
}

export interface LoadControl {
  /** Set by the test as it goes; every outcome carries the phase in force when its request was sent. */
  phase: string
  /** The key the next requests send. */
  key: string
  readonly outcomes: readonly LoadOutcome[]
  /** Requests sent and not yet answered, per phase. */
  inFlight(phase: string): number
  /** Stops sending, and resolves once every lane has its last answer. */
  stop(): Promise<void>
}

/**
 * A bounded load on a fleet: `lanesPerInstance` lanes per instance, each sending `GET /pets?limit=1` one after the
 * other with a short pause between, until stopped, or `maxRequests` were sent, or `maxMs` passed, whichever comes
 * first. Each request waits at most `requestBoundMs` for its answer (well past the store's timeout: a request that
 * takes longer is recorded as a failure, never as a time to assert on).
 */
export function startLoad(
  fleet: readonly StoreInstance[],
  options: { key: string; phase: string; lanesPerInstance?: number; maxRequests?: number; maxMs?: number; requestBoundMs?: number },
): LoadControl {
  const { lanesPerInstance = 2, maxRequests = 2000, maxMs = 20_000, requestBoundMs = 5000 } = options
  const outcomes: LoadOutcome[] = []
  const pending = new Map<string, number>()
  const startedAt = Date.now()
  let sent = 0
  let stopped = false
  const control: LoadControl = {
    phase: options.phase,
    key: options.key,
    outcomes,
    inFlight: (phase) => pending.get(phase) ?? 0,
    async stop() {
      stopped = true
      await lanes
    },
  }
  const lane = async (instance: number) => {
    while (!stopped && sent < maxRequests && Date.now() - startedAt < maxMs) {
      sent++
      const { phase, key } = control
      pending.set(phase, (pending.get(phase) ?? 0) + 1)
      const path = '/pets?limit=1'
      let answer: StoreAnswer | undefined
      let failure: string | undefined
      let violations: string[] = []
      try {
        const response = await fetch(`${fleet[instance]!.origin}/v1${path}`, {
          headers: { authorization: `Bearer ${key}` },
          signal: AbortSignal.timeout(requestBoundMs),
        })
        const text = await response.text()
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          // Kept as text: the assertion shows it.
        }
        answer = { status: response.status, headers: response.headers, body }
        if (response.status !== 503) {
          violations = contractViolations({
            method: 'GET',
            apiPath: path,
            status: response.status,
            headers: response.headers,
            bodyText: text,
          })
        }
      } catch (error) {
        failure = String((error as Error).cause ?? error)
      }
      pending.set(phase, pending.get(phase)! - 1)
      outcomes.push({ phase, key, instance, answer, failure, violations })
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  const lanes = Promise.all(fleet.flatMap((_, instance) => Array.from({ length: lanesPerInstance }, () => lane(instance))))
  return control
}

/**
 * Waits (at most `attempts` × 50 ms) until `done` holds of the outcomes so far; fails naming `what` and what the load
 * got in each phase when it does not.
 */
export async function untilOutcomes(
  load: LoadControl,
  what: string,
  done: (outcomes: readonly LoadOutcome[]) => boolean,
  attempts = 200,
): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (done(load.outcomes)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  if (!done(load.outcomes)) throw new Error(`The load never saw ${what}; it got ${summary(load.outcomes)}`)
}

/** `phase: status×count …` of every outcome, e.g. `paused: 503×12`, for a failure's message. */
function summary(outcomes: readonly LoadOutcome[]): string {
  const counts = new Map<string, number>()
  for (const outcome of outcomes) {
    const label = `${outcome.phase}: ${outcome.answer?.status ?? outcome.failure}`
    counts.set(label, (counts.get(label) ?? 0) + 1)
  }
  return [...counts].map(([label, count]) => `${label}×${count}`).join(', ') || 'no answer at all'
}
