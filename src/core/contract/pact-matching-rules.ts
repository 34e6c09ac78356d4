import { apiRoutes, type OperationName } from '../operations/api-routes.ts'
import { petStatuses, type Pet } from '../model/pet-types.ts'

// How a pact exported from the journal matches what the provider answers: by type or pattern wherever the contract
// leaves the value open, exactly only where the spec fixes it (the HTTP status, the Error body's `status`, the sunset
// date). Derived from the route table and the API's types; test/core/journal/pact-matching-rules.test.ts derives
// the same rules from fixtures/openapi.yaml and holds the two equal.

/** One Pact matcher (V4 `matchingRules`): a type, an integer, or a regular expression the whole value must match. */
export type PactMatcher =
  | { readonly match: 'type'; readonly min?: number }
  | { readonly match: 'integer' }
  | { readonly match: 'regex'; readonly regex: string }

/** Matchers by a path (`$.id`) or a header name, each applied with AND. */
export type PactRuleSet = Record<string, { readonly combine: 'AND'; readonly matchers: readonly PactMatcher[] }>

/** A whole number written in decimal, with no sign and no leading zero, of at least `minimum` (0 or 1). */
function wholeNumber(minimum: 0 | 1): PactMatcher {
  return { match: 'regex', regex: minimum === 0 ? '^(0|[1-9][0-9]*)$' : '^[1-9][0-9]*$' }
}

/** The path createPet's `Location` names: getPet's path under any prefix, with a positive id. */
const getPetPath = apiRoutes.find((route) => route.operation === 'getPet')!.path

/**
 * The response headers a pact keeps, by the name the OpenAPI document gives them, with their matcher, or `exact`
 * for a value the spec fixes. Every other header (CORS, `Content-Length`, petstore-sim's own) is left out: a pact
 * lists only what the consumer relies on, and a provider may add headers freely.
 */
export const pactHeaderMatchers: Readonly<Record<string, PactMatcher | 'exact'>> = {
  'Content-Type': { match: 'regex', regex: '^application/json(;.*)?$' },
  'X-RateLimit-Limit': wholeNumber(1),
  'X-RateLimit-Remaining': wholeNumber(0),
  'X-RateLimit-Reset': wholeNumber(0),
  'Retry-After': wholeNumber(1),
  Location: { match: 'regex', regex: `^[^?#]*${getPetPath.replace('{petId}', '[1-9][0-9]*')}$` },
  'WWW-Authenticate': { match: 'regex', regex: '^Bearer( .*)?$' },
  Deprecation: { match: 'regex', regex: '^@[0-9]+$' },
  // The spec's removal date, 5 December 2030: the one header value it fixes.
  Sunset: 'exact',
  Link: { match: 'regex', regex: '^<[^<>]*[/]pets>; rel=["]successor-version["]$' },
}

/** A pet's fields: ids and categories are integers, a name any string, the status one of the spec's enumeration. */
const petFieldMatchers: { readonly [field in keyof Pet]-?: PactMatcher } = {
  id: { match: 'integer' },
  name: { match: 'type' },
  categoryId: { match: 'integer' },
  status: { match: 'regex', regex: `^(${petStatuses.join('|')})$` },
}

/** The Error body: `code` and `message` are the provider's words; `status` repeats the HTTP status, exactly. */
const errorFieldMatchers = { code: { match: 'type' }, message: { match: 'type' } } as const satisfies Record<string, PactMatcher>

/** What each operation's success answer holds: one pet, or a list of them. */
export const successBodies = { listPets: 'Pets', createPet: 'Pet', getPet: 'Pet' } as const satisfies Partial<
  Record<OperationName, 'Pet' | 'Pets'>
>

/** The body schema of an answer: an Error for 4xx and 5xx, else the operation's success body (undefined: none known). */
export function bodySchemaOf(operation: string, status: number): 'Pet' | 'Pets' | 'Error' | undefined {
  if (status >= 400) return 'Error'
  return Object.hasOwn(successBodies, operation) ? successBodies[operation as keyof typeof successBodies] : undefined
}

/** The body rules of a schema, by JSONPath. */
export function bodyMatchers(schema: 'Pet' | 'Pets' | 'Error'): Record<string, PactMatcher> {
  const rules: Record<string, PactMatcher> = {}
  if (schema === 'Error') for (const [field, matcher] of Object.entries(errorFieldMatchers)) rules[`$.${field}`] = matcher
  // A list of any length (none included: a provider's catalogue differs), each item a pet.
  if (schema === 'Pets') rules.$ = { match: 'type', min: 0 }
  const prefix = schema === 'Pets' ? '$[*].' : '$.'
  if (schema !== 'Error') for (const [field, matcher] of Object.entries(petFieldMatchers)) rules[`${prefix}${field}`] = matcher
  return rules
}

/** Matchers as a V4 rule set: each alone, combined with AND. */
export function ruleSet(matchers: Readonly<Record<string, PactMatcher>>): PactRuleSet {
  const set: PactRuleSet = {}
  for (const [path, matcher] of Object.entries(matchers)) set[path] = { combine: 'AND', matchers: [matcher] }
  return set
}
