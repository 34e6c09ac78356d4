import type { RateLimitDecision } from './rate-limiter.ts'

/**
 * The answer's header object, started with the rate limit's. A class, not an object literal (issue 47, cause 1): the
 * pipeline completes and freezes it and the journal keeps it for about one scavenge interval, so V8 pretenured the
 * literal's allocation site, and every answer's headers went straight to the old generation, freed only by a full
 * collection. A constructor's instances are never pretenured (test/bench/HISTORY.md has the A/B).
 */
class AnswerHeaders {
  [name: string]: string
  constructor(decision: RateLimitDecision) {
    this['X-RateLimit-Limit'] = String(decision.limit)
    this['X-RateLimit-Remaining'] = String(decision.remaining)
    this['X-RateLimit-Reset'] = String(decision.resetAt)
  }
}

/** `X-RateLimit-Limit`, `-Remaining` and `-Reset`, and `Retry-After` on refusals. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = new AnswerHeaders(decision)
  if (decision.outcome !== 'allowed') headers['Retry-After'] = String(decision.retryAfterSeconds)
  return headers
}
