import type { JournalEntry } from '../../src/core/journal/request-journal.ts'
import type { ManualClock } from '../../src/core/time/clock.ts'
import type { JournalClient } from './journal-client.ts'
/**
 * Something the HTTP scenarios can run against (see `matrix.ts`): the MSW
 * handlers in-process behind `setupServer`, the app's `fetch`, or the real
 * CLI on a real port, on its direct lane or with `--engine msw`. All are set
 * up with the keys below and a clock starting at {@link scenarioStart}.
 */
export interface ApiTarget {
  /** Base URL of the API, ending with the prefix, e.g. `http://127.0.0.1:4010/v1`. */
  readonly apiUrl: string
  /** How the target is reached: the global `fetch` (intercepted in-process, or over the network), or the app's own `fetch`. */
  readonly fetch: (input: string, init?: RequestInit) => Promise<Response>
  /** Back to a fresh simulator, with the clock at {@link scenarioStart}. */
  reset(): Promise<void>
  /** Moves the simulator's clock forward. */
  advanceClock(milliseconds: number): Promise<void>
  /** Sets the simulator's clock. */
  setClock(iso: string): Promise<void>
  /** Adds a fault rule (in-process `simulator.faults.add`, over HTTP `POST /__sim/faults`) and returns its id. */
  addFault(rule: Record<string, unknown>): Promise<string>
  removeFault(id: string): Promise<void>
  /** The request journal, oldest first. */
  journal(): Promise<JournalEntry[]>
  /** The journal's queries and contract coverage: in-process, or over HTTP (`/__sim/requests…`). */
  readonly journalClient: JournalClient
  /** The admin token the control plane requires, when the target is started with one (the container, reached from outside). */
  readonly adminToken?: string
}

/** The keys every target accepts. */
export const testKeys = {
  free: 'test-free-key',
  pro: 'test-pro-key',
  business: 'test-business-key',
  enterprise: 'test-enterprise-key',
  /** 3 per minute, 5 per day. */
  tiny: 'test-tiny-key',
  /** 5 per minute, 3 per day: the day window binds first. */
  tinyDay: 'test-tiny-day-key',
} as const

export const testKeySpec = {
  [testKeys.free]: 'free',
  [testKeys.pro]: 'pro',
  [testKeys.business]: 'business',
  [testKeys.enterprise]: 'enterprise:2000/50000',
  [testKeys.tiny]: 'enterprise:3/5',
  [testKeys.tinyDay]: 'enterprise:5/3',
} as const

/** Thirty seconds into a UTC minute, mid-morning, well before the getPet sunset. */
export const scenarioStart = '2030-06-15T10:00:30.000Z'

/**
 * The origin of the browser app the CORS scenarios play (a page on another origin than the simulator's): every
 * target's set-up allows it (`corsOrigins`, `--cors-origin`), as a user serving such a page must.
 */
export const pageOrigin = 'http://app.test:5173'

/** Seed and size of the catalogue every target is created with. */
export const scenarioSeed = 4242
export const scenarioPetCount = 60

/** What every in-process target's simulator is created with: the scenarios' catalogue and keys, and its clock. */
export function scenarioSimulatorOptions(clock: ManualClock) {
  return { seed: scenarioSeed, pets: scenarioPetCount, keys: testKeySpec, clock }
}
