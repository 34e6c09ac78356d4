import { ApiError } from '../http/api-error.ts'
import type { PetQuery } from '../catalogue/pet-store.ts'
import { checkNewPet, isPetStatus, statusMessage } from '../model/new-pet-check.ts'
import type { NewPet, PetStatus } from '../model/pet-types.ts'

export const defaultLimit = 20
export const minLimit = 1
export const maxLimit = 100

/**
 * Whether a text is an integer written plainly (`0`, `42`, `-7`: no `+`, leading zeros, decimals or exponent), as
 * `/^(0|-?[1-9]\d*)$/` says, by hand: the regular expression's match made garbage on every listPets and getPet.
 */
function isCanonicalInteger(text: string): boolean {
  if (text === '0') return true
  const digitsFrom = text.charCodeAt(0) === 0x2d ? 1 : 0
  if (digitsFrom >= text.length) return false
  const first = text.charCodeAt(digitsFrom)
  if (first < 0x31 || first > 0x39) return false
  for (let index = digitsFrom + 1; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x30 || code > 0x39) return false
  }
  return true
}

/**
 * Reads listPets' query. `limit` must be a whole number from 1 to 100 written
 * plainly (no sign, decimals, exponent or leading zeros); `status` must be
 * one of the enumeration, exactly. A repeated parameter is ambiguous and
 * refused. Other parameters are ignored.
 *
 * @example
 * parseListPetsQuery(new URLSearchParams('limit=5&status=sold')) // { limit: 5, status: 'sold' }
 */
export function parseListPetsQuery(params: URLSearchParams): PetQuery {
  const limits = params.getAll('limit')
  const statuses = params.getAll('status')
  return checkListPetsQuery(limits.length, limits[0], statuses.length, statuses[0])
}

/**
 * listPets' query read from its text: the same answer as
 * `parseListPetsQuery(new URLSearchParams(query))`, without building one for
 * a query with nothing to decode (no `%`, `+` or leading `?`): a
 * `URLSearchParams` and its `getAll` arrays made some 500 bytes of garbage on
 * every GET (a sampling heap profile of the bench's GET list).
 */
export function readListPetsQuery(query: string): PetQuery {
  if (query === '') return { limit: defaultLimit }
  if (query.includes('%') || query.includes('+') || query.startsWith('?')) return parseListPetsQuery(new URLSearchParams(query))
  let limitCount = 0
  let limitText: string | undefined
  let statusCount = 0
  let statusText: string | undefined
  for (let start = 0; start < query.length; ) {
    let end = query.indexOf('&', start)
    if (end === -1) end = query.length
    const equals = query.indexOf('=', start)
    const nameEnd = equals === -1 || equals > end ? end : equals
    const nameLength = nameEnd - start
    if (nameLength === 5 && query.startsWith('limit', start) && limitCount++ === 0) limitText = query.slice(nameEnd + 1, end)
    else if (nameLength === 6 && query.startsWith('status', start) && statusCount++ === 0) statusText = query.slice(nameEnd + 1, end)
    start = end + 1
  }
  // A lone surrogate is made U+FFFD by URLSearchParams, and quoted so in the error: left to it.
  if (hasSurrogate(limitText) || hasSurrogate(statusText)) return parseListPetsQuery(new URLSearchParams(query))
  return checkListPetsQuery(limitCount, limitText, statusCount, statusText)
}

function hasSurrogate(text: string | undefined): boolean {
  return text !== undefined && /[\uD800-\uDFFF]/.test(text)
}

function checkListPetsQuery(
  limitCount: number,
  limitText: string | undefined,
  statusCount: number,
  statusText: string | undefined,
): PetQuery {
  if (limitCount > 1) throw invalidQuery('limit must be given at most once')
  if (statusCount > 1) throw invalidQuery('status must be given at most once')

  let limit = defaultLimit
  if (limitText !== undefined) {
    const value = isCanonicalInteger(limitText) ? Number(limitText) : Number.NaN
    if (!(value >= minLimit && value <= maxLimit)) {
      throw invalidQuery(`limit must be a whole number from ${minLimit} to ${maxLimit} (got ${JSON.stringify(limitText)})`)
    }
    limit = value
  }

  if (statusText === undefined) return { limit }
  if (!isPetStatus(statusText)) {
    throw invalidQuery(`status ${statusMessage(statusText)}`)
  }
  return { limit, status: statusText as PetStatus }
}

/**
 * Reads getPet's `petId`: an integer in the safe-integer range, written
 * plainly. Anything else is a 400 (`invalid_path_parameter`); a well-formed id
 * that no pet has is left to the caller (404).
 */
export function parsePetId(text: string): number {
  const value = isCanonicalInteger(text) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(value)) {
    throw new ApiError('invalid_path_parameter', `petId must be an integer (got ${JSON.stringify(text)})`)
  }
  return value
}

/**
 * Reads and validates a createPet body. The body must be JSON (`Content-Type`
 * absent or a JSON type, in UTF-8), not content-coded, and hold an object;
 * every offending field is named.
 *
 * @example
 * parseNewPet(utf8('{"name":"Rex","categoryId":1}'), 'application/json') // { name: 'Rex', categoryId: 1 }
 */
export function parseNewPet(body: Uint8Array, contentType: string | undefined, contentEncoding?: string): NewPet {
  const text = readJsonText(body, contentType, contentEncoding)
  if (text.trim().length === 0) {
    throw new ApiError('invalid_body', 'A JSON request body is required: {"name": string, "categoryId": integer, "status"?: PetStatus}')
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new ApiError('invalid_body', `The request body is not valid JSON: ${(error as Error).message}`)
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const kind = data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data
    throw new ApiError('invalid_body', `The request body must be a JSON object (got ${kind})`)
  }
  const checked = checkNewPet(data)
  if (typeof checked === 'string') throw new ApiError('invalid_body', `Invalid pet: ${checked}`)
  return checked
}

/**
 * The text of a JSON request body, strictly: a media type that is not JSON,
 * a charset other than UTF-8 or a content coding the simulator does not
 * decode is a 415 (RFC 9110 §15.5.16); bytes that are not UTF-8 are a 400
 * naming the body, never silently replaced with U+FFFD.
 */
export function readJsonText(body: Uint8Array, contentType: string | undefined, contentEncoding: string | undefined): string {
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity' && contentEncoding.trim() !== '') {
    throw new ApiError('unsupported_content_encoding', `Content-Encoding ${contentEncoding} is not supported: send the body uncompressed`, {
      'Accept-Encoding': 'identity',
    })
  }
  if (contentType !== undefined) {
    if (!isJsonContentType(contentType)) {
      throw new ApiError('unsupported_media_type', `The request body must be application/json (got ${contentType})`)
    }
    const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType)?.[1]
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
      throw new ApiError('unsupported_media_type', `The request body must be UTF-8 JSON (got charset=${charset})`)
    }
  }
  try {
    return strictUtf8.decode(body)
  } catch {
    throw new ApiError('invalid_body', 'The request body is not valid UTF-8')
  }
}

// `fatal`: invalid bytes throw instead of becoming U+FFFD. Stateless for whole buffers.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** `application/json`, or any `+json` type, with or without parameters. */
export function isJsonContentType(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase()
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType)
}

function invalidQuery(message: string): ApiError {
  return new ApiError('invalid_query_parameter', message)
}
