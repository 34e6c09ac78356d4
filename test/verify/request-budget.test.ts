import { describe, expect, it } from 'vitest'
import { describeRequest, describeResponse, type Exchange } from '../../src/verify/exchange.ts'
import { retryAfterSeconds } from '../../src/verify/expectations.ts'
import {
  AnswerTooLarge,
  BudgetSpent,
  formatBytes,
  formatMs,
  NoAnswer,
  RequestSender,
  RetryAfterTooLong,
  RunOutOfTime,
  type SenderOptions,
  TargetUnreachable,
} from '../../src/verify/request-budget.ts'

// The sender's promises to the target (src/verify/request-budget.ts, docs/verify.md): never more requests than the
// budget, never before a Retry-After has passed (429 or 503), backing off from one without it (250 ms doubling, at
// most 8 s), a 429 it did not ask for retried while retries remain, nothing sent past the run's time bound, and at
// most maxBodyBytes read of a body. A scripted target and a manual clock: no timer, no network.

const t0 = Date.parse('2030-06-15T10:00:00.000Z')

interface Scripted {
  status: number
  headers?: Record<string, string>
  body?: string | Uint8Array<ArrayBuffer>
}

function harness(answers: Scripted[], extra: Partial<SenderOptions> = {}) {
  let now = t0
  const log: string[] = []
  const seen: Array<{ url: string; init: RequestInit | undefined }> = []
  const sender = new RequestSender({
    baseUrl: 'http://api.test/v1/',
    key: 'the-key',
    budget: 10,
    retries: 2,
    timeoutMs: 10_000,
    maxWaitMs: 120_000,
    maxBodyBytes: 1024,
    deadline: t0 + 600_000,
    maxTimeLabelMs: 600_000,
    now: () => now,
    sleep: async (milliseconds) => {
      log.push(`sleep ${milliseconds}`)
      now += milliseconds
    },
    fetch: async (url, init) => {
      seen.push({ url, init })
      log.push(`${init?.method} ${url}`)
      const answer = answers.shift() ?? { status: 200, body: '[]' }
      return new Response(answer.body ?? '', { status: answer.status, headers: answer.headers })
    },
    ...extra,
  })
  return { sender, log, seen, advance: (milliseconds: number) => (now += milliseconds), now: () => now }
}

const list = { method: 'GET', path: '/pets', query: { limit: '1' } } as const

describe('RequestSender: what it sends', () => {
  it('sends to the base URL (its trailing slashes dropped) with the query, Accept and the key as a Bearer token', async () => {
    const { sender, seen } = harness([{ status: 200, headers: { 'Content-Type': 'application/json', 'X-Thing': 'a' }, body: '[{"id":1}]' }])
    const exchange = await sender.send(list)
    expect(seen[0]!.url).toBe('http://api.test/v1/pets?limit=1')
    expect(seen[0]!.init).toMatchObject({ method: 'GET', redirect: 'manual', body: undefined })
    expect(seen[0]!.init?.headers).toEqual({ accept: 'application/json', authorization: 'Bearer the-key' })
    expect(exchange).toEqual({
      request: { method: 'GET', url: 'http://api.test/v1/pets?limit=1', auth: 'key', body: undefined },
      status: 200,
      headers: { 'content-type': 'application/json', 'x-thing': 'a' },
      bodyText: '[{"id":1}]',
      json: [{ id: 1 }],
      receivedAt: t0,
    })
    expect(sender.sent).toBe(1)
    expect(sender.exchanges()).toEqual([exchange])
  })

  it('sends no Authorization when asked, another token when given, and a JSON body with its Content-Type', async () => {
    const { sender, seen } = harness([{ status: 401 }, { status: 401 }, { status: 201, body: 'not json' }])
    const none = await sender.send({ method: 'GET', path: '/pets', auth: 'none' })
    const other = await sender.send({ method: 'GET', path: '/pets/1', auth: { token: 'wrong' } })
    const created = await sender.send({ method: 'POST', path: '/pets', json: { name: 'Rex', categoryId: 1 } })
    expect(seen.map((request) => request.init?.headers)).toEqual([
      { accept: 'application/json' },
      { accept: 'application/json', authorization: 'Bearer wrong' },
      { accept: 'application/json', authorization: 'Bearer the-key', 'content-type': 'application/json' },
    ])
    expect(seen[2]!.init).toMatchObject({ method: 'POST', body: '{"name":"Rex","categoryId":1}' })
    expect([none.request.auth, other.request.auth, created.request.auth]).toEqual(['none', 'other', 'key'])
    expect(created.request.body).toBe('{"name":"Rex","categoryId":1}')
    expect(created).toMatchObject({ status: 201, bodyText: 'not json', json: undefined })
    expect(none).toMatchObject({ bodyText: '', json: undefined })
  })

  it('describes a request without its credential, and a response by its status, the headers checked and the body start', async () => {
    const { sender } = harness([
      { status: 429, headers: { 'retry-after': '1', 'x-other': 'hidden', 'content-type': 'application/json' }, body: 'x'.repeat(400) },
    ])
    const exchange = await sender.send({ ...list, expectsLimit: true })
    expect(describeRequest(exchange)).toBe('GET http://api.test/v1/pets?limit=1 (Authorization: Bearer <key>)')
    expect(describeResponse(exchange)).toBe(`429\ncontent-type: application/json\nretry-after: 1\n${'x'.repeat(300)}…`)
    const posted: Exchange = { ...exchange, request: { method: 'POST', url: 'u', auth: 'other', body: '{}' }, bodyText: '' }
    expect(describeRequest(posted)).toBe('POST u (Authorization: Bearer <another token>) body {}')
    expect(describeRequest({ ...posted, request: { method: 'GET', url: 'u', auth: 'none' } })).toBe('GET u (no Authorization)')
    expect(describeResponse(posted)).toBe('429\ncontent-type: application/json\nretry-after: 1')
    expect(describeResponse({ ...posted, bodyText: 'x'.repeat(300) })).toBe(
      `429\ncontent-type: application/json\nretry-after: 1\n${'x'.repeat(300)}`,
    )
  })
})

describe('RequestSender: the budget, the waits and the time bound', () => {
  it('never sends more than its budget', async () => {
    const { sender } = harness([], { budget: 2 })
    await sender.send(list)
    await sender.send(list)
    await expect(sender.send(list)).rejects.toThrow(new BudgetSpent("the run's 2 requests are spent"))
    expect(sender.sent).toBe(2)
  })

  it('waits out the Retry-After of a 429 it asked for before the next request, and does not retry it', async () => {
    const { sender, log } = harness([{ status: 429, headers: { 'retry-after': '7' } }])
    const refused = await sender.send({ ...list, expectsLimit: true })
    expect(refused.status).toBe(429)
    await sender.send(list)
    expect(log).toEqual(['GET http://api.test/v1/pets?limit=1', 'sleep 7000', 'GET http://api.test/v1/pets?limit=1'])
  })

  it('waits only what is left of a Retry-After', async () => {
    const { sender, log, advance } = harness([{ status: 503, headers: { 'retry-after': '7' } }])
    await sender.send(list)
    advance(2_000)
    await sender.send(list)
    expect(log.filter((line) => line.startsWith('sleep'))).toEqual(['sleep 5000'])
  })

  it('retries a 429 it did not ask for after its Retry-After, while retries and budget remain', async () => {
    const tooMany = { status: 429, headers: { 'retry-after': '3' } }
    const { sender, log } = harness([tooMany, tooMany, tooMany])
    const answer = await sender.send(list)
    expect(answer.status).toBe(429)
    expect(log.filter((line) => line.startsWith('sleep'))).toEqual(['sleep 3000', 'sleep 3000'])
    expect(sender.sent).toBe(3)
    // The retries are spent: the next 429 is not retried.
    const again = harness([tooMany, tooMany], { retries: 2, budget: 2 })
    expect((await again.sender.send(list)).status).toBe(429)
    expect(again.sender.sent).toBe(2)
  })

  it('does not retry a 503, nor a 429 without Retry-After', async () => {
    const first = harness([{ status: 503, headers: { 'retry-after': '1' } }])
    expect((await first.sender.send(list)).status).toBe(503)
    expect(first.sender.sent).toBe(1)
    const second = harness([{ status: 429 }])
    expect((await second.sender.send(list)).status).toBe(429)
    expect(second.sender.sent).toBe(1)
  })

  it('backs off from 429s and 503s without Retry-After: 250 ms, doubling in a row, at most 8 s, and again from 250 after an answer', async () => {
    const busy = Array.from({ length: 7 }, (_, index) => ({ status: index % 2 === 0 ? 429 : 503 }))
    const { sender, log } = harness([...busy, { status: 200 }, { status: 503 }], { budget: 20 })
    for (let index = 0; index < 10; index++) await sender.send({ ...list, expectsLimit: true })
    expect(log.filter((line) => line.startsWith('sleep'))).toEqual([
      'sleep 250',
      'sleep 500',
      'sleep 1000',
      'sleep 2000',
      'sleep 4000',
      'sleep 8000',
      'sleep 8000',
      'sleep 250',
    ])
  })

  it('starts the backoff again after a Retry-After', async () => {
    const { sender, log } = harness([{ status: 503 }, { status: 503 }, { status: 503, headers: { 'retry-after': '1' } }, { status: 503 }])
    for (let index = 0; index < 5; index++) await sender.send(list)
    expect(log.filter((line) => line.startsWith('sleep'))).toEqual(['sleep 250', 'sleep 500', 'sleep 1000', 'sleep 250'])
  })

  it('stops sending when a Retry-After is longer than it may wait, every later send saying why', async () => {
    const { sender, log } = harness([{ status: 429, headers: { 'retry-after': '121' } }])
    expect((await sender.send(list)).status).toBe(429)
    const why = new RetryAfterTooLong('the target asked to wait 121 s (Retry-After), longer than the run waits (120 s)')
    await expect(sender.send(list)).rejects.toThrow(why)
    await expect(sender.send(list)).rejects.toThrow(why)
    expect(log).toEqual(['GET http://api.test/v1/pets?limit=1'])
  })

  it('waits a Retry-After of exactly the longest wait', async () => {
    const { sender, log } = harness([{ status: 503, headers: { 'retry-after': '120' } }])
    await sender.send(list)
    await sender.send(list)
    expect(log).toContain('sleep 120000')
  })

  it('sends nothing at or past its deadline, nor begins a wait that would end past it', async () => {
    const late = harness([], { deadline: t0, maxTimeLabelMs: 90_000 })
    await expect(late.sender.send(list)).rejects.toThrow(new RunOutOfTime('the run reached its time bound (90s, --max-time)'))
    expect(late.log).toEqual([])
    const waiting = harness([{ status: 503, headers: { 'retry-after': '60' } }], { deadline: t0 + 60_000 })
    await waiting.sender.send(list)
    await expect(waiting.sender.send(list)).rejects.toThrow(RunOutOfTime)
    expect(waiting.log.filter((line) => line.startsWith('sleep'))).toEqual([])
    const inTime = harness([{ status: 503, headers: { 'retry-after': '59' } }], { deadline: t0 + 60_000 })
    await inTime.sender.send(list)
    await inTime.sender.send(list)
    expect(inTime.log).toContain('sleep 59000')
  })

  it('gives a request what is left of the run when that is less than its timeout, and says the run is out of time', async () => {
    const never = (_url: string, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))
    const short = harness([], { deadline: t0 + 20, timeoutMs: 10_000, maxTimeLabelMs: 1500, fetch: never })
    await expect(short.sender.send(list)).rejects.toThrow(new RunOutOfTime('the run reached its time bound (1500ms, --max-time)'))
    const slow = harness([], { timeoutMs: 20, fetch: never })
    // The run's first request with no answer in time: the target is unreachable (issue 31, item 4), said once with its cause.
    await expect(slow.sender.send(list)).rejects.toThrow(
      new TargetUnreachable('cannot reach api.test:80: no answer within 20 ms (timeout)'),
    )
  })

  it('reports a request the target did not answer', async () => {
    const { sender } = harness([], {
      fetch: async () => {
        throw new TypeError('fetch failed')
      },
    })
    const error = await sender.send(list).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(NoAnswer)
    expect(error).not.toBeInstanceOf(AnswerTooLarge)
    expect((error as Error).message).toBe('GET http://api.test/v1/pets?limit=1: fetch failed')
  })

  it('reads a body of exactly maxBodyBytes, and stops one byte over, naming the cap', async () => {
    const exact = harness([{ status: 200, body: new Uint8Array(1024).fill(0x61) }])
    expect((await exact.sender.send(list)).bodyText).toBe('a'.repeat(1024))
    const over = harness([{ status: 200, body: new Uint8Array(1025).fill(0x61) }])
    await expect(over.sender.send(list)).rejects.toThrow(
      new AnswerTooLarge(
        'GET http://api.test/v1/pets?limit=1: the response body exceeded the read cap of 1 KiB (--max-body); the rest was not read',
      ),
    )
  })

  it('decodes UTF-8 split across chunks', async () => {
    const bytes = new TextEncoder().encode('"é€😀"')
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]))
        controller.close()
      },
    })
    const { sender } = harness([], { fetch: async () => new Response(stream) })
    expect((await sender.send(list)).json).toBe('é€😀')
  })
})

describe('the units in messages', () => {
  it.each([
    [1024 * 1024, '1 MiB'],
    [3 * 1024 * 1024, '3 MiB'],
    [1024 * 1024 + 1024, '1025 KiB'],
    [1024, '1 KiB'],
    [1025, '1025 bytes'],
    [1023, '1023 bytes'],
    [300, '300 bytes'],
  ])('formatBytes(%i) is %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text)
  })

  it.each([
    [600_000, '10m'],
    [60_000, '1m'],
    [90_000, '90s'],
    [1000, '1s'],
    [1500, '1500ms'],
    [999, '999ms'],
  ])('formatMs(%i) is %s', (milliseconds, text) => {
    expect(formatMs(milliseconds)).toBe(text)
  })
})

describe('Retry-After (RFC 9110 §10.2.3)', () => {
  const now = Date.parse('2030-06-15T10:00:00.000Z')
  it.each([
    ['0', 0],
    ['7', 7],
    [' 7 ', 7],
    ['999999999', 999_999_999],
    ['Sat, 15 Jun 2030 10:01:00 GMT', 60],
    ['Sat, 15 Jun 2030 10:00:00 GMT', 0],
    ['Sat, 15 Jun 2030 09:00:00 GMT', 0],
    ['Sat, 15 Jun 2030 10:00:01 GMT', 1],
  ])('reads %j as %i s', (value, seconds) => {
    expect(retryAfterSeconds(value, now + (value.includes('10:00:01') ? 500 : 0))).toBe(seconds)
  })

  it.each([
    '',
    'soon',
    '-1',
    '1.5',
    '1e3',
    '1000000000',
    'Sat, 15 Jun 2030 10:01:00',
    'Saturday, 15-Jun-30 10:01:00 GMT',
    '2030-06-15T10:01:00Z',
    'xSat, 15 Jun 2030 10:01:00 GMT',
    'Sat, 15 Jun 2030 10:01:00 GMTx',
    'Sat, 45 Foo 2030 10:01:00 GMT',
  ])('refuses %j', (value) => {
    expect(retryAfterSeconds(value, now)).toBeUndefined()
  })
})
