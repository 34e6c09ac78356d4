import type { CheckId, SpecSection } from './check-catalogue.ts'
import type { VerifyCause } from './diagnosis.ts'

export type CheckOutcome = 'pass' | 'fail' | 'skip'

/** One check's result, as the reporters print it and `verify()` returns it. */
export interface CheckResult {
  readonly id: CheckId
  readonly title: string
  readonly section: SpecSection
  readonly outcome: CheckOutcome
  /** Set for a check of a question the spec leaves open: the question. Its failure fails the run only with `strict`. */
  readonly advisory?: string
  /** What the check had to choose and the report should say (the categoryId it fell back to). */
  readonly note?: string
  /** Why it was skipped, or a failure's summary. */
  readonly reason?: string
  readonly expected?: string
  readonly actual?: string
  /** The request that showed the failure (the credential never appears). */
  readonly request?: string
  /** The status, the headers the checks look at and the start of the body. */
  readonly response?: string
}

/** What a run found: `failed` counts the failures that fail the run (advisory ones only with `strict`). */
export interface VerifyReport {
  /**
   * Set when the failures have a cause the answers showed (a base URL the API is not under, a key refused, a key of
   * another plan, an unreachable target), in the order found: each fails one check, the checks it kept from running
   * are skipped as "not run", and the reports name it first.
   */
  readonly causes?: readonly VerifyCause[]
  /** The base URL checked. */
  readonly target: string
  readonly checks: readonly CheckResult[]
  readonly passed: number
  readonly failed: number
  readonly skipped: number
  /** Advisory checks that failed without failing the run (`strict` off). */
  readonly advisoryFailed: number
  /** Requests sent (never more than `budget`). */
  readonly requests: number
  /** The most requests the run could send, announced before sending. */
  readonly budget: number
  /**
   * Set when the target could not be reached (`cannot connect to 127.0.0.1:4999 (ECONNREFUSED)`): the run stopped
   * there, the check it was deciding failed with this cause, and the rest were not run.
   */
  readonly unreachable?: string
}

/** Does a failed check fail the run? */
export function failsRun(result: CheckResult, strict: boolean): boolean {
  return result.outcome === 'fail' && (strict || result.advisory === undefined)
}

export function summarise(
  target: string,
  checks: readonly CheckResult[],
  strict: boolean,
  requests: number,
  budget: number,
  found: { readonly unreachable?: string | undefined; readonly causes?: readonly VerifyCause[] } = {},
): VerifyReport {
  const { unreachable, causes = [] } = found
  const failed = checks.filter((check) => failsRun(check, strict)).length
  const allFailed = checks.filter((check) => check.outcome === 'fail').length
  return {
    ...(causes.length === 0 ? {} : { causes }),
    target,
    checks,
    passed: checks.filter((check) => check.outcome === 'pass').length,
    failed,
    skipped: checks.filter((check) => check.outcome === 'skip').length,
    advisoryFailed: allFailed - failed,
    requests,
    budget,
    ...(unreachable === undefined ? {} : { unreachable }),
  }
}
