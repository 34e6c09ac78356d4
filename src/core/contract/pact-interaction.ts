import type { JournalBody } from '../journal/journal-exchange.ts'
import type { JournalEntry } from '../journal/journal-types.ts'
import { petStatuses } from '../model/pet-types.ts'
import { pactRequestBody, pactResponseBody, type PactBody } from './pact-bodies.ts'
import {
  bearerMatcher,
  everyAnswerHeaders,
  pactHeaderMatchers,
  ruleSet,
  specStatuses,
  type PactMatcher,
  type PactRuleSet,
} from './pact-matching-rules.ts'

/** The token of every valid key in a pact, demo keys included: the provider's verification puts its own key in. */
export const pactApiKeyPlaceholder = '<API_KEY>'

/**
 * The token of a request recorded with an invalid key: one fixed literal, so that the pact names no key (not even a
 * fingerprint) and every provider refuses it with the 401 the consumer saw. A provider's `requestFilter` replaces only
 * `Bearer <API_KEY>`, so this one goes as it is.
 */
export const pactInvalidApiKey = 'petstore-sim-invalid-key'

/** A provider state as a V4 interaction names it: a fixed phrase, the values in `params`. */
export interface PactProviderState {
  readonly name: string
  readonly params?: Readonly<Record<string, string | number>>
}

/** One V4 `Synchronous/HTTP` interaction. */
export interface PactInteraction {
  readonly type: 'Synchronous/HTTP'
  readonly description: string
  readonly providerStates?: readonly PactProviderState[]
  readonly pending: false
  /** Present on an answer that is petstore-sim's own choice (the spec does not define it): exported only on request. */
  readonly comments?: { readonly text: readonly string[] }
  readonly request: {
    readonly method: string
    readonly path: string
    readonly query?: Readonly<Record<string, readonly string[]>>
    readonly headers?: Readonly<Record<string, readonly string[]>>
    readonly body?: PactBody
    readonly matchingRules?: { readonly header?: PactRuleSet }
  }
  readonly response: {
    readonly status: number
    readonly headers?: Readonly<Record<string, readonly string[]>>
    readonly body?: PactBody
    readonly matchingRules?: { readonly header?: PactRuleSet; readonly body?: PactRuleSet }
  }
}

/** The comment on an interaction the spec does not define. */
export const simulatorChoiceComment =
  "petstore-sim's own answer: the spec does not define it (docs/where-the-spec-is-silent.md), so another provider may answer otherwise"

/** Each operation's method and the query parameters the spec gives it: a request using others is outside the spec. */
const specRequests: Readonly<Record<string, { method: string; query: readonly string[] }>> = {
  listPets: { method: 'GET', query: ['limit', 'status'] },
  createPet: { method: 'POST', query: [] },
  getPet: { method: 'GET', query: [] },
}

/**
 * A journal entry (the first request of its shape, pact-recorder.ts) as a pact interaction, or undefined for one no
 * pact can hold: a 429 of a caller without a valid key (no provider state spends an anonymous quota), a request body
 * that is not a whole JSON object (its text could hold anything), an answer without what its state needs.
 * `simulatorChoice` marks an answer the spec does not define (docs/pact.md), exported only on request.
 */
export function toInteraction(entry: JournalEntry): { interaction: PactInteraction; simulatorChoice: boolean } | undefined {
  const { request, response } = entry
  const spec = specRequests[entry.operation]
  if (spec === undefined) return undefined
  const auth = entry.caller !== 'anonymous' ? 'key' : request.headers.authorization === undefined ? 'none' : 'invalid'
  if (response.status === 429 && auth !== 'key') return undefined
  const sentBody = request.body === null ? undefined : pactRequestBody(request.body)
  if (sentBody === null) return undefined
  const responseJson = jsonOf(response.body)
  const state = providerState(entry, responseJson)
  if (state === null) return undefined
  const answer = pactResponseBody(entry, responseJson, sentBody)
  if (answer === null) return undefined

  const queryNames = Object.keys(request.query)
  const simulatorChoice =
    !specStatuses[entry.operation]!.includes(response.status) ||
    request.method !== spec.method ||
    queryNames.some((name) => !spec.query.includes(name) || Array.isArray(request.query[name])) ||
    (entry.operation === 'createPet' && response.status === 400 && sentBody !== undefined && !breaksNewPet(sentBody))

  const requestHeaders: Record<string, string[]> = {}
  if (auth === 'key') requestHeaders.Authorization = [`Bearer ${pactApiKeyPlaceholder}`]
  if (auth === 'invalid') requestHeaders.Authorization = [`Bearer ${pactInvalidApiKey}`]
  const contentType = request.headers['content-type']
  if (sentBody !== undefined && contentType !== undefined) requestHeaders['Content-Type'] = [contentType]

  const responseHeaders: Record<string, string[]> = {}
  const headerRules: Record<string, PactMatcher> = {}
  const expected: (keyof typeof pactHeaderMatchers)[] = [...everyAnswerHeaders]
  if (response.status === 429) expected.push('Retry-After')
  if (answer.body !== undefined) expected.push('Content-Type')
  for (const name of expected) {
    const value = response.headers[name.toLowerCase()]
    if (value === undefined) continue
    responseHeaders[name] = [value]
    headerRules[name] = pactHeaderMatchers[name]
  }

  const query = Object.fromEntries(Object.entries(request.query).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]))
  const sentQuery = new URLSearchParams(Object.entries(query).flatMap(([name, values]) => values.map((one) => [name, one]))).toString()
  const who = { key: 'with an API key', invalid: 'with an invalid API key', none: 'without an API key' }[auth]
  const code =
    typeof (responseJson as { code?: unknown } | undefined)?.code === 'string' ? ` ${(responseJson as { code: string }).code}` : ''
  const interaction: PactInteraction = {
    type: 'Synchronous/HTTP',
    description: `${entry.operation} ${request.method} ${request.path}${sentQuery === '' ? '' : `?${sentQuery}`} ${who}: ${response.status}${code}`,
    ...(state === undefined ? {} : { providerStates: [state] }),
    pending: false,
    ...(simulatorChoice ? { comments: { text: [simulatorChoiceComment] } } : {}),
    request: {
      method: request.method,
      path: request.path,
      ...(queryNames.length === 0 ? {} : { query }),
      ...(Object.keys(requestHeaders).length === 0 ? {} : { headers: requestHeaders }),
      ...(sentBody === undefined ? {} : { body: { content: sentBody, contentType: 'application/json', encoded: false as const } }),
      ...(auth === 'key' ? { matchingRules: { header: ruleSet({ Authorization: bearerMatcher }) } } : {}),
    },
    response: {
      status: response.status,
      headers: responseHeaders,
      ...(answer.body === undefined ? {} : { body: answer.body }),
      matchingRules: {
        header: ruleSet(headerRules),
        ...(answer.rules === undefined ? {} : { body: ruleSet(answer.rules) }),
      },
    },
  }
  return { interaction, simulatorChoice }
}

/** Whether a NewPet breaks the spec's own rules (a required field missing, a wrong type, a status outside the enumeration). */
function breaksNewPet(body: Readonly<Record<string, unknown>>): boolean {
  const { name, categoryId, status } = body
  return (
    typeof name !== 'string' ||
    !Number.isInteger(categoryId) ||
    (Object.hasOwn(body, 'status') && !(petStatuses as readonly unknown[]).includes(status))
  )
}

/**
 * What must hold for the answer, as a provider state: undefined for none, null when the answer needs one the entry
 * cannot name. A 429's key is the placeholder, with the plan it was recorded on.
 */
function providerState(entry: JournalEntry, body: unknown): PactProviderState | undefined | null {
  const { operation, status } = entry
  if (status === 429) {
    return {
      name: 'the key {key} has no requests left this minute',
      params: { key: pactApiKeyPlaceholder, ...(entry.plan === 'anonymous' ? {} : { plan: entry.plan }) },
    }
  }
  if (operation === 'listPets' && status === 200 && Array.isArray(body) && body.length === 0 && entry.request.query.status === undefined) {
    return { name: 'the catalogue is empty' }
  }
  if (operation !== 'getPet') return undefined
  if (status === 410) return { name: 'getPet is past its sunset' }
  if (status === 200) {
    if (typeof body !== 'object' || body === null) return null
    const { id, name, categoryId, status: petStatus } = body as Record<string, string | number | undefined>
    if (id === undefined || name === undefined || categoryId === undefined) return null
    return {
      name: 'a pet with id {id} exists',
      params: { id, name, categoryId, ...(petStatus === undefined ? {} : { status: petStatus }) },
    }
  }
  if (status === 404) {
    const id = Number(decodeURIComponent(entry.request.path.slice(entry.request.path.lastIndexOf('/') + 1)))
    return Number.isSafeInteger(id) ? { name: 'no pet with id {id} exists', params: { id } } : undefined
  }
  return undefined
}

/** A body's JSON, or undefined when it has none, is cut, or is not JSON. */
export function jsonOf(body: JournalBody | null): unknown {
  if (body === null || body.encoding !== 'utf8' || body.truncated) return undefined
  try {
    return JSON.parse(body.text)
  } catch {
    return undefined
  }
}
