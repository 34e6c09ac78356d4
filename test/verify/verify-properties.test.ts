import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkIds } from '../../src/verify/check-catalogue.ts'
import { renderReport, reporters } from '../../src/verify/reporters.ts'
import { AnswerTooLarge, RequestSender } from '../../src/verify/request-budget.ts'
import { verify } from '../../src/verify/verify-runner.ts'

// Issue 26, part 4: the responses `verify` parses, under property-based tests. A loopback fake target answers every
// request with an arbitrary status, headers and body; verify never throws, always returns a full report whose
// reporters hold no raw control character nor the key, and never reads past its cap. Fixed seed, bounded runs.

const key = 'property-key-51c0d9e2'
const cap = 4096
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the raw control characters is the point
const rawControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

interface Answer {
  readonly status: number
  readonly headers: readonly (readonly [string, string])[]
  readonly body: string
}

let answer: Answer = { status: 200, headers: [], body: '' }
let server: Server
let baseUrl: string

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume()
    const { status, headers, body } = answer
    for (const [name, value] of headers) response.setHeader(name, value)
    response.writeHead(status)
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

const visibleAscii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 40 })
const headerName = fc.oneof(
  fc.constantFrom('content-type', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'deprecation', 'link'),
  fc.stringMatching(/^x-[a-z0-9-]{1,12}$/),
)
const headerValue = fc.oneof(visibleAscii, fc.constantFrom('0', '1', '-1', '1e9', 'NaN', key, `Bearer ${key}`, 'application/json'))
const body = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.json({ maxDepth: 3 }),
  fc.constantFrom(`{"code":"x","message":"${key}","status":401}`, '\u001b]52;c;aGk=\u0007\u001b[32mOK', '[]', '{}', 'null'),
  fc.integer({ min: 0, max: 3 * cap }).map((length) => 'x'.repeat(length)),
)
const answers: fc.Arbitrary<Answer> = fc.record({
  status: fc.integer({ min: 200, max: 599 }),
  headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }),
  body,
})

describe('verify on arbitrary answers', () => {
  it('always returns a whole report, with no raw control character and no key in any reporter', async () => {
    await fc.assert(
      fc.asyncProperty(answers, async (drawn) => {
        answer = drawn
        const report = await verify({ baseUrl, key, maxBodyBytes: cap, timeoutMs: 2000, maxTimeMs: 20_000, sleep: async () => {} })
        expect(report.checks.map((check) => check.id)).toEqual(checkIds)
        expect(report.requests).toBeLessThanOrEqual(report.budget)
        for (const reporter of reporters) {
          const text = renderReport(report, reporter)
          expect(rawControl.exec(text), reporter).toBeNull()
          expect(text, reporter).not.toContain(key)
        }
      }),
      { seed: 2026, numRuns: 25 },
    )
  }, 60_000)

  it('never reads past the cap: an answer is at most the cap, or the request fails saying so', async () => {
    await fc.assert(
      fc.asyncProperty(answers, async (drawn) => {
        answer = drawn
        const sender = new RequestSender({
          baseUrl,
          key,
          budget: 1,
          retries: 0,
          timeoutMs: 2000,
          maxWaitMs: 1000,
          maxBodyBytes: cap,
          deadline: Date.now() + 10_000,
          maxTimeLabelMs: 10_000,
          fetch: (input, init) => fetch(input, init),
          now: () => Date.now(),
          sleep: async () => {},
        })
        const size = Buffer.byteLength(drawn.body)
        try {
          const exchange = await sender.send({ method: 'GET', path: '/pets' })
          expect(size).toBeLessThanOrEqual(cap)
          expect(Buffer.byteLength(exchange.bodyText)).toBeLessThanOrEqual(cap)
        } catch (error) {
          expect(error).toBeInstanceOf(AnswerTooLarge)
          expect(size).toBeGreaterThan(cap)
        }
      }),
      { seed: 2026, numRuns: 60 },
    )
  }, 60_000)
})
