import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { fingerprint } from '../../src/core/access/fingerprint.ts'
import { createManualClock } from '../../src/core/time/clock.ts'
import { renderReport, reporters } from '../../src/verify/reporters.ts'
import { verify, type VerifyOptions } from '../../src/verify/verify-runner.ts'

// Issue 26, `verify` against a hostile or broken target: an endless body took it to 1.5 GiB, 144 ESC bytes reached the
// terminal, an echoed key was printed, a 503 loop with Retry-After made a run take 36 s (36 min with 120), and a 429
// without Retry-After was asked again 3 ms later. Loopback only (127.0.0.1, port 0); every server loop is bounded.

const key = 'hostile-canary-key-7f3e1d'

/** What a terminal acts on: C0 but LF and TAB, DEL, C1, the line separators and the bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the raw control characters is the point
const rawControl = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
})

async function target(answer: (response: ServerResponse, authorization: string, request: IncomingMessage) => void): Promise<string> {
  const server = createServer((request, response) => answer(response, request.headers.authorization ?? '', request))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  // Endless answers hold their sockets: closing the server ends them.
  server.on('close', () => server.closeAllConnections())
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

function renderAll(report: Awaited<ReturnType<typeof verify>>): Record<string, string> {
  return Object.fromEntries(reporters.map((reporter) => [reporter, renderReport(report, reporter, { columns: 400 })]))
}

describe('verify against a hostile target', () => {
  it('stops reading a body at the cap, and fails the check saying so', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'x')
    let written = 0
    const baseUrl = await target((response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      // An endless body, bounded here at 64 MiB so that a runner that reads it all still ends.
      const pump = () => {
        while (written < 64 * 1024 * 1024 && response.write(chunk)) written += chunk.length
        if (written < 64 * 1024 * 1024 && !response.destroyed) response.once('drain', pump)
      }
      pump()
    })
    const report = await verify({ baseUrl, key, maxBodyBytes: 64 * 1024, timeoutMs: 5000 })
    const failed = report.checks.filter((check) => check.outcome === 'fail')
    expect(failed.length).toBeGreaterThan(0)
    expect(failed[0]!.reason).toContain('the response body exceeded the read cap of 64 KiB (--max-body)')
    expect(failed[0]!.expected).toBe('a body of at most 64 KiB')
    // Each of the run's requests stopped near the cap, not at the 64 MiB end.
    expect(written).toBeLessThan(report.requests * 8 * 1024 * 1024)
  })

  it('shows the control characters of an answer as escapes in every reporter', async () => {
    const hostile = '\u001b[2J\u001b]0;pwned\u0007\u001b]52;c;ZWNobyBoaQ==\u0007\u001b[32mOK\u009b31m\u007f\r\u202eevil\u2066'
    const baseUrl = await target((response) => {
      response.writeHead(500, { 'content-type': 'application/json', 'retry-after': 'x' })
      // Raw bytes in the body, as an attacker sends them (JSON.stringify would escape the C0 ones).
      response.end(`{"code":"${hostile}","status":500}`)
    })
    const report = await verify({ baseUrl, key, timeoutMs: 5000 })
    const outputs = renderAll(report)
    for (const [reporter, text] of Object.entries(outputs)) {
      expect(rawControl.exec(text), reporter).toBeNull()
    }
    expect(outputs.pretty).toContain('\\x1b[2J\\x1b]0;pwned\\x07')
    expect(outputs.pretty).toContain('\\x9b31m\\x7f\\x0d\\u202eevil\\u2066')
    expect(outputs.junit).toContain('\\x1b]52;c;ZWNobyBoaQ==\\x07')
    // The JSON report is still the report: parsed, it holds what the target sent.
    expect(JSON.stringify(JSON.parse(outputs.json!))).toContain(JSON.stringify(hostile).slice(1, -1))
  })

  it('reports an answer nested 30,000 deep as a failed check, without overflowing (issue 45)', async () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`
    const baseUrl = await target((response, _authorization, request) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      // A pet whose name nests deep, and a list that is one object nested deep: each described in a failure.
      response.end(
        request.url?.includes('/pets?') === true
          ? `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`
          : `{"id":1,"name":${deep},"categoryId":1}`,
      )
    })
    const report = await verify({ baseUrl, key, timeoutMs: 5000 })
    const failed = report.checks.filter((check) => check.outcome === 'fail')
    expect(failed.length).toBeGreaterThan(0)
    // Read as the JSON it is, and shown cut: not called 'not JSON' because a reviver overflowed on it.
    const reasons = failed.map((check) => check.reason ?? '').join('\n')
    expect(reasons).toContain('expected a JSON array of pets, got {"a":{"a":{"a":')
    expect(reasons).not.toContain('a body that is not JSON')
    expect(failed.map((check) => check.reason ?? '').join('\n')).not.toContain('call stack')
    for (const [reporter, text] of Object.entries(renderAll(report))) {
      expect([reporter, text.includes('call stack')]).toEqual([reporter, false])
      expect([reporter, text.length < 1024 * 1024]).toEqual([reporter, true])
    }
  })

  it('never prints the key, even when the target echoes it', async () => {
    const baseUrl = await target((response, authorization) => {
      response.writeHead(401, { 'content-type': 'application/json', 'x-ratelimit-limit': authorization, link: `<${authorization}>` })
      response.end(JSON.stringify({ code: authorization, message: `you sent ${authorization}`, status: 400 }))
    })
    const report = await verify({ baseUrl, key, timeoutMs: 5000 })
    const outputs = renderAll(report)
    for (const [reporter, text] of Object.entries(outputs)) {
      expect(text, reporter).not.toContain(key)
      expect(text, reporter).toContain(fingerprint(key))
    }
  })
})

describe("verify's waits", () => {
  /** A target answering every request with `answer`, on a manual clock: the run's sleeps are logged, not slept. */
  function fakeTarget(answer: () => Response) {
    const clock = createManualClock('2030-06-15T10:00:00.000Z')
    const sleeps: number[] = []
    const options = (extra: Partial<VerifyOptions> = {}): VerifyOptions => ({
      baseUrl: 'http://api.test/v1',
      key,
      clock,
      sleep: async (milliseconds) => {
        sleeps.push(milliseconds)
        clock.advance(milliseconds)
      },
      fetch: async () => answer(),
      ...extra,
    })
    return { clock, sleeps, options }
  }

  it('ends a run at --max-time when Retry-After keeps it waiting, and fails the checks left', async () => {
    const busy = () => new Response('{}', { status: 503, headers: { 'retry-after': '120' } })
    const { clock, sleeps, options } = fakeTarget(busy)
    const started = clock.now()
    const report = await verify(options({ maxTimeMs: 300_000 }))
    // 120 s waits fit twice in 5 minutes; the third would pass the bound and is not begun.
    expect(sleeps).toEqual([120_000, 120_000])
    expect(clock.now() - started).toBeLessThanOrEqual(300_000)
    const outOfTime = report.checks.filter((check) => check.reason === 'the run reached its time bound (5m, --max-time)')
    expect(outOfTime.length).toBeGreaterThan(0)
    expect(outOfTime.every((check) => check.outcome === 'fail')).toBe(true)
    expect(report.failed).toBeGreaterThan(0)
  })

  it('backs off from a 429 or 503 without Retry-After: 250 ms doubling, at most 8 s', async () => {
    const { sleeps, options } = fakeTarget(() => new Response('{}', { status: 503 }))
    await verify(options())
    expect(sleeps.slice(0, 7)).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000])
  })

  it('starts the backoff over after an answer that is not busy', async () => {
    let count = 0
    const { sleeps, options } = fakeTarget(() => {
      count++
      return new Response('{}', { status: count % 3 === 0 ? 200 : 429 })
    })
    await verify(options())
    expect(sleeps.slice(0, 4)).toEqual([250, 500, 250, 500])
  })
})
