import type { RateLimitDecision } from './rate-limiter.ts'

/** `X-RateLimit-Limit`, `-Remaining` and `-Reset`, and `Retry-After` on refusals. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  }
  if (decision.outcome !== 'allowed') headers['Retry-After'] = String(decision.retryAfterSeconds)
  return headers
}
