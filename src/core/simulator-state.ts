import type { KeyRing } from './api-keys.ts'
import type { Clock } from './clock.ts'
import type { DeprecationPolicy } from './deprecation.ts'
import type { JsonCache } from './json-text.ts'
import type { PetStore } from './pet-store.ts'
import type { RateLimiter } from './rate-limiter.ts'
import type { RequestJournal } from './request-journal.ts'

/** A fixed response delay, or a range to draw from. */
export type Latency = number | { readonly min: number; readonly max: number }

/** Everything one simulator's pipeline works on. Never shared between simulators. */
export interface SimulatorState {
  readonly store: PetStore
  readonly keyRing: KeyRing
  readonly limiter: RateLimiter
  readonly clock: Clock
  readonly journal: RequestJournal
  readonly deprecation: DeprecationPolicy
  /** The API prefix's path, e.g. `/v1`; empty for an API at the root. */
  readonly basePath: string
  readonly latency: Latency | undefined
  /** The JSON text of pets already sent; cleared on reset. */
  readonly petJson: JsonCache
}
