import type { JournalBody } from '../journal/journal-exchange.ts'
import type { JournalEntry } from '../journal/journal-types.ts'
import { pactRequestBody } from './pact-bodies.ts'
import { jsonOf } from './pact-interaction.ts'

// What the recorder keeps of the first request of a shape (issue 45, Medium 6): the journal's whole view held bodies
// up to the journal's body cap and every header, for every shape of every world, across resets (the memory it took
// is in test/bench/HISTORY.md). A pact needs far less (pact-interaction.ts, pact-bodies.ts): the request's NewPet
// fields, whether a key was sent and its content type, and of the answer the few headers and fields a pact shows.

/** The answer's headers a pact shows (pact-matching-rules.ts), lower case as the journal names them. */
const keptResponseHeaders = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'] as const
/** The request's headers a pact or a pact filter reads: the key (`key` filter, auth) and the body's type. */
const keptRequestHeaders = ['authorization', 'content-type'] as const
/** The answer's fields a pact reads: an Error's, a pet's (pact-bodies.ts). */
const keptAnswerFields = ['code', 'message', 'id', 'name', 'categoryId', 'status'] as const

/**
 * Over a heap snapshot's figure for the objects of one kept example beyond its strings: the entry, its request and
 * response, their header and query objects, the shape's maps, and the conversion the export caches for it.
 */
export const pactExampleOverheadBytes = 2048

/** A kept example and its estimated size in memory (strings at two bytes a character, counted twice: the example and its conversion). */
export interface PactExample {
  readonly entry: JournalEntry
  readonly bytes: number
}

/** The journal's view of a request cut down to what its pact interaction reads; the interaction made from it is the same. */
export function pactExample(view: JournalEntry): PactExample {
  const { request, response } = view
  const example: JournalEntry = Object.freeze({
    ...view,
    request: Object.freeze({
      ...request,
      headers: pick(request.headers, keptRequestHeaders),
      body: request.body === null ? null : requestBody(request.body),
    }),
    response: Object.freeze({
      ...response,
      headers: pick(response.headers, keptResponseHeaders),
      body: response.body === null ? null : answerBody(response.body),
    }),
  })
  return { entry: example, bytes: pactExampleOverheadBytes + 4 * JSON.stringify(example).length }
}

function pick(headers: Readonly<Record<string, string>>, names: readonly string[]): Readonly<Record<string, string>> {
  const kept: Record<string, string> = Object.create(null)
  for (const name of names) if (Object.hasOwn(headers, name)) kept[name] = headers[name]!
  return Object.freeze(kept)
}

/** A body no pact holds (not a whole JSON object): `pactRequestBody` and `jsonOf` read it as such, as they read the original. */
const unreadable = (size: number): JournalBody => Object.freeze({ size, encoding: 'base64', text: '', truncated: true })

function requestBody(body: JournalBody): JournalBody {
  const fields = pactRequestBody(body)
  return fields === null ? unreadable(body.size) : Object.freeze({ ...body, text: JSON.stringify(fields) })
}

/** The answer's JSON with the fields a pact reads; a list as its first pet (a pact shows one, and `[]` stays `[]`). */
function answerBody(body: JournalBody): JournalBody {
  const json = jsonOf(body)
  if (json === undefined) return unreadable(body.size)
  const reduced = Array.isArray(json) ? json.slice(0, 1).map(answerFields) : answerFields(json)
  return Object.freeze({ ...body, text: JSON.stringify(reduced) })
}

function answerFields(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const fields = value as Record<string, unknown>
  const kept: Record<string, unknown> = {}
  for (const name of keptAnswerFields) if (Object.hasOwn(fields, name)) kept[name] = fields[name]
  return kept
}
