import { describe, expect, it } from 'vitest'
import { fingerprint } from '../../../src/core/access/fingerprint.ts'
import { ApiError } from '../../../src/core/http/api-error.ts'
import {
  compileFilter,
  type FilterableEntry,
  journalFilterNames,
  journalMethods,
  journalOperations,
  type JournalFilter,
  matches,
  parseJournalFilter,
} from '../../../src/core/journal/journal-filter.ts'
import { secretLabel } from '../../../src/core/journal/journal-redaction.ts'

// docs/journal.md, "Querying": what each filter matches, that every filter given must match, and what is refused (a
// RangeError in-process, a 400 invalid_query_parameter over HTTP), on plain entries with no journal around them.

interface EntryFields {
  sequence?: number
  method?: string
  path?: string
  status?: number
  operation?: string
  caller?: string
  sent?: string
}

function entry(fields: EntryFields = {}): FilterableEntry {
  return {
    sequence: fields.sequence ?? 1,
    method: fields.method ?? 'GET',
    path: fields.path ?? '/v1/pets',
    status: fields.status ?? 200,
    operation: fields.operation ?? 'listPets',
    caller: fields.caller ?? 'anonymous',
    sentKey: () => fields.sent,
    sentHeader: () => undefined,
    shownHeader: () => undefined,
    shownTarget: () => fields.path ?? '/v1/pets',
    sentQuery: () => [],
    sentJson: () => undefined,
  }
}

const taken = (filter: JournalFilter, fields: EntryFields, basePath = '/v1') => matches(compileFilter(filter, basePath), entry(fields))

function refusal(filter: JournalFilter, basePath = '/v1'): string {
  try {
    compileFilter(filter, basePath)
  } catch (error) {
    expect(error).toBeInstanceOf(RangeError)
    return (error as Error).message
  }
  throw new Error(`${JSON.stringify(filter)} was accepted`)
}

function queryRefusal(query: string, extra: readonly string[] = []): { code: string; status: number; message: string } {
  try {
    parseJournalFilter(query, '/v1', extra)
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    const { code, status, message } = error as ApiError
    return { code, status, message }
  }
  throw new Error(`?${query} was accepted`)
}

describe('journal filters: what each one matches', () => {
  it('takes every entry with no filter, or only a limit (which picks entries, not whether one matches)', () => {
    expect(taken({}, {})).toBe(true)
    expect(taken({ limit: 0 }, {})).toBe(true)
    expect(matches(compileFilter(undefined, '/v1'), entry({ status: 503, method: 'DELETE' }))).toBe(true)
  })

  it.each(journalOperations)('operation=%s takes its entries and no other', (operation) => {
    expect(taken({ operation }, { operation })).toBe(true)
    const other = journalOperations.find((name) => name !== operation)!
    expect(taken({ operation }, { operation: other })).toBe(false)
  })

  it.each(journalMethods)('method=%s takes its entries, in any case, and no other', (method) => {
    expect(taken({ method }, { method })).toBe(true)
    expect(taken({ method: method.toLowerCase() }, { method })).toBe(true)
    const other = method === 'GET' ? 'POST' : 'GET'
    expect(taken({ method }, { method: other })).toBe(false)
  })

  it.each([
    ['/v1/pets', '/v1/pets', true],
    ['/v1/pets', '/v1/pets?limit=5', true],
    ['/v1/pets', '/v1/pets/7', false],
    ['/v1/pets/*', '/v1/pets/7', true],
    ['/v1/pets/*', '/v1/pets/7?x=1', true],
    ['/v1/pets/*', '/v1/orders', false],
    ['/v1/pets?limit=5', '/v1/pets?limit=5', true],
    ['/v1/pets?limit=5', '/v1/pets', false],
    ['/v1/pets?limit=*', '/v1/pets?limit=100', true],
    ['/v1/pets?limit=*', '/v1/pets', false],
    ['*', '/v1/anything?at=all', true],
    ['*/7', '/v1/pets/7?verbose=1', true],
    ['/v*', '/v1/pets', true],
    ['/v1', '/v1', true],
  ])('path=%s against %s: %s', (path, sent, expected) => {
    expect(taken({ path }, { path: sent })).toBe(expected)
  })

  it('takes paths at the root when the base path is empty', () => {
    expect(taken({ path: '/pets/*' }, { path: '/pets/3' }, '')).toBe(true)
    expect(taken({ path: '/pets' }, { path: '/pets/3' }, '')).toBe(false)
  })

  it.each([
    [401, 401, true],
    ['401', 401, true],
    [401, 403, false],
    [0, 0, true],
    ['0', 200, false],
    ['4xx', 401, true],
    ['4xx', 499, true],
    ['4xx', 400, true],
    ['4xx', 500, false],
    ['4xx', 399, false],
    ['2xx', 204, true],
    ['5xx', 503, true],
    ['1xx', 0, false],
    ['4XX', 404, true],
  ])('status=%s against %i: %s', (status, answered, expected) => {
    expect(taken({ status }, { status: answered })).toBe(expected)
  })

  it('key=anonymous takes the requests without a valid key, and not one that sent the word "anonymous"', () => {
    expect(taken({ key: 'anonymous' }, { caller: 'anonymous' })).toBe(true)
    expect(taken({ key: 'anonymous' }, { caller: fingerprint('demo-free-key') })).toBe(false)
    expect(taken({ key: 'anonymous' }, { caller: fingerprint('x'), sent: 'anonymous' })).toBe(false)
  })

  it('key=<token> takes the requests of that key, by its fingerprint, and the requests that sent it when it is not valid', () => {
    const token = 'a-token-of-some-caller'
    expect(taken({ key: token }, { caller: fingerprint(token) })).toBe(true)
    expect(taken({ key: token }, { caller: fingerprint('another-token') })).toBe(false)
    expect(taken({ key: token }, { caller: 'anonymous', sent: secretLabel(token) })).toBe(true)
    expect(taken({ key: token }, { caller: 'anonymous', sent: secretLabel('another-token') })).toBe(false)
    expect(taken({ key: token }, { caller: 'anonymous' })).toBe(false)
  })

  it('key=key#… takes the requests of the key with that fingerprint, or that sent a wrong key shown so', () => {
    const label = fingerprint('some-key')
    expect(taken({ key: label }, { caller: label })).toBe(true)
    expect(taken({ key: label }, { caller: 'anonymous', sent: label })).toBe(true)
    expect(taken({ key: label }, { caller: fingerprint('other-key') })).toBe(false)
  })

  it('since and until are inclusive bounds on the sequence number', () => {
    expect([4, 5, 6, 7, 8].filter((sequence) => taken({ since: 5, until: 7 }, { sequence }))).toEqual([5, 6, 7])
    expect([1, 2, 3].filter((sequence) => taken({ since: 2 }, { sequence }))).toEqual([2, 3])
    expect([1, 2, 3].filter((sequence) => taken({ until: 2 }, { sequence }))).toEqual([1, 2])
  })

  it('takes an entry only when every filter given matches it', () => {
    const filter: JournalFilter = { operation: 'getPet', method: 'get', path: '/v1/pets/*', status: '4xx', since: 3 }
    const hit: EntryFields = { operation: 'getPet', method: 'GET', path: '/v1/pets/9', status: 404, sequence: 3 }
    expect(taken(filter, hit)).toBe(true)
    for (const miss of [
      { operation: 'listPets' },
      { method: 'HEAD' },
      { path: '/v1/orders/9' },
      { status: 200 },
      { sequence: 2 },
    ] satisfies EntryFields[]) {
      expect(taken(filter, { ...hit, ...miss }), JSON.stringify(miss)).toBe(false)
    }
  })
})

describe('journal filters: what is refused (a RangeError in-process)', () => {
  it('names an unknown filter and the known ones', () => {
    expect(refusal({ bogus: 1 } as JournalFilter)).toBe(
      `Unknown journal filter bogus; use ${journalFilterNames.join(', ')}, body, bodyFields, headers, query`,
    )
  })

  it.each([-1, 1.5, Number.NaN, 2 ** 53])('refuses limit %s', (limit) => {
    expect(refusal({ limit })).toBe('limit must be a whole number of 0 or more')
  })

  it('refuses an operation the API does not have, naming the ones it has', () => {
    expect(refusal({ operation: 'createPets' as never })).toBe(
      `operation must be one of ${journalOperations.join(', ')} (got "createPets")`,
    )
  })

  it('refuses a method that is not one', () => {
    expect(refusal({ method: 'FETCH' })).toBe(`method must be one of ${journalMethods.join(', ')} (got "FETCH")`)
    expect(refusal({ method: 7 as never })).toBe(`method must be one of ${journalMethods.join(', ')} (got 7)`)
  })

  it.each(['pets', '/pets/*', '/v2/pets', '/v10/pets', 'v1/*', '/v1x'])('refuses path %s, outside the base path /v1', (path) => {
    expect(refusal({ path })).toBe(`path must be a path under /v1, such as /v1/pets/*, or start with * (got ${JSON.stringify(path)})`)
  })

  it('refuses a path that is not a string, and names the root when the base path is empty', () => {
    expect(refusal({ path: 7 as never })).toMatch(/^path must be a path under \/v1, /)
    expect(refusal({ path: 'pets' }, '')).toBe('path must be a path under /, such as /pets/*, or start with * (got "pets")')
    expect(refusal({ path: '' }, '')).toMatch(/^path must be a path under \//)
  })

  it.each(['6xx', '0xx', '600', '99', '1000', '0401', '4xx1', 'x4xx', '401x', 'x401', '', 'abc', -1])('refuses status %j', (status) => {
    expect(refusal({ status })).toBe(`status must be a status like 401, a class like 4xx, or 0 (got ${JSON.stringify(status)})`)
  })

  it.each([['since'], ['until']] as const)('refuses a %s that is not a sequence number', (name) => {
    expect(refusal({ [name]: 1.5 })).toBe(`${name} must be a sequence number`)
  })

  it('cuts a long refused value in its message, so that a huge value is not sent back whole', () => {
    const long = 'x'.repeat(5000)
    expect(refusal({ operation: long as never })).toBe(`operation must be one of ${journalOperations.join(', ')} (got "${'x'.repeat(99)}…)`)
    // 98 letters and their quotes are 100 characters: shown whole.
    expect(refusal({ method: 'Y'.repeat(98) })).toBe(`method must be one of ${journalMethods.join(', ')} (got "${'Y'.repeat(98)}")`)
  })
})

describe('journal filters from a query (GET /__sim/requests?…)', () => {
  it('reads every filter, numbers as numbers, and keeps the parameters the endpoint takes apart', () => {
    const { filter, extra } = parseJournalFilter(
      'operation=getPet&method=get&path=%2Fv1%2Fpets%2F*&status=4xx&key=anonymous&since=2&until=9&limit=3&timeoutMs=50',
      '/v1',
      ['timeoutMs'],
    )
    expect(filter).toEqual({
      operation: 'getPet',
      method: 'get',
      path: '/v1/pets/*',
      status: '4xx',
      key: 'anonymous',
      since: 2,
      until: 9,
      limit: 3,
    })
    expect(extra).toEqual({ timeoutMs: '50' })
    expect(parseJournalFilter('', '/v1')).toEqual({ filter: {}, extra: {} })
  })

  it.each(['since', 'until', 'limit'])('takes %s from 0 up to 15 digits', (name) => {
    expect(parseJournalFilter(`${name}=0`, '/v1').filter).toEqual({ [name]: 0 })
    expect(parseJournalFilter(`${name}=999999999999999`, '/v1').filter).toEqual({ [name]: 999_999_999_999_999 })
  })

  it.each(['1.5', '-1', '1e1', '0x10', '', ' 5', '5 ', 'five', '9999999999999999'])('refuses limit=%j, and since and until so', (value) => {
    for (const name of ['limit', 'since', 'until']) {
      expect(queryRefusal(`${name}=${encodeURIComponent(value)}`)).toEqual({
        code: 'invalid_query_parameter',
        status: 400,
        message: `${name} must be a whole number (got ${JSON.stringify(value)})`,
      })
    }
  })

  it('refuses a filter given twice', () => {
    expect(queryRefusal('status=401&status=429')).toEqual({
      code: 'invalid_query_parameter',
      status: 400,
      message: 'status is given more than once',
    })
    expect(queryRefusal('timeoutMs=1&timeoutMs=2', ['timeoutMs']).message).toBe('timeoutMs is given more than once')
  })

  it('refuses an unknown name, listing the filters and what else the endpoint takes', () => {
    const requestParts = 'body, body.<path>, header.<name>, header.<name>:contains, header.<name>:present, query.<name>'
    expect(queryRefusal('bogus=1')).toEqual({
      code: 'invalid_query_parameter',
      status: 400,
      message: `Unknown filter bogus: the journal filters by ${journalFilterNames.join(', ')}, ${requestParts}`,
    })
    expect(queryRefusal('bogus=1', ['timeoutMs', 'stream']).message).toBe(
      `Unknown filter bogus: the journal filters by ${journalFilterNames.join(', ')}, ${requestParts}, and takes timeoutMs, stream`,
    )
    expect(queryRefusal('timeoutMs=10').message).toMatch(/^Unknown filter timeoutMs: /)
  })

  it('refuses a value that is not one as a 400, with the in-process message', () => {
    expect(queryRefusal('status=abc')).toEqual({
      code: 'invalid_query_parameter',
      status: 400,
      message: 'status must be a status like 401, a class like 4xx, or 0 (got "abc")',
    })
    expect(queryRefusal('operation=createPets').message).toBe(refusal({ operation: 'createPets' as never }))
    expect(queryRefusal('path=pets').message).toBe(refusal({ path: 'pets' }))
  })
})
