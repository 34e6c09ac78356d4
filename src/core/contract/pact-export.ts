import { defaults } from '../defaults.ts'
import type { JournalBody } from '../journal/journal-exchange.ts'
import type { JournalEntry } from '../journal/journal-types.ts'
import { bodyMatchers, bodySchemaOf, pactHeaderMatchers, ruleSet, type PactMatcher, type PactRuleSet } from './pact-matching-rules.ts'

/** The `Authorization` a pact carries for a key that is not a demo key: the providers' verification puts theirs in. */
export const pactApiKeyPlaceholder = '<API_KEY>'

/** What `journal.toPact` and `GET /__sim/requests.pact` take. */
export interface PactOptions {
  /** The consumer's name in the pact. Default `animal-store-consumer`. */
  readonly consumer?: string | undefined
  /** The provider's name in the pact. Default `animal-store`. */
  readonly provider?: string | undefined
}

/** A body in a V4 pact: JSON content, or text. */
export interface PactBody {
  readonly content: unknown
  readonly contentType: string
  readonly encoded: false | 'base64'
}

/** One V4 `Synchronous/HTTP` interaction. */
export interface PactInteraction {
  readonly type: 'Synchronous/HTTP'
  readonly description: string
  readonly providerStates?: ReadonlyArray<{ readonly name: string; readonly params?: Readonly<Record<string, string | number>> }>
  readonly pending: false
  readonly request: {
    readonly method: string
    readonly path: string
    readonly query?: Readonly<Record<string, readonly string[]>>
    readonly headers?: Readonly<Record<string, readonly string[]>>
    readonly body?: PactBody
  }
  readonly response: {
    readonly status: number
    readonly headers?: Readonly<Record<string, readonly string[]>>
    readonly body?: PactBody
    readonly matchingRules?: { readonly header?: PactRuleSet; readonly body?: PactRuleSet }
  }
}

/** A Pact specification 4.0 file: plain JSON, written with `JSON.stringify`. */
export interface Pact {
  readonly consumer: { readonly name: string }
  readonly provider: { readonly name: string }
  readonly interactions: readonly PactInteraction[]
  readonly metadata: {
    readonly pactSpecification: { readonly version: '4.0' }
    readonly 'petstore-sim': { readonly source: 'journal'; readonly apiKeyPlaceholder: string; readonly requests: number }
  }
}

/**
 * The journal's entries as a Pact 4 file of `Synchronous/HTTP` interactions (`journal.toPact`): one interaction
 * per distinct exchange (the operation, the query's parameter names, the body's fields, the key as sent, the
 * answer's status and Error code, the provider state), the first such request as its example. Matching rules come
 * from `pact-matching-rules.ts`; provider states from what the answer needed (a pet that exists or not, a spent
 * key, getPet's sunset, an empty catalogue). Left out: answers forced with `Prefer: code=` or shaped by a fault
 * rule (a provider gives neither), requests that matched no operation, and 5xx answers and dropped connections.
 * `Authorization` keeps a demo key's name (public) and an invalid key's fingerprint (it names no key); any other
 * key becomes {@link pactApiKeyPlaceholder}.
 */
export function toPact(entries: readonly JournalEntry[], options: PactOptions = {}): Pact {
  const seen = new Map<string, PactInteraction>()
  const descriptions = new Set<string>()
  for (const entry of entries) {
    if (entry.forced === true || entry.fault !== undefined || entry.unmatched === true || entry.status === 0 || entry.status >= 500)
      continue
    const interaction = toInteraction(entry)
    if (interaction === undefined || seen.has(interaction.key)) continue
    let description = interaction.value.description
    for (let count = 2; descriptions.has(description); count++) description = `${interaction.value.description} (${count})`
    descriptions.add(description)
    seen.set(interaction.key, { ...interaction.value, description })
  }
  return {
    consumer: { name: options.consumer ?? defaults.pact.consumer },
    provider: { name: options.provider ?? defaults.pact.provider },
    interactions: [...seen.values()],
    metadata: {
      pactSpecification: { version: '4.0' },
      'petstore-sim': { source: 'journal', apiKeyPlaceholder: pactApiKeyPlaceholder, requests: entries.length },
    },
  }
}

function toInteraction(entry: JournalEntry): { key: string; value: PactInteraction } | undefined {
  const { request, response } = entry
  const responseBody = jsonOf(response.body)
  const errorCode = typeof responseBody === 'object' && responseBody !== null ? (responseBody as { code?: unknown }).code : undefined
  const state = providerState(entry, responseBody, typeof errorCode === 'string' ? errorCode : undefined)
  if (state === null) return undefined
  const authorization = authorizationOf(entry)
  const requestBody = jsonOf(request.body)
  const shape = {
    operation: entry.operation,
    method: request.method,
    query: Object.keys(request.query).sort(),
    body: typeof requestBody === 'object' && requestBody !== null ? Object.keys(requestBody).sort() : typeof requestBody,
    authorization,
    contentType: request.headers['content-type'],
    status: response.status,
    errorCode,
    state: state?.name,
  }
  const requestHeaders: Record<string, string[]> = {}
  if (authorization !== undefined) requestHeaders.Authorization = [authorization]
  if (request.headers['content-type'] !== undefined) requestHeaders['Content-Type'] = [request.headers['content-type']]
  const query = Object.fromEntries(Object.entries(request.query).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]))
  const responseHeaders: Record<string, string[]> = {}
  const headerRules: Record<string, PactMatcher> = {}
  for (const [name, matcher] of Object.entries(pactHeaderMatchers)) {
    const value = response.headers[name.toLowerCase()]
    if (value === undefined) continue
    responseHeaders[name] = [value]
    if (matcher !== 'exact') headerRules[name] = matcher
  }
  const schema = bodySchemaOf(entry.operation, response.status)
  const sentQuery = new URLSearchParams(
    Object.entries(request.query).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((one) => [name, one])),
  ).toString()
  const who = authorization === undefined ? 'without an API key' : `with ${authorization.replace(/^Bearer /, '')}`
  const description = `${entry.operation} ${request.method} ${request.path}${sentQuery === '' ? '' : `?${sentQuery}`} ${who}: ${response.status}${typeof errorCode === 'string' ? ` ${errorCode}` : ''}`
  const value: PactInteraction = {
    type: 'Synchronous/HTTP',
    description,
    ...(state === undefined ? {} : { providerStates: [state] }),
    pending: false,
    request: {
      method: request.method,
      path: request.path,
      ...(Object.keys(query).length === 0 ? {} : { query }),
      ...(Object.keys(requestHeaders).length === 0 ? {} : { headers: requestHeaders }),
      ...(request.body === null ? {} : { body: pactBody(request.body, request.headers['content-type']) }),
    },
    response: {
      status: response.status,
      headers: responseHeaders,
      ...(response.body === null ? {} : { body: pactBody(response.body, response.headers['content-type']) }),
      matchingRules: {
        header: ruleSet(headerRules),
        ...(schema === undefined || responseBody === undefined ? {} : { body: ruleSet(bodyMatchers(schema)) }),
      },
    },
  }
  return { key: JSON.stringify(shape), value }
}

/**
 * What must hold for the answer, as a provider state: `undefined` for none, `null` when the answer needs a state
 * no provider can be put into (an anonymous caller's spent quota).
 */
function providerState(
  entry: JournalEntry,
  body: unknown,
  errorCode: string | undefined,
): { name: string; params?: Record<string, string | number> } | undefined | null {
  if (entry.status === 429) {
    const key = authorizationOf(entry)?.replace(/^Bearer /, '')
    return entry.caller === 'anonymous' || key === undefined
      ? null
      : { name: 'the key {key} has no requests left this minute', params: { key } }
  }
  if (
    entry.operation === 'listPets' &&
    entry.status === 200 &&
    Array.isArray(body) &&
    body.length === 0 &&
    entry.request.query.status === undefined
  ) {
    return { name: 'the catalogue is empty' }
  }
  if (entry.operation !== 'getPet') return undefined
  if (entry.status === 410) return { name: 'getPet is past its sunset' }
  if (entry.status === 200 && typeof body === 'object' && body !== null) {
    const { id, name, categoryId, status } = body as Record<string, string | number>
    return {
      name: 'a pet with id {id} exists',
      params: { id: id!, name: name!, categoryId: categoryId!, ...(status === undefined ? {} : { status }) },
    }
  }
  if (entry.status === 404 && errorCode === 'pet_not_found') {
    const id = Number(decodeURIComponent(entry.request.path.slice(entry.request.path.lastIndexOf('/') + 1)))
    return Number.isSafeInteger(id) ? { name: 'no pet with id {id} exists', params: { id } } : undefined
  }
  return undefined
}

/**
 * The `Authorization` a pact may carry: the journal's redacted form already names a demo key (public) and labels
 * any other by its fingerprint (`Bearer key#1f3a9c02`); a valid key that is not a demo key becomes the placeholder.
 */
function authorizationOf(entry: JournalEntry): string | undefined {
  const sent = entry.request.headers.authorization
  if (sent === undefined) return undefined
  if (entry.caller !== 'anonymous' && entry.keyName === undefined) return `Bearer ${pactApiKeyPlaceholder}`
  return sent
}

function jsonOf(body: JournalBody | null): unknown {
  if (body === null || body.encoding !== 'utf8' || body.truncated) return undefined
  try {
    return JSON.parse(body.text)
  } catch {
    return undefined
  }
}

function pactBody(body: JournalBody, contentType: string | undefined): PactBody {
  const json = jsonOf(body)
  if (json !== undefined) return { content: json, contentType: 'application/json', encoded: false }
  return {
    content: body.text,
    contentType: contentType ?? 'application/octet-stream',
    encoded: body.encoding === 'base64' ? 'base64' : false,
  }
}
