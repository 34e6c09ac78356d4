import { jsonDepth, maxJsonWalkDepth } from '../http/bounded-json.ts'
import type { JournalBody } from '../journal/journal-exchange.ts'
import type { JournalEntry } from '../journal/journal-types.ts'
import { errorFieldMatchers, petFieldMatchers, type PactMatcher } from './pact-matching-rules.ts'

// The bodies of a pact's interactions (issue 36): a request body reduced to the spec's NewPet fields, so nothing else a
// client sent (a password, a card number, a live key) reaches a file handed to another team; an answer as the spec
// describes it, one list element as the example of all, exact where a provider state or the request fixes the value.

/** A body in a V4 pact: JSON content. */
export interface PactBody {
  readonly content: unknown
  readonly contentType: string
  readonly encoded: false
}

/** The fields of the spec's NewPet: a request body keeps these and drops anything else. */
const newPetFields = ['name', 'categoryId', 'status'] as const

/** The spec's default page size, when a listPets sends no `limit`. */
const defaultLimit = 20

/**
 * A request body reduced to NewPet's fields, or null when it is not a whole JSON object (left out: it could hold
 * anything), or when a field kept nests deeper than `maxJsonWalkDepth` (left out: the pact is written with
 * `JSON.stringify`, which overflows the stack on a field nested 30,000 deep, issue 45).
 */
export function pactRequestBody(body: JournalBody): Record<string, unknown> | null {
  if (body.encoding !== 'utf8' || body.truncated) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(body.text)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null
  const fields = parsed as Record<string, unknown>
  const reduced: Record<string, unknown> = {}
  for (const field of newPetFields) if (Object.hasOwn(fields, field)) reduced[field] = fields[field]
  return jsonDepth(reduced) > maxJsonWalkDepth ? null : reduced
}

const json = (content: unknown): PactBody => ({ content, contentType: 'application/json', encoded: false })

/**
 * The answer's body and its rules, by what the spec says of it: an Error (code and message by type, status exact);
 * no body for a 429 ("Body of a 429 response: not shown"); a created pet with the name, category and status sent,
 * exactly; the pet a provider state fixes, exactly; a list as one example pet, of at most `limit` (or 20). A pet's
 * `status` is optional in the spec, so an example holds it only where the request or the state asks for it.
 * Null when the answer is not what the entry's operation gives (not JSON where JSON is due).
 */
export function pactResponseBody(
  entry: JournalEntry,
  answer: unknown,
  sent: Readonly<Record<string, unknown>> | undefined,
): { body?: PactBody; rules?: Record<string, PactMatcher> } | null {
  const { status } = entry.response
  if (status === 429 || entry.response.body === null) return {}
  if (typeof answer !== 'object' || answer === null) return null
  if (status >= 400) {
    const { code, message } = answer as Record<string, unknown>
    return { body: json({ code, message, status }), rules: { ...errorFieldMatchers } }
  }
  if (entry.operation === 'createPet') {
    if (sent === undefined) return null
    return { body: json({ id: (answer as { id?: unknown }).id, ...sent }), rules: { '$.id': petFieldMatchers.id } }
  }
  if (entry.operation === 'getPet') {
    // The state `a pet with id {id} exists` names these values: a provider serving another pet fails.
    const { id, name, categoryId, status: petStatus } = answer as Record<string, unknown>
    return { body: json({ id, name, categoryId, ...(petStatus === undefined ? {} : { status: petStatus }) }) }
  }
  if (entry.operation === 'listPets' && Array.isArray(answer)) return listBody(entry, answer)
  return null
}

/** A page of pets as one example element, `min` 0 (a provider's catalogue is its own) and `max` the page size asked. */
function listBody(entry: JournalEntry, pets: readonly unknown[]): { body: PactBody; rules?: Record<string, PactMatcher> } {
  const filter = entry.request.query.status
  // The state `the catalogue is empty`: exactly `[]`.
  if (pets.length === 0 && filter === undefined) return { body: json([]) }
  const limitText = entry.request.query.limit
  const limit = typeof limitText === 'string' && /^[1-9][0-9]{0,2}$/.test(limitText) ? Number(limitText) : defaultLimit
  const first = (pets[0] ?? {}) as Record<string, unknown>
  const example = {
    id: first.id ?? 1,
    name: first.name ?? 'Rex',
    categoryId: first.categoryId ?? 1,
    ...(typeof filter === 'string' ? { status: filter } : {}),
  }
  const rules: Record<string, PactMatcher> = {
    $: { match: 'type', min: 0, max: Math.min(limit, 100) },
    '$[*].id': petFieldMatchers.id,
    '$[*].name': petFieldMatchers.name,
    '$[*].categoryId': petFieldMatchers.categoryId,
    // The filter ties every pet listed to the status asked for; without one, a status is optional.
    '$[*].status': typeof filter === 'string' ? { match: 'regex', regex: `^${filter.replace(/[^a-z]/g, '')}$` } : petFieldMatchers.status,
  }
  return { body: json([example]), rules }
}
