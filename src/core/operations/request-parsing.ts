import { ApiError } from '../http/api-error.ts'
import type { PetQuery } from '../catalogue/pet-store.ts'
import { checkNewPet, isPetStatus, statusMessage } from '../model/new-pet-check.ts'
import type { NewPet, PetStatus } from '../model/pet-types.ts'

export const defaultLimit = 20
export const minLimit = 1
export const maxLimit = 100

const canonicalInteger = /^(0|-?[1-9]\d*)$/

/**
 * Reads listPets' query. `limit` must be a whole number from 1 to 100 written
 * plainly (no sign, decimals, exponent or leading zeros); `status` must be
 * one of the enumeration, exactly. A repeated parameter is ambiguous and
 * refused. Other parameters are ignored.
 *
 * @example
 * parseListPetsQuery(new URLSearchParams('limit=5&status=sold')) // { limit: 5, status: 'sold' }
 */
export function parseListPetsQuery(params: Pick<URLSearchParams, 'getAll'>): PetQuery {
  const limits = params.getAll('limit')
  const statuses = params.getAll('status')
  if (limits.length > 1) throw invalidQuery('limit must be given at most once')
  if (statuses.length > 1) throw invalidQuery('status must be given at most once')

  let limit = defaultLimit
  const limitText = limits[0]
  if (limitText !== undefined) {
    const value = canonicalInteger.test(limitText) ? Number(limitText) : Number.NaN
    if (!(value >= minLimit && value <= maxLimit)) {
      throw invalidQuery(`limit must be a whole number from ${minLimit} to ${maxLimit} (got ${JSON.stringify(limitText)})`)
    }
    limit = value
  }

  const statusText = statuses[0]
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
  const value = canonicalInteger.test(text) ? Number(text) : Number.NaN
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
