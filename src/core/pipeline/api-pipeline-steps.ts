import { ApiError } from '../http/api-error.ts'
import type { ApiKey } from '../access/api-keys.ts'
import { invalidKey, readBearerToken } from '../access/bearer-token.ts'
import type { PlainRequest, PlainResponse } from '../http/plain-http.ts'
import type { RecordInput } from '../journal/journal-types.ts'
import { anonymousPlan, type Plan } from '../access/plans.ts'
import { anonymousCallerPrefix } from '../access/caller-buckets.ts'
import { keyCallerPrefix, type RateLimitDecision } from '../access/rate-limiter.ts'
import type { Latency, OperationContext } from '../operations/operation-context.ts'
import type { RateLimiter } from '../access/rate-limiter.ts'
import type { Admission, SharedWorld } from '../operations/shared-world.ts'
import type { FaultRules, FiredFault } from '../faults/fault-rules.ts'
import type { CompiledRoute } from '../operations/route-table.ts'

// The pipeline's small steps, apart from its flow (api-pipeline.ts): who is calling, what a refusal says, a forced
// 429's Retry-After, a latency drawn; and the shared store's steps, apart from the in-memory path.

/** Whole seconds, at least 1, until the window of a decision resets: a forced 429's `Retry-After`. */
export function retryAfter(decision: RateLimitDecision, now: number): number {
  return decision.outcome === 'allowed' ? Math.max(1, Math.ceil(decision.resetAt - now / 1000)) : decision.retryAfterSeconds
}

export type Caller =
  | { readonly key: ApiKey; readonly bucket: string; readonly plan: Plan; readonly problem?: undefined }
  | { readonly key?: undefined; readonly bucket: string; readonly plan: Plan; readonly problem: ApiError }

export function identifyCaller(state: OperationContext, request: PlainRequest): Caller {
  let problem: ApiError
  try {
    const key = state.keyRing.authenticate(readBearerToken(request.header('authorization') ?? null))
    if (key !== undefined) return { key, bucket: `${keyCallerPrefix}${key.token}`, plan: key.plan }
    problem = invalidKey()
  } catch (error) {
    problem = ApiError.from(error)
  }
  // Requests without a valid key share an anonymous bucket (one per client
  // address where the transport knows it) at Free limits.
  return { bucket: `${anonymousCallerPrefix}${request.transport.clientAddress ?? 'unknown'}`, plan: anonymousPlan, problem }
}

/** The Error of a refused request; `Retry-After` comes with the rate-limit headers of the decision. */
export function refusal(decision: RateLimitDecision & { outcome: 'limited' | 'banned' }, plan: Plan): ApiError {
  if (decision.outcome === 'banned') {
    return new ApiError(
      'api_key_banned',
      `Too many requests after being rate limited: temporarily banned. Retry after ${decision.retryAfterSeconds} s.`,
    )
  }
  const perWindow = decision.window === 'day' ? `${plan.perDay} requests per day` : `${plan.perMinute} requests per minute`
  return new ApiError(
    'rate_limit_exceeded',
    `Rate limit exceeded: ${perWindow} on the ${plan.name} plan. Retry after ${decision.retryAfterSeconds} s.`,
  )
}

/** A delay from the latency option, a range drawn from the simulator's seeded generator: the same seed, the same delays. */
export function pickLatency(latency: Latency, random: () => number): number {
  return typeof latency === 'number' ? latency : latency.min + Math.floor(random() * (latency.max - latency.min + 1))
}

export function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * How a request meets the limiter, for both paths (the in-memory limiter, the shared store): `forced` for a
 * `Prefer: code=` answer the caller may have (a valid key, or a 401 asked for), `peek` for a request without a valid
 * key that must not count (a foreign page's navigation), `consume` otherwise.
 */
export function admissionOf(mayForce: boolean, uncountedAnonymous: boolean, caller: Caller): Admission {
  if (mayForce) return 'forced'
  return uncountedAnonymous && caller.key === undefined ? 'peek' : 'consume'
}

/** The in-memory limiter's decision for an admission (see {@link Admission}). */
export function decide(limiter: RateLimiter, caller: Caller, admission: Admission): RateLimitDecision {
  if (admission === 'consume') return limiter.consume(caller.bucket, caller.plan)
  const standing = limiter.peek(caller.bucket, caller.plan)
  return admission === 'forced' && standing.outcome !== 'allowed' ? limiter.consume(caller.bucket, caller.plan) : standing
}

/**
 * The rate-limit headers of a request the shared store could not decide (503 `store_unavailable`): the spec wants
 * them on every answer, and nothing is known of the caller's counts, so they carry the plan's minute limit, 0 left
 * (never a promise of quota that may not be there), the end of the current minute, and `Retry-After: 1`.
 */
export function unavailableDecision(plan: Plan, now: number): RateLimitDecision {
  return {
    outcome: 'limited',
    window: 'minute',
    limit: plan.perMinute,
    remaining: 0,
    resetAt: (Math.floor(now / 60_000) + 1) * 60,
    retryAfterSeconds: 1,
  }
}

/**
 * Journals an answer in the fleet's journal before it goes: a journal read on any instance once the client has it
 * lists it. An answer whose entry the store lost is still sent (the operation has happened), without its entry. Apart
 * from `recordAnswer`, whose every call would otherwise allocate these closures' context.
 */
export function recordShared(
  shared: SharedWorld,
  input: RecordInput,
  response: PlainResponse,
  transportFault: PlainResponse['transportFault'],
): Promise<PlainResponse> {
  return shared.record(input).then(
    (journalEntry) => ({ ...response, journalEntry, transportFault }),
    () => ({ ...response, transportFault }),
  )
}

/** The answer to a request that changes state when the simulator was reset after it began. */
export function resetUnderWay(): ApiError {
  return new ApiError('simulator_reset', 'The simulator was reset while this request was under way: nothing was changed; send it again')
}

/**
 * A fault rule with `times` that fired on a request of a world in a shared store: one of its firings claimed in the
 * store first, so its `times` holds across the fleet. One the fleet has spent does not fire: it is dropped here, and the
 * rules after it are tried, as when a rule is spent in memory. The exchange's fault is set to the one that fires, if
 * any (without a place: claimed), and `operate` goes on; one the store could not decide fires not at all (a 503).
 */
export function claimSharedFault<Exchange extends ClaimingExchange, Match extends { readonly route: CompiledRoute }, Result>(
  shared: SharedWorld,
  faults: FaultRules,
  exchange: Exchange,
  match: Match,
  operate: (exchange: Exchange, match: Match) => Result | Promise<Result>,
): Promise<Result> {
  const { request, caller } = exchange
  const { route } = match
  const claim = async (fired: FiredFault | undefined): Promise<FiredFault | undefined> => {
    if (fired?.at === undefined) return fired
    if (await shared.claimFault(fired.ruleId)) return { ...fired, at: undefined }
    faults.spend(fired.ruleId)
    return claim(faults.fire(route, request.method, request.path, caller.key, fired.at))
  }
  return claim(exchange.fault).then(
    (fault) => {
      exchange.fault = fault
      return operate(exchange, match)
    },
    (error: unknown) => {
      exchange.fault = undefined
      throw error
    },
  )
}

/** What {@link claimSharedFault} reads and sets of the pipeline's exchange. */
interface ClaimingExchange {
  fault?: FiredFault | undefined
  readonly request: PlainRequest
  readonly caller: Caller
}
