import { petStatuses } from '../model/pet-types.ts'

// How a pact exported from the journal matches what a provider answers, derived from the specification (the Animal
// Store spec, and docs/where-the-spec-is-silent.md for what is the simulator's own), not from fixtures/openapi.yaml,
// which also documents the simulator's choices (Deprecation's format, Location, the 400s of listPets). A pact is a
// promise handed to another team: it asks what the spec promises and what the consumer saw, nothing else.

/** One Pact matcher (V4 `matchingRules`): a type (a list's length bounds), an integer, or a regular expression. */
export type PactMatcher =
  | { readonly match: 'type'; readonly min?: number; readonly max?: number }
  | { readonly match: 'integer' }
  | { readonly match: 'regex'; readonly regex: string }

/** Matchers by a path (`$.id`) or a header name, each applied with AND. */
export type PactRuleSet = Record<string, { readonly combine: 'AND'; readonly matchers: readonly PactMatcher[] }>

/** Decimal digits: the spec gives the rate-limit headers as counts and a Unix timestamp, with no other format. */
const digits: PactMatcher = { match: 'regex', regex: '^[0-9]+$' }

/**
 * `Retry-After` as RFC 9110 §10.2.3 allows it: delta-seconds or an HTTP date (IMF-fixdate). The spec leaves its
 * unit and format open ("Unit and format of the Retry-After value: not shown"), so either passes.
 */
const retryAfter: PactMatcher = {
  match: 'regex',
  regex:
    '^([0-9]+|(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT)$',
}

/**
 * The response headers a pact expects, all of them named by the spec: `Content-Type` ("JSON is used for request and
 * response bodies (content type application/json)"), the `X-RateLimit-*` trio ("present on every API response"), and
 * `Retry-After` on a 429. Headers the spec never names (`Deprecation`, `Sunset`, `Link`, `Location`,
 * `WWW-Authenticate`, CORS, petstore-sim's own) are not expected: a provider that follows the spec may send none.
 */
export const pactHeaderMatchers = {
  'Content-Type': { match: 'regex', regex: '^application/json(;.*)?$' },
  'X-RateLimit-Limit': digits,
  'X-RateLimit-Remaining': digits,
  'X-RateLimit-Reset': digits,
  'Retry-After': retryAfter,
} as const satisfies Readonly<Record<string, PactMatcher>>

/** The header names on every API answer, by the spec's rate-limit table. */
export const everyAnswerHeaders = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const

/** The statuses the spec defines per operation (429 applies to all); any other answer is the simulator's choice. */
export const specStatuses: Readonly<Record<string, readonly number[]>> = {
  listPets: [200, 401, 429],
  createPet: [201, 400, 401, 429],
  getPet: [200, 401, 404, 429],
}

/** A pet's fields matched by type: ids and categories integers, a name any string, a status one of the enumeration. */
export const petFieldMatchers = {
  id: { match: 'integer' },
  name: { match: 'type' },
  categoryId: { match: 'integer' },
  status: { match: 'regex', regex: `^(${petStatuses.join('|')})$` },
} as const satisfies Record<string, PactMatcher>

/** The Error body: `code` and `message` are the provider's words; `status` repeats the HTTP status, so it is exact. */
export const errorFieldMatchers = { '$.code': { match: 'type' }, '$.message': { match: 'type' } } as const satisfies Record<
  string,
  PactMatcher
>

/** The `Authorization` a request carries with a valid key: `Bearer ` and any token (the pact's is a placeholder). */
export const bearerMatcher: PactMatcher = { match: 'regex', regex: '^Bearer [^ ]+$' }

/** Matchers as a V4 rule set: each alone, combined with AND. */
export function ruleSet(matchers: Readonly<Record<string, PactMatcher>>): PactRuleSet {
  const set: PactRuleSet = {}
  for (const [path, matcher] of Object.entries(matchers)) set[path] = { combine: 'AND', matchers: [matcher] }
  return set
}
