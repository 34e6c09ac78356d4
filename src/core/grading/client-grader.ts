import { keyName } from '../journal/journal-redaction.ts'
import { backoffRatio, clientRuleIds, clientRules, type ClientRuleId, type ClientRuleSeverity } from './client-rules.ts'
import type { GradableRequest } from './gradable-request.ts'
import { createPlanTally, type PlanAdvice, type PlanTally } from './plan-advisor.ts'

/** One rule a caller broke: how often, where first, and what to change. */
export interface ClientFinding {
  /** The rule's id in `clientRules`. */
  readonly rule: ClientRuleId
  /** `violation` fails the caller; `advice` does not. */
  readonly severity: ClientRuleSeverity
  /** How many requests broke it. */
  readonly count: number
  /** The journal sequence numbers of the first offending requests (at most {@link firstSequencesKept}). */
  readonly firstSequences: readonly number[]
  /** What was found and what to change, in one sentence. */
  readonly message: string
}

/** One caller's grade: what it sent, the rules it broke, its verdict and its plan advice. */
export interface ClientGrade {
  /** As the journal names it: a key's fingerprint (`key#…`, never the key) or `anonymous`. */
  readonly caller: string
  /** The documented demo key's name, when the caller is one. */
  readonly keyName?: string
  /** The plan of its last request (`pro`, `enterprise:3/1000`, `anonymous`). */
  readonly plan: string
  /** How many requests it sent (while it was kept). */
  readonly requests: number
  /** The journal sequence number of its first request. */
  readonly firstSequence: number
  /** The journal sequence number of its last request. */
  readonly lastSequence: number
  /** `fail` when any finding is a violation. */
  readonly verdict: ClientVerdict
  /** In the order of the rule table. */
  readonly findings: readonly ClientFinding[]
  /** Its traffic against the spec's plan table. */
  readonly planAdvice: PlanAdvice
}

/** `fail` when there is a violation. */
export type ClientVerdict = 'pass' | 'fail'

/** Every caller's grade: `simulator.clientReport()`, `GET /__sim/clients`, `petstore-sim grade`. */
export interface ClientReport {
  /** `fail` when any caller fails. */
  readonly verdict: ClientVerdict
  /** Callers in the order they first called. */
  readonly callers: readonly ClientGrade[]
  /** Requests counted by violations, over every caller. */
  readonly violations: number
  /** Requests counted by advice, over every caller. */
  readonly advice: number
  /** Callers forgotten (oldest first) past the bound on callers kept. */
  readonly forgottenCallers: number
}

/** The most sequence numbers a finding keeps of its offending requests. */
export const firstSequencesKept = 5

export interface ClientGraderOptions {
  /** When getPet is removed, epoch ms (the simulator's deprecation policy). */
  readonly sunsetAt: number
  /** The most callers kept; past it the least recently seen is forgotten. */
  readonly maxCallers: number
  /** A request a rule should not count (an ignore list). */
  readonly ignored?: ((rule: ClientRuleId, request: GradableRequest) => boolean) | undefined
}

/** The grader fed one request at a time, in the order they were answered: O(1) per request, bounded state. */
export interface ClientGrader {
  observe(request: GradableRequest): void
  report(): ClientReport
  clear(): void
}

interface Tally {
  count: number
  readonly first: number[]
}

/** What the grader keeps per caller: fixed size (a tally per rule broken, the last answers' times, a plan tally). */
interface CallerState {
  readonly caller: string
  plan: string
  requests: number
  readonly firstSequence: number
  lastSequence: number
  readonly tallies: Map<ClientRuleId, Tally>
  /** When the last 429's wait is over; undefined once passed. */
  dueAt: number | undefined
  /** The last answer was a 429, at this time, its wait over at `limitedDue`. */
  limitedAt: number | undefined
  limitedDue: number | undefined
  /** The gap before the previous retry of the current run of 429s. */
  limitedGap: number | undefined
  /** The same for 5xx answers and broken connections. */
  failedAt: number | undefined
  failedDue: number | undefined
  failedGap: number | undefined
  /** The body of the last createPet that failed or went unanswered, hashed. */
  failedCreate: string | undefined
  readonly planTally: PlanTally
}

export function createClientGrader(options: ClientGraderOptions): ClientGrader {
  const { sunsetAt, maxCallers, ignored } = options
  let callers = new Map<string, CallerState>()
  let forgotten = 0

  const find = (state: CallerState, rule: ClientRuleId, request: GradableRequest) => {
    if (ignored?.(rule, request) === true) return
    let tally = state.tallies.get(rule)
    if (tally === undefined) {
      tally = { count: 0, first: [] }
      state.tallies.set(rule, tally)
    }
    tally.count++
    if (tally.first.length < firstSequencesKept) tally.first.push(request.sequence)
  }

  /** The caller seen last, already at the map's end: the common case (one client) costs one comparison. */
  let latest: CallerState | undefined
  const stateOf = (request: GradableRequest): CallerState => {
    if (latest !== undefined && latest.caller === request.caller) return latest
    const known = callers.get(request.caller)
    if (known !== undefined) {
      // Least recently seen first: the one forgotten when the bound is reached.
      callers.delete(request.caller)
      callers.set(request.caller, known)
      latest = known
      return known
    }
    const state: CallerState = {
      caller: request.caller,
      plan: request.plan,
      requests: 0,
      firstSequence: request.sequence,
      lastSequence: request.sequence,
      tallies: new Map(),
      dueAt: undefined,
      limitedAt: undefined,
      limitedDue: undefined,
      limitedGap: undefined,
      failedAt: undefined,
      failedDue: undefined,
      failedGap: undefined,
      failedCreate: undefined,
      planTally: createPlanTally(),
    }
    callers.set(request.caller, state)
    latest = state
    while (callers.size > maxCallers) {
      callers.delete(callers.keys().next().value!)
      forgotten++
    }
    return state
  }

  return {
    observe(request) {
      const state = stateOf(request)
      const { atMs, status } = request
      state.requests++
      state.lastSequence = request.sequence
      state.plan = request.plan
      state.planTally.count(atMs)

      if (state.dueAt !== undefined) {
        if (atMs < state.dueAt) find(state, 'retry-after-ignored', request)
        else state.dueAt = undefined
      }
      if (state.limitedAt !== undefined) {
        state.limitedGap = grownGap(state, 'no-backoff', request, atMs - state.limitedAt, state.limitedGap, state.limitedDue)
      }
      if (state.failedAt !== undefined) {
        state.failedGap = grownGap(state, 'retry-storm', request, atMs - state.failedAt, state.failedGap, state.failedDue)
      }

      if (status === 429) {
        const due = request.retryDueAt()
        state.dueAt = due
        state.limitedAt = atMs
        state.limitedDue = due
        if (request.errorCode() === 'api_key_banned') find(state, 'banned', request)
      } else {
        state.limitedAt = state.limitedDue = state.limitedGap = undefined
      }
      const failed = status === 0 || status >= 500
      if (failed) {
        state.failedAt = atMs
        state.failedDue = request.retryDueAt()
      } else {
        state.failedAt = state.failedDue = state.failedGap = undefined
      }

      if (!request.forced) {
        if (status === 400) find(state, 'invalid-request', request)
        else if (status === 401) find(state, 'unauthenticated', request)
      }
      if (request.operation === 'getPet') find(state, atMs >= sunsetAt ? 'removed-operation' : 'deprecated-operation', request)
      if (request.operation === 'createPet') {
        const unsure = failed || request.fault
        if (state.failedCreate !== undefined || unsure) {
          const body = request.requestBody()
          const digest = body === undefined ? undefined : digestOf(body)
          if (digest !== undefined && digest === state.failedCreate) find(state, 'duplicate-create', request)
          state.failedCreate = unsure ? digest : undefined
        }
      }
    },
    report() {
      const grades = [...callers.values()].sort((a, b) => a.firstSequence - b.firstSequence).map(gradeOf)
      let violations = 0
      let advice = 0
      for (const grade of grades) {
        for (const finding of grade.findings) {
          if (finding.severity === 'violation') violations += finding.count
          else advice += finding.count
        }
      }
      return { verdict: violations > 0 ? 'fail' : 'pass', callers: grades, violations, advice, forgottenCallers: forgotten }
    },
    clear() {
      callers = new Map()
      latest = undefined
      forgotten = 0
    },
  }

  /**
   * A retry in a run of failed answers: from the second on, its gap must be at least {@link backoffRatio} times the
   * one before (and longer), unless the client waited until the answer's `Retry-After` had passed. Returns the gap.
   */
  function grownGap(
    state: CallerState,
    rule: 'no-backoff' | 'retry-storm',
    request: GradableRequest,
    gap: number,
    previous: number | undefined,
    due: number | undefined,
  ): number {
    const waitedFull = due !== undefined && request.atMs >= due
    if (previous !== undefined && !waitedFull && !(gap > previous && gap >= previous * backoffRatio)) find(state, rule, request)
    return gap
  }
}

/** A caller's state as its grade. */
function gradeOf(state: CallerState): ClientGrade {
  const findings: ClientFinding[] = []
  for (const rule of clientRuleIds) {
    const tally = state.tallies.get(rule)
    if (tally === undefined) continue
    const { severity, found, change } = clientRules[rule]
    findings.push({
      rule,
      severity,
      count: tally.count,
      firstSequences: [...tally.first],
      message: `${tally.count} ${tally.count === 1 ? 'request' : 'requests'}: ${found}. Change: ${change}.`,
    })
  }
  const name = keyName(state.caller)
  return {
    caller: state.caller,
    ...(name === undefined ? {} : { keyName: name }),
    plan: state.plan,
    requests: state.requests,
    firstSequence: state.firstSequence,
    lastSequence: state.lastSequence,
    verdict: findings.some((finding) => finding.severity === 'violation') ? 'fail' : 'pass',
    findings,
    planAdvice: state.planTally.advice(),
  }
}

/** A short digest of a body (FNV-1a, 32 bits, and the length): what is kept of a failed createPet. */
function digestOf(text: string): string {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return `${text.length}:${(hash >>> 0).toString(16)}`
}

/** The grade of requests given whole (the journal's entries, a HAR file), in the order given. */
export function gradeRequests(requests: Iterable<GradableRequest>, options: ClientGraderOptions): ClientReport {
  const grader = createClientGrader(options)
  for (const request of requests) grader.observe(request)
  return grader.report()
}
