// `Authorization: Bearer` as RFC 6750 and RFC 9110 read it, and the two 401s the spec's bearer scheme calls for.
import { describe, expect, it } from 'vitest'
import { invalidKey, maxAuthorizationLength, readBearerToken } from '../../../src/core/access/bearer-token.ts'
import { ApiError } from '../../../src/core/http/api-error.ts'

function refusal(header: string | null): ApiError {
  try {
    readBearerToken(header)
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    return error as ApiError
  }
  throw new Error(`expected a refusal of ${JSON.stringify(header)}`)
}

describe('readBearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['Bearer    abc', 'abc'],
    ['Bearer\tabc', 'abc'],
    ['  Bearer abc  ', 'abc'],
    ['Bearer a b', 'a b'],
    ['Bearer abc==', 'abc=='],
  ])('reads %j as %j', (header, token) => {
    expect(readBearerToken(header)).toBe(token)
  })

  it('refuses a missing header with 401 missing_api_key and the realm', () => {
    const error = refusal(null)
    expect(error.code).toBe('missing_api_key')
    expect(error.status).toBe(401)
    expect(error.message).toBe('The Authorization header is missing: send "Authorization: Bearer <API key>"')
    expect(error.headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="petstore-sim"' })
  })

  // Digest and Beaver: schemes of Bearer's length.
  it.each(['Basic YTpi', 'Bearerabc', 'Token abc', 'Bearer-x abc', '', 'Bear abc', 'Bearers abc', 'Digest abc', 'Beaver abc'])(
    'refuses another scheme in %j with 401 missing_api_key',
    (header) => {
      const error = refusal(header)
      expect(error.code).toBe('missing_api_key')
      expect(error.message).toBe('The Authorization header must use the Bearer scheme: "Authorization: Bearer <API key>"')
    },
  )

  it.each(['Bearer', 'Bearer ', 'bearer \t '])('refuses an empty token in %j with 401 missing_api_key', (header) => {
    const error = refusal(header)
    expect(error.code).toBe('missing_api_key')
    expect(error.message).toBe('The Bearer token is empty: send "Authorization: Bearer <API key>"')
    expect(error.headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="petstore-sim"' })
  })

  it('reads a header of exactly the cap, and refuses one byte more as an invalid key', () => {
    const atCap = `Bearer ${'k'.repeat(maxAuthorizationLength - 7)}`
    expect(atCap).toHaveLength(maxAuthorizationLength)
    expect(readBearerToken(atCap)).toHaveLength(maxAuthorizationLength - 7)
    const error = refusal(`${atCap}k`)
    expect(error.code).toBe('invalid_api_key')
  })

  it('treats Unicode white space as white space, as trim() does', () => {
    expect(readBearerToken('Bearer\u00a0abc')).toBe('abc')
    expect(readBearerToken('\u2003Bearer abc\u3000')).toBe('abc')
    expect(refusal('Bearer\u00e9abc').code).toBe('missing_api_key')
  })

  it.each([
    ['\t', 'tab'],
    ['\n', 'LF'],
    ['\u000b', 'VT'],
    ['\f', 'FF'],
    ['\r', 'CR'],
  ])('takes %j (%s) between scheme and token as trim() does', (space) => {
    expect(readBearerToken(`Bearer${space}abc`)).toBe('abc')
  })

  it.each(['\u0000', '\u0001', '\u0008', '\u000e', '\u001f', '\u007f', '\u0085x'])(
    'does not take the control character %j for white space',
    (control) => {
      expect(refusal(`Bearer${control}abc`).code).toBe('missing_api_key')
    },
  )
})

describe('invalidKey', () => {
  it('is the RFC 6750 invalid_token 401', () => {
    const error = invalidKey()
    expect(error.code).toBe('invalid_api_key')
    expect(error.status).toBe(401)
    expect(error.message).toBe('The API key is not valid')
    expect(error.headers).toEqual({
      'WWW-Authenticate': 'Bearer realm="petstore-sim", error="invalid_token", error_description="The API key is not valid"',
    })
  })
})
