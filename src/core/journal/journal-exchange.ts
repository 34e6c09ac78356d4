import { utf8Length } from '../http/json-text.ts'
import { redactHeader, redactQuery } from './journal-redaction.ts'

/** A request or response body as the journal shows it. */
export interface JournalBody {
  /** The body's size in bytes, as sent (also when `text` is truncated). */
  readonly size: number
  /** `utf8`: `text` is the body; `base64`: the body is not UTF-8 text, and `text` is its bytes in base64. */
  readonly encoding: 'utf8' | 'base64'
  readonly text: string
  /** The body was over the journal's cap per body: `text` holds its first bytes only. */
  readonly truncated: boolean
}

/** The request of a journal entry: what the client sent, secrets redacted. */
export interface JournalRequest {
  readonly method: string
  /** The path without its query. */
  readonly path: string
  /** The query's parameters, decoded; a repeated one as an array. Credential-named ones redacted. */
  readonly query: Readonly<Record<string, string | string[]>>
  /** By lower-case name; repeated headers joined with `, `. `Authorization`, `Cookie` and credential-named headers redacted. */
  readonly headers: Readonly<Record<string, string>>
  /** `null` when there was none, or when it was never read (see `docs/journal.md`). */
  readonly body: JournalBody | null
}

/** The response of a journal entry: what the simulator answered. */
export interface JournalResponse {
  /** 0 when a fault rule gave no answer (reset, hang). */
  readonly status: number
  /** By lower-case name, as sent (CORS headers a lane added included). */
  readonly headers: Readonly<Record<string, string>>
  /** `null` for no body (a HEAD, no answer). */
  readonly body: JournalBody | null
}

/** What the pipeline hands the journal about an exchange: references to what the request and answer already hold. */
export interface ExchangeParts {
  /** The request's headers as name/value pairs, flat (Node's `rawHeaders` form); undefined when the lane cannot list them. */
  readonly rawHeaders: readonly string[] | undefined
  /** The request body's bytes when something read it; undefined otherwise. */
  readonly requestBody: Uint8Array | undefined
  /**
   * The answer's headers, every one the lanes send (the pipeline adds `Content-Length` and the app's CORS grant before
   * it records): kept as they are when frozen, else copied, so that what the journal shows is what was sent.
   */
  readonly responseHeaders: Readonly<Record<string, string>>
  readonly responseBody: string | undefined
  /**
   * The bodies' sizes as sent, when the bodies given were cut before (an entry of a shared store's stream, which keeps
   * them as the journal does): the entry shows them truncated, with these sizes.
   */
  readonly requestBodySize?: number | undefined
  readonly responseBodySize?: number | undefined
}

/**
 * An exchange as the journal holds it: the parts the pipeline handed over
 * (strings and bytes nothing changes; a body over the cap cut to a copy of
 * its first bytes; the answer's headers frozen), with their size in memory
 * estimated once. The JSON view is built only when an entry is read.
 */
export interface CapturedExchange {
  readonly rawHeaders: readonly string[] | undefined
  readonly requestBody: Uint8Array | undefined
  /** Bytes sent; differs from `requestBody.byteLength` only when truncated. */
  readonly requestBodySize: number
  readonly responseHeaders: Readonly<Record<string, string>>
  readonly responseBody: string | Uint8Array | undefined
  /** Bytes sent when truncated, -1 otherwise (computed on read). */
  readonly responseBodySize: number
  /** Estimated bytes this exchange holds in memory, for the journal's budget: every body counted, shared or not. */
  readonly bytes: number
}

/**
 * The fixed part of an entry's size in memory: the entry and exchange objects, the answer's header object (the
 * simulator's own, at most about 15 short headers) and the views' bookkeeping. An over-estimate of a heap snapshot's.
 */
export const entryOverheadBytes = 1024

/** Captures an exchange for the journal; `cap` is the most bytes kept of each body. */
export function captureExchange(parts: ExchangeParts, cap: number): CapturedExchange {
  let bytes = entryOverheadBytes
  const { rawHeaders } = parts
  if (rawHeaders !== undefined) {
    // Two bytes per character: strings may be two-byte in memory.
    for (let index = 0; index < rawHeaders.length; index++) bytes += 2 * rawHeaders[index]!.length + 16
  }
  let requestBody = parts.requestBody
  const requestBodySize = parts.requestBodySize ?? requestBody?.byteLength ?? 0
  // Copied out whenever it is a view of more bytes than it keeps (issue 45, Low 15): a Node Buffer's `slice` is a view,
  // so a 1 MiB body cut to the cap held the whole MiB, counted as 64 KiB, and so did a body read as a slice of a larger
  // chunk (a middleware's). A body that is its buffer's every byte (Node's own chunk, a concatenation) holds nothing
  // more, and is kept as it is: a copy would cost every request an allocation.
  if (requestBody !== undefined && (requestBody.byteLength > cap || requestBody.byteLength < requestBody.buffer.byteLength))
    requestBody = new Uint8Array(requestBody.subarray(0, cap))
  bytes += requestBody?.byteLength ?? 0
  let responseBody: string | Uint8Array | undefined = parts.responseBody
  let responseBodySize = -1
  // A string of at most cap/3 characters is at most cap bytes of UTF-8: kept as it is, measured on read. A page of
  // pets the simulator keeps anyway counts too: 1,000 entries referring to pages replaced since would hold them all.
  // One cut before keeps its size as sent.
  if (responseBody !== undefined && (responseBody.length > cap / 3 || parts.responseBodySize !== undefined)) {
    const encoded = new TextEncoder().encode(responseBody)
    responseBodySize = parts.responseBodySize ?? encoded.byteLength
    responseBody = encoded.byteLength > cap ? encoded.slice(0, cap) : encoded
    bytes += responseBody.byteLength
  } else if (responseBody !== undefined) {
    bytes += 2 * responseBody.length
  }
  const sent = parts.responseHeaders
  const responseHeaders = Object.isFrozen(sent) ? sent : Object.freeze({ ...sent })
  return new Captured(rawHeaders, requestBody, requestBodySize, responseHeaders, responseBody, responseBodySize, bytes)
}

/**
 * A {@link CapturedExchange}, frozen. A class, not an object literal, for the reason the journal's entry is one
 * (journal-record.ts): V8 pretenured the literal, and each dead exchange kept the request's bytes promoted.
 */
class Captured implements CapturedExchange {
  readonly rawHeaders: readonly string[] | undefined
  readonly requestBody: Uint8Array | undefined
  readonly requestBodySize: number
  readonly responseHeaders: Readonly<Record<string, string>>
  readonly responseBody: string | Uint8Array | undefined
  readonly responseBodySize: number
  readonly bytes: number

  constructor(
    rawHeaders: readonly string[] | undefined,
    requestBody: Uint8Array | undefined,
    requestBodySize: number,
    responseHeaders: Readonly<Record<string, string>>,
    responseBody: string | Uint8Array | undefined,
    responseBodySize: number,
    bytes: number,
  ) {
    this.rawHeaders = rawHeaders
    this.requestBody = requestBody
    this.requestBodySize = requestBodySize
    this.responseHeaders = responseHeaders
    this.responseBody = responseBody
    this.responseBodySize = responseBodySize
    this.bytes = bytes
    Object.freeze(this)
  }
}

/** The request as the journal shows it. */
export function readRequest(
  method: string,
  target: string,
  exchange: CapturedExchange,
  scrub: (text: string) => string = (text) => text,
): JournalRequest {
  const queryStart = target.indexOf('?')
  const path = scrub(queryStart === -1 ? target : target.slice(0, queryStart))
  // Objects without a prototype: the names are the client's, and `constructor`, `toString` or `__proto__` are names
  // too (on a plain object the first read Object's own, journaled as `[null,"x"]`, and the last vanished).
  const query: Record<string, string | string[]> = Object.create(null)
  if (queryStart !== -1) {
    for (const [name, value] of new URLSearchParams(redactQuery(target.slice(queryStart + 1)))) {
      const previous = query[name]
      const shown = scrub(value)
      query[name] = previous === undefined ? shown : Array.isArray(previous) ? [...previous, shown] : [previous, shown]
    }
  }
  const headers: Record<string, string> = Object.create(null)
  const raw = exchange.rawHeaders ?? []
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase()
    const value = scrub(redactHeader(name, raw[index + 1]!))
    headers[name] = headers[name] === undefined ? value : `${headers[name]}${name === 'cookie' ? '; ' : ', '}${value}`
  }
  const body = exchange.requestBody
  return {
    method,
    path,
    query,
    headers,
    body: body === undefined || exchange.requestBodySize === 0 ? null : scrubBody(bodyView(body, exchange.requestBodySize), scrub),
  }
}

/** A text body with the keys in force replaced by their labels; a base64 one is bytes, left as they are. */
function scrubBody(body: JournalBody, scrub: (text: string) => string): JournalBody {
  return body.encoding === 'utf8' ? { ...body, text: scrub(body.text) } : body
}

/** The response as the journal shows it; `method` says whether a body was sent (none for a HEAD). */
export function readResponse(
  method: string,
  status: number,
  exchange: CapturedExchange,
  scrub: (text: string) => string = (text) => text,
): JournalResponse {
  const headers: Record<string, string> = Object.create(null)
  if (status !== 0) for (const [name, value] of Object.entries(exchange.responseHeaders)) headers[name.toLowerCase()] = scrub(value)
  const body = exchange.responseBody
  const sent = status !== 0 && method !== 'HEAD' && body !== undefined && body.length > 0
  return { status, headers, body: sent ? scrubBody(bodyView(body, exchange.responseBodySize), scrub) : null }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function bodyView(body: string | Uint8Array, sentSize: number): JournalBody {
  if (typeof body === 'string') return { size: utf8Length(body), encoding: 'utf8', text: body, truncated: false }
  const size = sentSize >= 0 ? sentSize : body.byteLength
  const truncated = size > body.byteLength
  // A cut body may end inside a character: the incomplete sequence is left out of the text.
  const whole = truncated ? body.subarray(0, completeUtf8Length(body)) : body
  try {
    return { size, encoding: 'utf8', text: utf8.decode(whole), truncated }
  } catch {
    return { size, encoding: 'base64', text: toBase64(body), truncated }
  }
}

/** The length of a byte sequence without a trailing incomplete UTF-8 sequence (at most 3 bytes are looked at). */
function completeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!
    if ((byte & 0xc0) === 0x80) continue
    if (byte < 0x80) return bytes.length
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2
    return needed > back ? bytes.length - back : bytes.length
  }
  return bytes.length
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000))
  }
  return btoa(binary)
}
