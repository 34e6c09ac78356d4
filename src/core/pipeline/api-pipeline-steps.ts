import { ApiError } from '../http/api-error.ts'
import type { ApiKey } from '../access/api-keys.ts'
import { invalidKey, readBearerToken } from '../access/bearer-token.ts'
import type { PlainRequest } from '../http/plain-http.ts'
import { anonymousPlan, type Plan } from '../access/plans.ts'
import { anonymousCallerPrefix } from '../access/caller-buckets.ts'
import { keyCallerPrefix, type RateLimitDecision } from '../access/rate-limiter.ts'
import type { Latency, OperationContext } from '../operations/operation-context.ts'

// The pipeline's small steps, apart from its flow (api-pipeline.ts): who is calling, what a refusal says, a forced
// 429's Retry-After, a latency drawn.

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
