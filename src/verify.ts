/**
 * petstore-sim's provider check: the behaviour the Animal Store spec makes
 * observable from outside, checked against any running API (the real one,
 * its staging, or the simulator), with `fetch` only. `petstore-sim verify`
 * is this on the command line.
 *
 * @example
 * import { verify } from 'petstore-sim/verify'
 * const report = await verify({ baseUrl: 'https://staging.api.animal-store.example/v1', key: process.env.API_KEY! })
 * expect(report.failed).toBe(0)
 */
export { planVerification, verify, type VerifyOptions, type VerifyPlan } from './verify/verify-runner.ts'
export type { CheckOutcome, CheckResult, VerifyReport } from './verify/verify-report.ts'
export type { CauseKind, VerifyCause } from './verify/diagnosis.ts'
export { checkCatalogue, specSections, type CheckDefinition, type CheckId, type SpecSection } from './verify/check-catalogue.ts'
export { renderReport, reporters, type Reporter } from './verify/reporters.ts'
export type { VerifyWait } from './verify/request-budget.ts'
