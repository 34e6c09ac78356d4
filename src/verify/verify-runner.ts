import { parsePlan, toPlan, type Plan } from '../core/access/plans.ts'
import { systemClock, type Clock } from '../core/time/clock.ts'
import { checkCatalogue, checkIds, type CheckId } from './check-catalogue.ts'
import { causeLine, findCause, StoppedByCause, stopsTheRun, type VerifyCause } from './diagnosis.ts'
import { describeRequest, describeResponse, type Exchange } from './exchange.ts'
import { Mismatch } from './expectations.ts'
import type { Probe, ProbeContext } from './probe.ts'
import { rateLimitProbes } from './rate-limit-probes.ts'
import { readProbes } from './read-probes.ts'
import {
  AnswerTooLarge,
  BudgetSpent,
  formatBytes,
  NoAnswer,
  RequestSender,
  RetryAfterTooLong,
  RunOutOfTime,
  TargetUnreachable,
  type VerifyWait,
} from './request-budget.ts'
import { createSecretScrubber, redactUrl } from '../core/journal/journal-redaction.ts'
import { summarise, type CheckResult, type VerifyReport } from './verify-report.ts'
import { wholeRunProbes } from './whole-run-probes.ts'
import { writeProbes } from './write-probes.ts'

/** What `verify` checks and how. Only `baseUrl` and `key` are required. */
export interface VerifyOptions {
  /** The API's base URL, ending with the version segment: `https://staging.api.animal-store.example/v1`. */
  readonly baseUrl: string
  /** An API key of the target, sent as `Authorization: Bearer <key>`; never printed. */
  readonly key: string
  /** The key's plan (a text form `parsePlan` reads, or a plan object; core/access/plans.ts lists them): the limits expected. Default `free`. */
  readonly plan?: Plan | string
  /** Allow the checks that create pets on the target. Default false. */
  readonly writes?: boolean
  /** Allow the checks that spend a minute's quota of the key to reach a 429. Default false. */
  readonly limits?: boolean
  /** Advisory checks (questions the spec leaves open) fail the run too. Default false. */
  readonly strict?: boolean
  /** How long each request may take. Default 10 s. */
  readonly timeoutMs?: number
  /** The longest `Retry-After` the run waits out; past it nothing more is sent. Default 2 minutes. */
  readonly maxWaitMs?: number
  /** The whole run's time bound, waits included: past it nothing more is sent and the checks left fail. Default 10 minutes. */
  readonly maxTimeMs?: number
  /** The most bytes read of each response body; a longer body fails the check that needed it. Default 1 MiB. */
  readonly maxBodyBytes?: number
  /** Default: the global `fetch`. Give `app.fetch` or an intercepted fetch to check in-process. */
  readonly fetch?: (input: string, init?: RequestInit) => Promise<Response>
  /** The run's clock (for `X-RateLimit-Reset` and `Retry-After`). Default: the system clock. */
  readonly clock?: Clock
  /** How the run waits out a `Retry-After`. Default: a timer. Tests move a simulator's clock instead. */
  readonly sleep?: (milliseconds: number) => Promise<void>
  /** Called once, before anything is sent, with what the run will cost. */
  readonly onPlan?: (plan: VerifyPlan) => void
  /** Called before each wait (a `Retry-After`, a backoff, a listing given time to catch up), with its length and why. */
  readonly onWait?: (wait: VerifyWait) => void
  /** Called once after the authentication checks (the first 4 requests), before any write or quota spent, with the causes
   * their answers showed (a wrong base URL, a refused key, another plan, no answer): the CLI prints those first. */
  readonly onDiagnosis?: (causes: readonly VerifyCause[]) => void
}

/** What a run will cost, known before it sends anything. */
export interface VerifyPlan {
  /** The most requests the run sends (retries after a 429 included); it never sends more. */
  readonly requests: number
  /** Of those, what `limits` spends to reach the 429 and see the recovery (0 without `limits`). */
  readonly limitRequests: number
  readonly plan: Plan
  readonly checks: number
  /** The run's time bound (`maxTimeMs`), waits included. */
  readonly maxTimeMs: number
}

/** 429s the run may retry after their `Retry-After` when it did not ask for one (another client sharing the key). */
const retries = 2
const defaultTimeoutMs = 10_000
const defaultMaxWaitMs = 120_000
/** Time enough for `--limits` with a Business key against a remote target (1,000 requests and a minute's wait). */
export const defaultMaxTimeMs = 600_000
/** Far more than any answer of the spec (a page of 100 pets is about 20 KiB), far less than harms the runner. */
export const defaultMaxBodyBytes = 1024 * 1024

/**
 * The auth probe first (it lists a pet, whose categoryId the writes reuse), then the writes, so that on an empty
 * catalogue the reads have the created pet to look at; the 429 late, as it spends the window; the findings over
 * every answer last.
 */
function probesInOrder(): readonly Probe[] {
  const [auth, ...reads] = readProbes
  return [
    auth!,
    ...writeProbes,
    ...reads,
    rateLimitProbes.remaining,
    rateLimitProbes.exceed,
    rateLimitProbes.everyResponse,
    ...wholeRunProbes,
  ]
}

function enabled(probe: Probe, options: Pick<VerifyOptions, 'writes' | 'limits'>): boolean {
  switch (probe.needs) {
    case undefined:
      return true
    case 'writes':
      return options.writes === true
    case 'limits':
      return options.limits === true
    default: {
      const unreachable: never = probe.needs
      return unreachable
    }
  }
}

/**
 * What a run with these options will cost, computed as `verify` computes it. Throws a `RangeError` on an unknown plan.
 * Takes `verify`'s own options object (only `plan`, `writes` and `limits` count): a `Pick` of those three refused it
 * as an object literal (TS2353 on `baseUrl`).
 */
export function planVerification(options: Partial<VerifyOptions>): VerifyPlan {
  const plan = resolvePlan(options.plan)
  const active = probesInOrder().filter((probe) => enabled(probe, options))
  const limitRequests = active.filter((probe) => probe.needs === 'limits').reduce((sum, probe) => sum + probe.budget(plan), 0)
  return {
    requests: active.reduce((sum, probe) => sum + probe.budget(plan), 0) + retries,
    limitRequests,
    plan,
    checks: checkIds.length,
    maxTimeMs: options.maxTimeMs ?? defaultMaxTimeMs,
  }
}

/**
 * Checks an Animal Store API at `baseUrl` against the behaviour the spec
 * makes observable from outside, and returns the report. Sends at most the
 * requests it announces (`onPlan`), honours every `Retry-After`, and never
 * throws for what the target does: a target that does not answer fails the
 * checks that needed the answer.
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const target = new URL(options.baseUrl)
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new TypeError(`Not an http(s) URL: ${options.baseUrl}`)
  const cost = planVerification(options)
  for (const [name, value] of Object.entries({ maxTimeMs: cost.maxTimeMs, maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes })) {
    if (!(Number.isSafeInteger(value) && value > 0)) throw new RangeError(`${name} must be a whole number above 0, got ${value}`)
  }
  const clock = options.clock ?? systemClock
  const sender = new RequestSender({
    baseUrl: options.baseUrl,
    key: options.key,
    budget: cost.requests,
    retries,
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    maxWaitMs: options.maxWaitMs ?? defaultMaxWaitMs,
    maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes,
    deadline: clock.now() + cost.maxTimeMs,
    maxTimeLabelMs: cost.maxTimeMs,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    now: () => clock.now(),
    sleep: options.sleep ?? ((milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds))),
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
  })
  options.onPlan?.(cost)

  const results = new Map<CheckId, CheckResult>()
  const record = (id: CheckId, result: Omit<CheckResult, 'id' | 'title' | 'section' | 'advisory'>) => {
    if (results.get(id)?.outcome === 'fail') return
    const { title, section, basis: _basis, ...rest } = checkCatalogue[id]
    const advisory = 'advisory' in rest ? rest.advisory : undefined
    results.set(id, { id, title, section, ...(advisory === undefined ? {} : { advisory }), ...result })
  }
  // The key never shows in a report, even when the target echoes it (in a body, a header): it reads as its fingerprint.
  const scrub = createSecretScrubber([options.key])
  // Causes found in the answers (diagnosis.ts), each on the exchange that showed it; one that stops the run stops it.
  const causes: VerifyCause[] = []
  const causeOf = new Map<Exchange, VerifyCause>()
  let stopped: VerifyCause | undefined
  let planSeen = false
  const failure = (error: Mismatch) => ({
    outcome: 'fail' as const,
    reason: error.exchange !== undefined && causeOf.has(error.exchange) ? causeLine(causeOf.get(error.exchange)!) : scrub(error.message),
    expected: scrub(error.expected),
    actual: scrub(error.actual),
    ...(error.exchange === undefined
      ? {}
      : { request: scrub(describeRequest(error.exchange)), response: scrub(describeResponse(error.exchange)) }),
  })
  const context: ProbeContext = {
    plan: cost.plan,
    basePath: target.pathname.replace(/\/+$/, ''),
    // 8 characters: the time's last 5 base-36 digits (about 16 hours apart) and 3 random ones.
    runId: `${(clock.now() % 36 ** 5).toString(36).padStart(5, '0')}${Math.floor(Math.random() * 36 ** 3)
      .toString(36)
      .padStart(3, '0')}`,
    async send(request) {
      if (stopped !== undefined) throw new StoppedByCause(stopped.message)
      const exchange = await sender.send(request)
      const found = findCause(exchange, { baseUrl: redactUrl(options.baseUrl), plan: cost.plan, planSeen })
      planSeen ||= exchange.request.auth === 'key' && exchange.status === 200 && 'x-ratelimit-limit' in exchange.headers
      if (found !== undefined) {
        const cause = { kind: found.kind, message: scrub(found.message) }
        causes.push(cause)
        causeOf.set(exchange, cause)
        if (stopsTheRun(cause)) stopped = cause
      }
      return exchange
    },
    judge(id, test, note) {
      const noted = note === undefined ? {} : { note: scrub(note) }
      try {
        test()
        record(id, { outcome: 'pass', ...noted })
      } catch (error) {
        if (!(error instanceof Mismatch)) throw error
        record(id, { ...failure(error), ...noted })
      }
    },
    skip: (id, reason) => record(id, { outcome: 'skip', reason }),
    exchanges: () => sender.exchanges(),
    now: () => clock.now(),
  }

  const unreachableCause = () =>
    sender.unreachable === undefined ? [] : [{ kind: 'unreachable' as const, message: scrub(sender.unreachable) }]
  for (const [index, probe] of probesInOrder().entries()) {
    if (index === 1) options.onDiagnosis?.([...causes, ...unreachableCause()])
    // An unreachable target, or a cause that stops the run, is reported once, on the check it stopped: the rest are not run.
    const stop = sender.unreachable === undefined ? stopped?.message : scrub(sender.unreachable)
    if (stop !== undefined) {
      for (const id of probe.checks) context.skip(id, `not run: ${stop}`)
      continue
    }
    if (!enabled(probe, options)) {
      const reason =
        probe.needs === 'writes'
          ? 'needs --writes (creates pets on the target)'
          : `needs --limits (spends a minute's quota: ${probe.budget(cost.plan)} requests for a ${cost.plan.name} key)`
      for (const id of probe.checks) context.skip(id, reason)
      continue
    }
    // A key of another plan: spending "its" minute would show nothing but the mismatch already found.
    const planCause = causes.find((cause) => cause.kind === 'plan-mismatch')
    if (probe.needs === 'limits' && planCause !== undefined) {
      for (const id of probe.checks) context.skip(id, `not run: ${planCause.message}`)
      continue
    }
    try {
      await probe.run(context)
    } catch (error) {
      if (
        !(
          error instanceof NoAnswer ||
          error instanceof BudgetSpent ||
          error instanceof RetryAfterTooLong ||
          error instanceof RunOutOfTime ||
          error instanceof Mismatch ||
          error instanceof StoppedByCause
        )
      ) {
        throw error
      }
      if (error instanceof StoppedByCause) {
        for (const id of probe.checks) if (!results.has(id)) context.skip(id, `not run: ${error.message}`)
        continue
      }
      if (error instanceof TargetUnreachable) {
        const cause = scrub(error.message)
        const [first, ...rest] = probe.checks.filter((id) => !results.has(id))
        if (first !== undefined) record(first, { outcome: 'fail', reason: cause, expected: 'an answer', actual: cause })
        for (const id of rest) context.skip(id, `not run: ${cause}`)
        continue
      }
      for (const id of probe.checks) {
        if (results.has(id)) continue
        // An answer a probe needed to go on (a pet to fetch) was not what the spec says: the checks left fail on it.
        if (error instanceof Mismatch) record(id, failure(error))
        else if (error instanceof AnswerTooLarge) {
          const expected = `a body of at most ${formatBytes(options.maxBodyBytes ?? defaultMaxBodyBytes)}`
          record(id, { outcome: 'fail', reason: scrub(error.message), expected, actual: scrub(error.message) })
        } else if (error instanceof NoAnswer)
          record(id, { outcome: 'fail', reason: scrub(error.message), expected: 'an answer', actual: scrub(error.message) })
        // A target that keeps the run past its time bound fails what it kept from being checked.
        else if (error instanceof RunOutOfTime)
          record(id, { outcome: 'fail', reason: error.message, expected: 'an answer within the run', actual: error.message })
        else record(id, { outcome: 'skip', reason: error.message })
      }
    }
    for (const id of probe.checks) if (!results.has(id)) context.skip(id, 'not reached: an earlier step of its probe failed')
  }
  const checks = checkIds.map((id) => results.get(id)!)
  const unreachable = sender.unreachable === undefined ? undefined : scrub(sender.unreachable)
  causes.push(...unreachableCause())
  return summarise(redactUrl(options.baseUrl), checks, options.strict === true, sender.sent, cost.requests, { unreachable, causes })
}

function resolvePlan(plan: Plan | string | undefined): Plan {
  return plan === undefined ? parsePlan('free') : typeof plan === 'string' ? parsePlan(plan) : toPlan(plan)
}
