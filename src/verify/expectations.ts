import { previewJson } from '../core/http/bounded-json.ts'
import { petStatuses } from '../core/model/pet-types.ts'
import type { Exchange } from './exchange.ts'

/**
 * What a check expected and what the target did instead. Thrown by the
 * expectations below; the runner turns it into the check's failure, with the
 * exchange it is about.
 */
export class Mismatch extends Error {
  readonly expected: string
  readonly actual: string
  readonly exchange: Exchange | undefined

  constructor(expected: string, actual: string, exchange?: Exchange) {
    super(`expected ${expected}, got ${actual}`)
    this.expected = expected
    this.actual = actual
    this.exchange = exchange
  }
}

export function expectStatus(exchange: Exchange, status: number): void {
  if (exchange.status !== status) throw new Mismatch(`status ${status}`, `status ${exchange.status}`, exchange)
}

/**
 * The spec's Error body: `application/json`, an object with a string `code`,
 * a string `message` and an integer `status` that repeats the HTTP status.
 */
export function expectErrorBody(exchange: Exchange): void {
  const { status } = expectErrorShape(exchange)
  if (status !== exchange.status) {
    throw new Mismatch(`"status": ${exchange.status} (the HTTP status)`, `"status": ${describeValue(status)}`, exchange)
  }
}

/** An Error body as far as the checks of a status need it: JSON, an object, a string `code` and `message`. */
export function expectErrorShape(exchange: Exchange): Record<string, unknown> {
  expectJsonContentType(exchange)
  const body = exchange.json
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Mismatch('an Error object {code, message, status}', describeValue(body, exchange), exchange)
  }
  const { code, message } = body as Record<string, unknown>
  if (typeof code !== 'string') throw new Mismatch('a string "code"', `code ${describeValue(code)}`, exchange)
  if (typeof message !== 'string') throw new Mismatch('a string "message"', `message ${describeValue(message)}`, exchange)
  return body as Record<string, unknown>
}

/** The spec: "JSON is used for request and response bodies (content type `application/json`)". */
export function expectJsonContentType(exchange: Exchange): void {
  const contentType = exchange.headers['content-type'] ?? ''
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new Mismatch('Content-Type: application/json', contentType === '' ? 'no Content-Type' : `Content-Type: ${contentType}`, exchange)
  }
}

/**
 * The spec: "Error responses carry the Error body (code, message, status) in `application/json`": the media type
 * itself, parameters (a charset) aside; `application/problem+json` is another type.
 */
export function expectExactJsonMediaType(exchange: Exchange): void {
  const contentType = exchange.headers['content-type'] ?? ''
  if (contentType.split(';', 1)[0]!.trim().toLowerCase() !== 'application/json') {
    throw new Mismatch('Content-Type: application/json', contentType === '' ? 'no Content-Type' : `Content-Type: ${contentType}`, exchange)
  }
}

/**
 * An int64 as parsed from the answer: a number, or a bigint where the JSON text held an integer past 2^53
 * (request-budget.ts parses those exactly, so `/pets/1790000000000000001` asks for that pet, not a neighbour).
 */
export function isJsonInteger(value: unknown): value is number | bigint {
  return Number.isInteger(value) || typeof value === 'bigint'
}

/** `JSON.stringify` that writes a bigint as the integer it is (`JSON.rawJSON`), not a throw. */
export function stringifyJson(value: unknown): string {
  // JSON.rawJSON is in Node 21+ and current browsers; elsewhere the digits go out as a string, still exact.
  const raw = (JSON as unknown as { rawJSON?: (text: string) => unknown }).rawJSON
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item !== 'bigint' ? item : raw === undefined ? item.toString() : raw(item.toString()),
  )
}

/** The body as an array of pets (each checked: integer id and categoryId, string name, status a PetStatus). */
export function expectPets(exchange: Exchange): Record<string, unknown>[] {
  const body = exchange.json
  if (!Array.isArray(body)) throw new Mismatch('a JSON array of pets', describeValue(body, exchange), exchange)
  for (const [index, item] of body.entries()) expectPet(item, exchange, `item ${index}`)
  return body as Record<string, unknown>[]
}

/** One pet: an object with an integer `id` and `categoryId`, a string `name`, and `status` absent or a PetStatus. */
export function expectPet(value: unknown, exchange: Exchange, what = 'the body'): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Mismatch(`${what}: a Pet object`, describeValue(value), exchange)
  }
  const pet = value as Record<string, unknown>
  if (!isJsonInteger(pet.id)) throw new Mismatch(`${what}: an integer id`, `id ${describeValue(pet.id)}`, exchange)
  if (typeof pet.name !== 'string') throw new Mismatch(`${what}: a string name`, `name ${describeValue(pet.name)}`, exchange)
  if (!isJsonInteger(pet.categoryId)) {
    throw new Mismatch(`${what}: an integer categoryId`, `categoryId ${describeValue(pet.categoryId)}`, exchange)
  }
  if (pet.status !== undefined && !(petStatuses as readonly unknown[]).includes(pet.status)) {
    throw new Mismatch(`${what}: status one of ${petStatuses.join(', ')}`, `status ${describeValue(pet.status)}`, exchange)
  }
  return pet
}

/** A header's value, or a mismatch naming the missing header. */
export function expectHeader(exchange: Exchange, name: string): string {
  const value = exchange.headers[name.toLowerCase()]
  if (value === undefined) throw new Mismatch(`a ${name} header`, `no ${name} header`, exchange)
  return value
}

/** A header holding a non-negative whole number (digits only). */
export function expectWholeNumberHeader(exchange: Exchange, name: string): number {
  const value = expectHeader(exchange, name)
  if (!/^\d{1,15}$/.test(value.trim())) throw new Mismatch(`${name}: a whole number`, `${name}: ${value}`, exchange)
  return Number(value)
}

/**
 * `Retry-After` in seconds from `now`: delta-seconds or an HTTP date
 * (RFC 9110 §10.2.3); `undefined` when it is neither.
 */
export function retryAfterSeconds(value: string, now: number): number | undefined {
  const trimmed = value.trim()
  if (/^\d{1,9}$/.test(trimmed)) return Number(trimmed)
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return undefined
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

function describeValue(value: unknown, exchange?: Exchange): string {
  if (value === undefined) return exchange === undefined ? 'missing' : `a body that is not JSON (${exchange.bodyText.length} bytes)`
  // Not stringifyJson: a value nested deep overflows JSON.stringify (issue 45). previewJson writes a bigint as the
  // digits the provider sent, as stringifyJson does where JSON.rawJSON exists.
  return previewJson(value, 80)
}
