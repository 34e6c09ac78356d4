import { ApiError } from './api-error.ts'
import type { PetQuery } from './pet-store.ts'
import { describeIssues, NewPetSchema, petStatuses, PetStatusSchema, type NewPet } from './schemas.ts'

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
export function parseListPetsQuery(params: URLSearchParams): PetQuery {
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
  const status = PetStatusSchema.safeParse(statusText)
  if (!status.success) {
    throw invalidQuery(`status must be one of ${petStatuses.join(', ')} (got ${JSON.stringify(statusText)})`)
  }
  return { limit, status: status.data }
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
 * absent or a JSON type) holding an object; every offending field is named.
 *
 * @example
 * parseNewPet('{"name":"Rex","categoryId":1}', 'application/json') // { name: 'Rex', categoryId: 1 }
 */
export function parseNewPet(bodyText: string, contentType: string | null): NewPet {
  if (contentType !== null && !isJsonContentType(contentType)) {
    throw new ApiError('unsupported_media_type', `The request body must be application/json (got ${contentType})`)
  }
  if (bodyText.trim().length === 0) {
    throw new ApiError('invalid_body', 'A JSON request body is required: {"name": string, "categoryId": integer, "status"?: PetStatus}')
  }
  let data: unknown
  try {
    data = JSON.parse(bodyText)
  } catch (error) {
    throw new ApiError('invalid_body', `The request body is not valid JSON: ${(error as Error).message}`)
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const kind = data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data
    throw new ApiError('invalid_body', `The request body must be a JSON object (got ${kind})`)
  }
  const result = NewPetSchema.safeParse(data)
  if (!result.success) {
    throw new ApiError('invalid_body', `Invalid pet: ${describeIssues(result.error)}`)
  }
  return result.data
}

/** `application/json`, or any `+json` type, with or without parameters. */
export function isJsonContentType(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase()
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType)
}

function invalidQuery(message: string): ApiError {
  return new ApiError('invalid_query_parameter', message)
}
