import type { KeyRing } from '../core/api-keys.ts'
import type { Clock } from '../core/clock.ts'
import type { DeprecationPolicy } from '../core/deprecation.ts'
import type { PetStore } from '../core/pet-store.ts'
import type { RateLimiter } from '../core/rate-limiter.ts'
import type { RequestJournal } from '../core/request-journal.ts'

/** A fixed response delay, or a range to draw from. */
export type Latency = number | { readonly min: number; readonly max: number }

/** Everything the API handlers of one simulator share. Never shared between simulators. */
export interface ApiContext {
  readonly store: PetStore
  readonly keyRing: KeyRing
  readonly limiter: RateLimiter
  readonly clock: Clock
  readonly journal: RequestJournal
  readonly deprecation: DeprecationPolicy
  /** The API prefix's path, e.g. `/v1`. */
  readonly basePath: string
  /** What msw matches paths under: `*\/v1` for any origin, or a full base URL. */
  readonly urlPrefix: string
  readonly latency: Latency | undefined
}
