import type { Plan } from '../access/plans.ts'
import type { RateLimitDecision } from '../access/rate-limiter.ts'
import type { RecordedRequest, RecordInput } from '../journal/journal-types.ts'
import type { NewPet, Pet } from '../model/pet-types.ts'

/**
 * How a request meets the limiter, decided in one place (`admissionOf`) for the in-memory limiter and the shared store
 * alike: `consume` counts it; `peek` reads the caller's standing and counts nothing (a foreign page's navigation);
 * `forced` (a `Prefer: code=` answer the caller may have) peeks, and consumes only when the caller is refused, so a
 * caller over its limit still gets its 429 and its refusals still lead to a ban. Under `forced`, an allowed decision
 * means the forced answer is sent.
 */
export type Admission = 'consume' | 'peek' | 'forced'

/**
 * One world (the default one or a sandbox) kept in a shared store (`--store`): the pipeline asks it, instead of the
 * local limiter and store, for what must be the same on every instance. Each call brings the instance's local copy of
 * the world up to date first, so what the pipeline then reads locally (pets, fault rules, the clock) is the fleet's.
 * Every call rejects with an `ApiError` `store_unavailable` when the store does not answer: never a local count.
 */
export interface SharedWorld {
  /** The limiter's decision for a caller, taken atomically in the store (its clock, its counts, its bans). */
  admit(bucket: string, plan: Plan, admission: Admission): Promise<RateLimitDecision>
  /** Stores a new pet with the fleet's next id (507 `store_full` past the cap) and returns it as stored. */
  createPet(newPet: NewPet): Promise<Pet>
  /**
   * Claims one firing of a fault rule with `times` across the fleet (atomically in the store); false when the fleet
   * has spent it, so it does not fire.
   */
  claimFault(ruleId: string): Promise<boolean>
  /** Journals an answer in the fleet's journal, with the fleet-wide sequence; resolves once the store holds it. */
  record(input: RecordInput): Promise<RecordedRequest>
}
