import { describe, expect, it } from 'vitest'
import type { ApiError } from '../../src/core/http/api-error.ts'
import {
  decodeBuckets,
  decodeMeta,
  decodePets,
  decodeReply,
  decodeSandboxes,
  decodeSnapshot,
  decodeStreamEntries,
  decodeStreamRecords,
  isStoreCorrupt,
  storeCorrupt,
} from '../../src/node/shared-store/store-values.ts'

// The seam where what is read from the store becomes the instance's (issue 45): each decoder takes what this version
// writes and refuses anything else as 503 store_corrupt naming the key, before any of it is applied.
const refuse = (key: string, problem: string) => storeCorrupt('redis://store', key, problem)

/** The refusal `read` throws: a store_corrupt naming `key`. */
function refusal(read: () => unknown, key: string): ApiError {
  let thrown: unknown
  try {
    read()
  } catch (error) {
    thrown = error
  }
  expect(isStoreCorrupt(thrown), String(thrown)).toBe(true)
  const error = thrown as ApiError
  expect(error.status).toBe(503)
  expect(error.headers).toEqual({ 'Retry-After': '1' })
  expect(error.message).toContain('redis://store')
  expect(error.message).toContain(key)
  return error
}

const meta = (fields: Record<string, string>) => Object.entries({ version: '3', epoch: '2', nextId: '51', ...fields }).flat()

describe('the meta hash', () => {
  it('reads what the publish script writes', () => {
    const faults = JSON.stringify({ nextId: 2, rules: [{ id: 'f1', status: 500 }] })
    expect(decodeMeta(meta({ clockOffsetMs: '-1500', clockFrozenAt: '1700000000000', faults, life: '1.2' }), 'm', refuse)).toMatchObject({
      version: '3',
      epoch: '2',
      life: '1.2',
      clockOffsetMs: -1500,
      frozenAt: 1_700_000_000_000,
      faults: { nextId: 2, rules: [{ id: 'f1', status: 500 }] },
      journalVersion: '',
    })
    expect(decodeMeta(meta({ clockFrozenAt: '' }), 'm', refuse)).toMatchObject({ clockOffsetMs: 0, frozenAt: null, faults: undefined })
    expect(decodeMeta([], 'm', refuse)).toBeUndefined()
  })

  it.each([
    ['version', 'x'],
    ['epoch', '0'],
    ['epoch', ''],
    ['nextId', '-1'],
    ['clockOffsetMs', 'soon'],
    ['clockOffsetMs', '1e999'],
    ['clockOffsetMs', '1.5'],
    ['clockFrozenAt', 'NaN'],
    ['faults', '{'],
    ['faults', '{"nextId":1}'],
    ['journalVersion', 'two'],
  ])('refuses %s = %j, naming the field', (field, value) => {
    refusal(() => decodeMeta(meta({ [field]: value }), 'ns:{default}:meta', refuse), `ns:{default}:meta, field ${field}`)
  })

  it('refuses a hash without a version, and a reply that is no hash', () => {
    refusal(() => decodeMeta(['epoch', '1'], 'm', refuse), 'm, field version')
    refusal(() => decodeMeta('text', 'm', refuse), 'm')
  })
})

describe('values of the world', () => {
  it('reads created pets, and refuses one that is not a pet', () => {
    expect(decodePets(['{"name":"Rex","categoryId":1}'], 'c', refuse)).toMatchObject([{ name: 'Rex', categoryId: 1 }])
    for (const bad of ['{"name":42}', 'not json', '[]', 'null', 7])
      refusal(() => decodePets([bad], 'ns:e1:created', refuse), 'ns:e1:created')
  })

  it('reads a snapshot as JSON, and refuses none or text', () => {
    expect(decodeSnapshot('{"format":1}', 's', refuse)).toEqual({ format: 1 })
    refusal(() => decodeSnapshot(null, 'ns:e7:snapshot', refuse), 'ns:e7:snapshot')
    refusal(() => decodeSnapshot('{', 'ns:e7:snapshot', refuse), 'ns:e7:snapshot')
  })

  it("reads the buckets script's reply, and refuses a count that is not one, naming the caller's key", () => {
    expect(decodeBuckets(['key:a', '1', '2', '3', '4', '0', ''], 'ns:e1:', refuse)).toEqual([
      { caller: 'key:a', minute: 1, minuteCount: 2, day: 3, dayCount: 4, refusedInARow: 0 },
    ])
    expect(decodeBuckets(['key:a', '1', '2', '3', '4', '0', '99'], 'ns:e1:', refuse)[0]).toMatchObject({ bannedUntil: 99 })
    refusal(() => decodeBuckets(['key:a', '1', 'many', '3', '4', '0', ''], 'ns:e1:', refuse), 'ns:e1:rl:key:a')
  })

  it("checks a script's numbers, and its shape", () => {
    expect(decodeReply(['ok', 1, 2], 2, 'm', refuse)).toEqual(['ok', 1, 2])
    expect(decodeReply(['stale', '4'], 2, 'm', refuse)).toEqual(['stale', '4'])
    refusal(() => decodeReply(['ok', 1, 'x'], 2, 'ns:meta', refuse), 'ns:meta')
    refusal(() => decodeReply('OK', 0, 'ns:meta', refuse), 'ns:meta')
  })

  it("reads the sandboxes' listing, and refuses an entry that is not one", () => {
    expect(decodeSandboxes(['a', 3, 0, 'default', 1, 2], 'ns:sandboxes', refuse)).toEqual([
      { name: 'a', pets: 3, requests: 0, scenario: 'default', createdAt: 1, lastUsedAt: 2 },
    ])
    refusal(() => decodeSandboxes(['a', 3, 0, 'default', 1], 'ns:sandboxes', refuse), 'ns:sandboxes')
    refusal(() => decodeSandboxes(['a', 3, 0, 'default', '1', 2], 'ns:sandboxes', refuse), 'ns:sandboxes')
  })
})

describe('the journal stream', () => {
  const entry = JSON.stringify({
    a: 1_700_000_000_000,
    m: 'GET',
    p: '/v1/pets',
    s: 200,
    o: 'listPets',
    c: 'anonymous',
    l: 'free',
    d: 1.5,
    x: {},
  })

  it('reads entries as the stream holds them, its own without a payload', () => {
    const records = decodeStreamEntries(
      [
        ['1-0', ['s', '1', 'o', 'other:1', 'p', entry, 'g', '1//', 'n', '90']],
        ['1-1', ['s', '2', 'o', 'me:1', 'p', '', 'g', '2/1/', 'n', '0']],
      ],
      'j',
      refuse,
    )
    expect(records.map(({ id, sequence, origin, generation }) => [id, sequence, origin, generation])).toEqual([
      ['1-0', 1, 'other:1', [1, 0, 0]],
      ['1-1', 2, 'me:1', [2, 1, 0]],
    ])
    expect(records[0]!.input).toMatchObject({ atMs: 1_700_000_000_000, method: 'GET', status: 200, durationMs: 1.5 })
    expect(records[1]!.input).toBeUndefined()
  })

  it.each([
    ['not JSON', 'not json{'],
    ['an array', '[1,2]'],
    ['no time', JSON.stringify({ ...JSON.parse(entry), a: 'now' })],
    ['a time past 9999', JSON.stringify({ ...JSON.parse(entry), a: 1e16 })],
    ['a status of 1000', JSON.stringify({ ...JSON.parse(entry), s: 1000 })],
    ['a method that is no text', JSON.stringify({ ...JSON.parse(entry), m: 1 })],
    ['headers that are no text', JSON.stringify({ ...JSON.parse(entry), h: [1] })],
    ['answer headers that are no text', JSON.stringify({ ...JSON.parse(entry), x: { a: 1 } })],
    ['a body size that is no size', JSON.stringify({ ...JSON.parse(entry), qn: -1 })],
    ['a refused mark that is not true', JSON.stringify({ ...JSON.parse(entry), rf: 1 })],
  ])('refuses an entry with %s, naming the stream and the entry', (_, payload) => {
    refusal(
      () => decodeStreamRecords(['5-0', '9', 'intruder:1', payload, '1//'], 'ns:{default}:journal', refuse),
      'ns:{default}:journal, entry 5-0',
    )
  })

  it('refuses an entry without a sequence, an id, a generation, or fields', () => {
    refusal(() => decodeStreamRecords(['5-0', 'x', 'o', '', '1//'], 'j', refuse), 'j, entry 5-0')
    refusal(() => decodeStreamRecords(['five', '1', 'o', '', '1//'], 'j', refuse), 'j')
    refusal(() => decodeStreamRecords(['5-0', '1', 'o', '', 'one'], 'j', refuse), 'j, entry 5-0')
    refusal(() => decodeStreamEntries([['5-0', 'fields']], 'j', refuse), 'j')
  })
})
