import type { RateLimitDecision } from '../core/rate-limiter.ts'

/** Sets `X-RateLimit-Limit`, `-Remaining` and `-Reset`, and `Retry-After` on refusals. */
export function setRateLimitHeaders(headers: Headers, decision: RateLimitDecision): void {
  headers.set('X-RateLimit-Limit', String(decision.limit))
  headers.set('X-RateLimit-Remaining', String(decision.remaining))
  headers.set('X-RateLimit-Reset', String(decision.resetAt))
  if (decision.outcome !== 'allowed') {
    headers.set('Retry-After', String(decision.retryAfterSeconds))
  }
}
