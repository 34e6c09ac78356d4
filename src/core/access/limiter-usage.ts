// What the limiter reports of its callers (RateLimiter.usage, usage of the anonymous buckets): plain types, apart
// from the limiter's decisions (rate-limiter.ts re-exports them).

/** One window of a caller, as {@link RateLimiter.usage} reads it. */
export interface WindowUsage {
  readonly limit: number
  readonly used: number
  readonly remaining: number
  /** Epoch ms at which the window resets (the next UTC minute or midnight). */
  readonly resetAt: number
}

export interface CallerUsage {
  readonly minute: WindowUsage
  readonly day: WindowUsage
  /** Epoch ms at which the caller's ban ends, when it is banned now. */
  readonly bannedUntil: number | undefined
}

export interface AnonymousUsage {
  /** Anonymous buckets held (one per client address that called without a valid key, while it carries anything). */
  readonly buckets: number
  /** How many of them are banned now. */
  readonly banned: number
}
