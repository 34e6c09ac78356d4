import type { Plan } from '../core/access/plans.ts'
import type { CheckId } from './check-catalogue.ts'
import type { Exchange, ProbeRequest } from './exchange.ts'

/**
 * A unit of the run: a few requests whose answers decide one or more checks.
 * It declares the most requests it sends (the run's budget is their sum, said
 * before anything is sent) and the checks it decides; any of those it leaves
 * undecided are reported as skipped.
 */
export interface Probe {
  readonly checks: readonly CheckId[]
  /** `--writes` or `--limits`, when the probe changes the target or spends its quota. */
  readonly needs?: 'writes' | 'limits'
  /** The most requests it sends for a key of this plan. */
  budget(plan: Plan): number
  run(context: ProbeContext): Promise<void>
}

/** What a probe works with. */
export interface ProbeContext {
  /** The plan of the key (`--plan`): the limits it should see. */
  readonly plan: Plan
  /** The base URL's path (`/v1`), for the paths the API names in headers. */
  readonly basePath: string
  /** Unique to this run: names of created pets carry it. */
  readonly runId: string
  /** Sends a request (within the budget, after any `Retry-After` has passed). */
  send(request: ProbeRequest): Promise<Exchange>
  /**
   * Decides a check: passed when `test` returns, failed with the {@link Mismatch} it throws. A check already failed
   * stays failed. `note` is shown with the outcome: what the check had to choose (the categoryId it fell back to).
   */
  judge(id: CheckId, test: () => void, note?: string): void
  skip(id: CheckId, reason: string): void
  /** Every exchange of the run so far, oldest first. */
  exchanges(): readonly Exchange[]
  /** The run's clock (epoch ms). */
  now(): number
}
