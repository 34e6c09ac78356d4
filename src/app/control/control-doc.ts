import { journalFilterNames } from '../../core/journal/journal-filter.ts'

// What each control route declares of itself for `GET /__sim/openapi.json` (control-document.ts): its summary, query
// parameters, body and answers, next to its resolver in its area's file. JSON Schema 2020-12 as data: the control
// routes check their bodies by hand (or with a zod schema whose JSON Schema is shipped and checked equal to it).

export type JsonSchema = Readonly<Record<string, unknown>>

export interface ControlAnswerDoc {
  readonly description: string
  /** The body's schema; none for an answer without a body (204), or one that is not JSON with `contentType`. */
  readonly schema?: JsonSchema | undefined
  /** Default `application/json`. */
  readonly contentType?: string | undefined
  /** Other content types the same answer may come in, by content type (`GET /__sim/clients`: JUnit XML too). */
  readonly alternatives?: Readonly<Record<string, JsonSchema>> | undefined
}

export interface ControlQueryDoc {
  readonly name: string
  readonly description: string
  readonly schema?: JsonSchema | undefined
}

export interface ControlRouteDoc {
  readonly summary: string
  readonly description?: string | undefined
  readonly query?: readonly ControlQueryDoc[] | undefined
  /** The JSON body the route reads. */
  readonly body?: JsonSchema | undefined
  /** By status; every route also answers the Error body (`4XX`, `5XX`) for the guard's and its own refusals. */
  readonly responses: Readonly<Record<string, ControlAnswerDoc>>
  /** Described by the route of this path and the same method instead (the empty sandbox name, refused as `{id}` is). */
  readonly partOf?: string | undefined
}

/** `{ type: 'object', properties, required }`, other properties allowed (answers may grow fields). */
export function object(
  properties: Readonly<Record<string, JsonSchema>>,
  required: readonly string[] = Object.keys(properties),
): JsonSchema {
  return { type: 'object', properties, required }
}

export const string: JsonSchema = { type: 'string' }
export const integer: JsonSchema = { type: 'integer' }
export const number: JsonSchema = { type: 'number' }
export const boolean: JsonSchema = { type: 'boolean' }
export const isoTime: JsonSchema = { type: 'string', format: 'date-time' }
export const anyObject: JsonSchema = { type: 'object' }
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items })

/** The simulator's clock as the control routes show it (`clockReading`). */
export const clockSchema = object({ now: isoTime, epochMs: integer, frozen: boolean })

/** One journal entry, as `GET /__sim/requests` lists it (docs/journal.md has every field). */
export const journalEntrySchema = object(
  {
    sequence: integer,
    at: isoTime,
    wallAt: isoTime,
    method: string,
    path: string,
    status: integer,
    operation: string,
    caller: string,
    plan: string,
    durationMs: number,
    request: anyObject,
    response: anyObject,
  },
  ['sequence', 'at', 'method', 'path', 'status', 'operation', 'caller', 'plan', 'durationMs', 'request', 'response'],
)

/** The journal's filters, as every route that reads the journal takes them (`journal-filter.ts`). */
export const journalFilterQuery: readonly ControlQueryDoc[] = journalFilterNames.map((name) => ({
  name,
  description: `The journal filter \`${name}\` (docs/journal.md); the filters on what a request carried (\`body.<path>=\`, \`header.<name>=\`, \`query.<name>=\`) are taken too.`,
  schema: name === 'status' || name === 'since' || name === 'until' || name === 'limit' ? integer : string,
}))

export const ok = (description: string, schema: JsonSchema): Readonly<Record<string, ControlAnswerDoc>> => ({
  '200': { description, schema },
})
