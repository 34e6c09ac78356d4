// What the spec and docs/where-the-spec-is-silent.md promise of listPets' query, getPet's id and createPet's body,
// checked on the parsers themselves: every refusal's code, status and message, and every value accepted as read.
import { describe, expect, it } from 'vitest'
import {
  isJsonContentType,
  parseListPetsQuery,
  parseNewPet,
  parsePetId,
  readJsonText,
} from '../../../src/core/operations/request-parsing.ts'
import { ApiError } from '../../../src/core/http/api-error.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)

/** The ApiError a call throws (fails the test when it throws nothing, or something else). */
function refusal(call: () => unknown): ApiError {
  try {
    call()
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }
  throw new Error('expected an ApiError, got an answer')
}

const query = (text: string) => parseListPetsQuery(new URLSearchParams(text))

describe('parseListPetsQuery', () => {
  it('defaults limit to 20 and leaves status out when neither is given', () => {
    expect(query('')).toEqual({ limit: 20 })
    expect(query('colour=red&page=2')).toEqual({ limit: 20 })
  })

  it.each([1, 2, 50, 99, 100])('accepts limit=%i', (limit) => {
    expect(query(`limit=${limit}`)).toEqual({ limit })
  })

  it.each(['0', '101', '-1', '1e1', '01', '0x10', '1.5', '10.0', '+5', ' 5', '5 ', '', 'ten', '100000000000000000000'])(
    'refuses limit=%j with 400 invalid_query_parameter naming the value',
    (text) => {
      const error = refusal(() => query(`limit=${encodeURIComponent(text)}`))
      expect(error.code).toBe('invalid_query_parameter')
      expect(error.status).toBe(400)
      expect(error.message).toBe(`limit must be a whole number from 1 to 100 (got ${JSON.stringify(text)})`)
    },
  )

  it.each(['available', 'pending', 'sold'] as const)('accepts status=%s, with or without a limit', (status) => {
    expect(query(`status=${status}`)).toEqual({ limit: 20, status })
    expect(query(`status=${status}&limit=3`)).toEqual({ limit: 3, status })
  })

  it.each(['Available', 'SOLD', 'lost', '', ' sold'])('refuses status=%j, listing the statuses', (text) => {
    const error = refusal(() => query(`status=${encodeURIComponent(text)}`))
    expect(error.code).toBe('invalid_query_parameter')
    expect(error.message).toBe(`status must be one of available, pending, sold (got ${JSON.stringify(text)})`)
  })

  it('refuses a repeated limit or status, even with equal values', () => {
    expect(refusal(() => query('limit=5&limit=5')).message).toBe('limit must be given at most once')
    expect(refusal(() => query('status=sold&status=sold')).message).toBe('status must be given at most once')
    expect(refusal(() => query('limit=5&limit=5')).code).toBe('invalid_query_parameter')
  })
})

describe('parsePetId', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['42', 42],
    ['-3', -3],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('reads %j as %i (an id no pet has is left to the 404)', (text, id) => {
    expect(parsePetId(text)).toBe(id)
  })

  it.each(['9007199254740992', '01', '1.0', '1e3', '0x1', 'abc', '', ' 1', '-0', '+1'])(
    'refuses %j with 400 invalid_path_parameter',
    (text) => {
      const error = refusal(() => parsePetId(text))
      expect(error.code).toBe('invalid_path_parameter')
      expect(error.status).toBe(400)
      expect(error.message).toBe(`petId must be an integer (got ${JSON.stringify(text)})`)
    },
  )
})

describe('parseNewPet', () => {
  it('reads a valid body, with and without status, dropping unknown fields', () => {
    expect(parseNewPet(utf8('{"name":"Rex","categoryId":1}'), 'application/json')).toEqual({ name: 'Rex', categoryId: 1 })
    expect(parseNewPet(utf8('{"name":"Tom","categoryId":2,"status":"sold","x":1}'), undefined)).toEqual({
      name: 'Tom',
      categoryId: 2,
      status: 'sold',
    })
  })

  it.each([
    ['', 'A JSON request body is required: {"name": string, "categoryId": integer, "status"?: PetStatus}'],
    ['  \n', 'A JSON request body is required: {"name": string, "categoryId": integer, "status"?: PetStatus}'],
    ['null', 'The request body must be a JSON object (got null)'],
    ['[1]', 'The request body must be a JSON object (got an array)'],
    ['7', 'The request body must be a JSON object (got number)'],
    ['"Rex"', 'The request body must be a JSON object (got string)'],
    ['{}', 'Invalid pet: name: is required; categoryId: is required'],
    ['{"name":"","categoryId":0}', 'Invalid pet: name: must not be empty; categoryId: must be at least 1'],
    ['{"name":"Rex","categoryId":1,"status":"lost"}', 'Invalid pet: status: must be one of available, pending, sold (got "lost")'],
  ])('refuses %j with 400 invalid_body: %s', (body, message) => {
    const error = refusal(() => parseNewPet(utf8(body), 'application/json'))
    expect(error.code).toBe('invalid_body')
    expect(error.status).toBe(400)
    expect(error.message).toBe(message)
  })

  it('refuses JSON that does not parse, saying so', () => {
    const error = refusal(() => parseNewPet(utf8('{"name":'), 'application/json'))
    expect(error.code).toBe('invalid_body')
    expect(error.message).toMatch(/^The request body is not valid JSON: /)
  })
})

describe('readJsonText', () => {
  it('reads UTF-8 JSON under every JSON media type and charset spelling', () => {
    for (const contentType of [
      undefined,
      'application/json',
      'APPLICATION/JSON',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; charset=utf8',
      'application/merge-patch+json',
      'application/vnd.api+json; charset=UTF-8',
    ]) {
      expect(readJsonText(utf8('{"a":"é"}'), contentType, undefined), String(contentType)).toBe('{"a":"é"}')
    }
    expect(readJsonText(utf8('{}'), 'application/json', 'identity')).toBe('{}')
    expect(readJsonText(utf8('{}'), 'application/json', ' IDENTITY ')).toBe('{}')
    expect(readJsonText(utf8('{}'), 'application/json', '')).toBe('{}')
    expect(readJsonText(utf8('{}'), 'application/json', ' ')).toBe('{}')
  })

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'json'])(
    'refuses Content-Type %j with 415 unsupported_media_type',
    (contentType) => {
      const error = refusal(() => readJsonText(utf8('{}'), contentType, undefined))
      expect(error.code).toBe('unsupported_media_type')
      expect(error.status).toBe(415)
      expect(error.message).toBe(`The request body must be application/json (got ${contentType})`)
    },
  )

  it.each(['latin1', 'utf-16', 'ISO-8859-1'])('refuses charset=%s with 415, naming it', (charset) => {
    const error = refusal(() => readJsonText(utf8('{}'), `application/json; charset=${charset}`, undefined))
    expect(error.code).toBe('unsupported_media_type')
    expect(error.message).toBe(`The request body must be UTF-8 JSON (got charset=${charset})`)
  })

  it.each(['xutf-8', 'utf-8x', 'utf-88', 'utf--8'])('refuses charset=%s, which only contains utf-8', (charset) => {
    expect(refusal(() => readJsonText(utf8('{}'), `application/json; charset=${charset}`, undefined)).message).toBe(
      `The request body must be UTF-8 JSON (got charset=${charset})`,
    )
  })

  it.each(['application/json;charset=latin1', 'application/json; charset = latin1', 'application/json;\tCHARSET=\t"latin1"'])(
    'finds the charset in %j however it is spaced, and refuses latin1',
    (contentType) => {
      expect(refusal(() => readJsonText(utf8('{}'), contentType, undefined)).message).toBe(
        'The request body must be UTF-8 JSON (got charset=latin1)',
      )
    },
  )

  it('refuses a content coding with 415 and Accept-Encoding: identity', () => {
    const error = refusal(() => readJsonText(utf8('{}'), 'application/json', 'gzip'))
    expect(error.code).toBe('unsupported_content_encoding')
    expect(error.status).toBe(415)
    expect(error.headers).toEqual({ 'Accept-Encoding': 'identity' })
    expect(error.message).toBe('Content-Encoding gzip is not supported: send the body uncompressed')
  })

  it('refuses bytes that are not UTF-8 rather than replacing them', () => {
    const error = refusal(() => readJsonText(new Uint8Array([0x7b, 0xff, 0x7d]), 'application/json', undefined))
    expect(error.code).toBe('invalid_body')
    expect(error.message).toBe('The request body is not valid UTF-8')
  })
})

describe('isJsonContentType', () => {
  it('is application/json or any +json type, parameters aside', () => {
    expect(isJsonContentType('application/json')).toBe(true)
    expect(isJsonContentType(' Application/Problem+JSON ; q=1')).toBe(true)
    expect(isJsonContentType('application/ld+json')).toBe(true)
    expect(isJsonContentType('text/json')).toBe(false)
    expect(isJsonContentType('application/json-seq')).toBe(false)
    expect(isJsonContentType('application/+json')).toBe(false)
    expect(isJsonContentType('application/vnd.api+jsonx')).toBe(false)
    expect(isJsonContentType('text/application/vnd.api+json')).toBe(false)
    expect(isJsonContentType('')).toBe(false)
  })
})
