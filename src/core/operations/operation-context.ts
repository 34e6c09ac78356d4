import type { KeyRing } from '../access/api-keys.ts'
import type { Clock } from '../time/clock.ts'
import type { DeprecationPolicy } from './deprecation.ts'
import type { JsonCache } from '../http/json-text.ts'
import type { PageTexts } from '../catalogue/page-texts.ts'
import type { PetStore } from '../catalogue/pet-store.ts'
import type { RateLimiter } from '../access/rate-limiter.ts'
import type { RequestJournal } from '../journal/request-journal.ts'
import type { SharedWorld } from './shared-world.ts'

/** A fixed response delay, or a range to draw from. */
export type Latency = number | { readonly min: number; readonly max: number }

/**
 * What the operations and the pipeline work on: one simulator's store, keys, limiter, clock, journal. Never shared
 * between simulators. (Its 0.x name, `SimulatorState`, was never exported; `simulator.state()` is `SimulatorStatus`.)
 */
export interface OperationContext {
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
  /** The JSON text of listPets pages, kept while unchanged; cleared on reset. */
  readonly pageTexts: PageTexts
  /** The simulator's seeded generator (latency ranges, fault probabilities and delays); re-seeded on reset. */
  readonly random: RandomSource
  /** Whether `Prefer: code=` forces answers. */
  readonly prefer: boolean
  /** How many resets there have been: a request that sees it change on its way belongs to the state before (see the pipeline). */
  readonly resets: () => number
  /** The world's shared store (`--store`), or undefined in memory: the pipeline's synchronous path is today's, unchanged. */
  readonly shared: SharedWorld | undefined
}

/** A seeded generator of numbers in [0, 1) that can start its sequence over. */
export interface RandomSource {
  readonly next: () => number
  /** Back to the first number of the sequence. */
  reset(): void
}
