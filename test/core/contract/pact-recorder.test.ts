import { describe, expect, it } from 'vitest'
import { createPactRecorder } from '../../../src/core/contract/pact-recorder.ts'
import type { JournalEntry, RecordedRequest } from '../../../src/core/journal/journal-types.ts'

// The pact recorder (issue 36): the first request of each shape, kept until cleared, capped. What makes a shape, and
// what is never kept, on recorded requests as the journal hands them over.

let sequence = 0
function recorded(
  path: string,
  overrides: Partial<RecordedRequest> & { body?: string; answer?: string; headers?: string[] } = {},
): RecordedRequest {
  const { body, answer, headers, ...rest } = overrides
  const bytes = body === undefined ? undefined : new TextEncoder().encode(body)
  return {
    sequence: ++sequence,
    atMs: 0,
    wallMs: 0,
    method: 'GET',
    path,
    status: 200,
    operation: 'listPets',
    caller: 'key#00000001',
    plan: 'pro',
    durationMs: 0,
    exchange: {
      rawHeaders: headers ?? ['authorization', 'Bearer demo-pro-key'],
      requestBody: bytes,
      requestBodySize: bytes?.byteLength ?? 0,
      responseHeaders: {},
      responseBody: answer ?? '[{"id":1,"name":"A","categoryId":1}]',
      responseBodySize: -1,
      bytes: 0,
    },
    ...rest,
  }
}

function setUp(maxInteractions = 100) {
  const views: RecordedRequest[] = []
  const recorder = createPactRecorder({
    basePath: '/v1',
    maxInteractions,
    view: (request) => {
      views.push(request)
      const { sequence: at, path, method, status, operation, caller } = request
      return {
        sequence: at,
        path,
        method,
        status,
        operation,
        caller,
        request: { method, path, query: {}, headers: {}, body: null },
        response: { status, headers: {}, body: null },
      } as unknown as JournalEntry
    },
  })
  return { recorder, views }
}

describe('the pact recorder', () => {
  it('keeps the first request of each shape: query names, not values; the key valid, absent or invalid', () => {
    const { recorder, views } = setUp()
    for (const request of [
      recorded('/v1/pets?limit=2'),
      recorded('/v1/pets?limit=7'),
      recorded('/v1/pets?status=sold&limit=2'),
      recorded('/v1/pets?limit=3&status=pending'),
      recorded('/v1/pets', { caller: 'anonymous', status: 401, headers: [] }),
      recorded('/v1/pets', { caller: 'anonymous', status: 401, headers: ['Authorization', 'Bearer typo'] }),
      recorded('/v1/pets', { caller: 'anonymous', status: 401, headers: ['authorization', 'Bearer other-typo'] }),
      recorded('/v1/pets', { answer: '[]' }),
      recorded('/v1/pets?status=sold', { answer: '[]' }),
    ])
      recorder.observe(request)
    // The journal's view is built for the first request of a shape only.
    expect(views).toHaveLength(6)
    expect(recorder.entries().map((entry) => entry.path)).toEqual([
      '/v1/pets?limit=2',
      '/v1/pets?status=sold&limit=2',
      '/v1/pets',
      '/v1/pets',
      '/v1/pets',
      '/v1/pets?status=sold',
    ])
  })

  it('tells bodies apart by their NewPet fields and types, nothing else they hold', () => {
    const { recorder } = setUp()
    const create = (body: string, status = 201) =>
      recorded('/v1/pets', { method: 'POST', operation: 'createPet', status, body, answer: '{}' })
    for (const body of [
      '{"name":"A","categoryId":1}',
      '{"name":"B","categoryId":2,"password":"x"}',
      '{"name":"C","categoryId":3,"status":"sold"}',
      '{"name":1,"categoryId":3}',
      '{"name":"D"}',
      'not json',
      '[1]',
    ])
      recorder.observe(create(body, body.includes('categoryId') && !body.includes('"name":1') ? 201 : 400))
    // A and B (a password aside), C (a status), a name of the wrong type, no categoryId, and a body that is no object.
    expect(recorder.entries()).toHaveLength(5)
  })

  it('keeps no forced answer, fault, 5xx, dropped connection or request that matched no operation', () => {
    const { recorder } = setUp()
    recorder.observe(recorded('/v1/pets', { forced: true }))
    recorder.observe(recorded('/v1/pets', { fault: 'rule-1' }))
    recorder.observe(recorded('/v1/pets', { status: 503 }))
    recorder.observe(recorded('/v1/pets', { status: 0 }))
    recorder.observe(recorded('/v1/nowhere', { operation: 'routeNotFound', status: 404 }))
    recorder.observe(recorded('/v1/pets', { exchange: undefined }))
    expect(recorder.entries()).toEqual([])
  })

  it('counts the shapes past its cap, and forgets everything when cleared', () => {
    const { recorder } = setUp(3)
    for (let index = 0; index < 5; index++) recorder.observe(recorded(`/v1/pets?x${index}=1`))
    recorder.observe(recorded('/v1/pets?x4=2'))
    expect(recorder.entries()).toHaveLength(3)
    expect(recorder.overflow()).toBe(2)
    expect(recorder.clear()).toBe(3)
    expect([recorder.entries(), recorder.overflow()]).toEqual([[], 0])
  })

  it('takes journal filters on the first request of each shape', () => {
    const { recorder } = setUp()
    recorder.observe(recorded('/v1/pets?limit=1'))
    recorder.observe(recorded('/v1/pets/3', { operation: 'getPet', answer: '{}' }))
    expect(recorder.entries({ operation: 'getPet' }).map((entry) => entry.path)).toEqual(['/v1/pets/3'])
    expect(recorder.entries({ limit: 1 }).map((entry) => entry.path)).toEqual(['/v1/pets/3'])
    expect(() => recorder.entries({ path: '/v2/*' })).toThrow(RangeError)
  })
})
