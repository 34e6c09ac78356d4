import { describe, expect, it } from 'vitest'
import { createManualClock } from '../../src/core/time/clock.ts'
import { renderReport } from '../../src/verify/reporters.ts'
import type { VerifyWait } from '../../src/verify/request-budget.ts'
import { verify, type VerifyOptions } from '../../src/verify/verify-runner.ts'
import { closedPort } from '../support/closed-port.ts'

// Issue 31, item 4: against a target that is not there verify printed 17 failures of "fetch failed" with no
// ECONNREFUSED; with --limits it sat silent for 39 s, and an unrequested 429 paused a run without a word.
// Loopback only: servers on 127.0.0.1, port 0. The same through the real CLI: verify-cli-unreachable-waits.test.ts
// (the fast layer starts no process).

const key = 'front-door-key'

describe('verify against a target that is not there', () => {
  it('reports a refused connection once, with its cause, and stops after the first request', async () => {
    const port = await closedPort()
    const report = await verify({ baseUrl: `http://127.0.0.1:${port}/v1`, key, timeoutMs: 5000 })
    expect(report.unreachable).toBe(`cannot connect to 127.0.0.1:${port} (ECONNREFUSED)`)
    expect(report.requests).toBe(1)
    expect(report.checks.filter((check) => check.outcome === 'fail').map((check) => check.id)).toEqual(['auth.missing-key'])
    expect(report.failed).toBe(1)
    expect(report.checks.filter((check) => check.outcome === 'skip').every((check) => check.reason?.startsWith('not run: '))).toBe(true)
    const pretty = renderReport(report, 'pretty')
    expect(pretty.split(`cannot connect to 127.0.0.1:${port} (ECONNREFUSED)`)).toHaveLength(2)
    expect(pretty).not.toContain('fetch failed')
    expect(pretty).toContain('FAILED: the target cannot be reached')
  })

  it('names a name that does not resolve (ENOTFOUND), as fetch reports it', async () => {
    let calls = 0
    const report = await verify({
      baseUrl: 'http://api.no-such-host.test/v1',
      key,
      fetch: async () => {
        calls++
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo ENOTFOUND api.no-such-host.test'), { code: 'ENOTFOUND' }),
        })
      },
    })
    expect(calls).toBe(1)
    expect(report.unreachable).toBe('cannot connect to api.no-such-host.test:80 (ENOTFOUND)')
  })

  it('stops at a first request that gets no answer in time, naming the timeout', async () => {
    let calls = 0
    const report = await verify({
      baseUrl: 'http://api.test/v1',
      key,
      timeoutMs: 40,
      fetch: (_input, init) => {
        calls++
        return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))
      },
    })
    expect(calls).toBe(1)
    expect(report.unreachable).toBe('cannot reach api.test:80: no answer within 40 ms (timeout)')
  })
})

describe('verify says what it waits for', () => {
  function onManualClock(answer: (request: Request) => Response | Promise<Response>, extra: Partial<VerifyOptions> = {}) {
    const clock = createManualClock('2026-11-24T10:00:05.000Z')
    const log: string[] = []
    const options: VerifyOptions = {
      baseUrl: 'http://api.test/v1',
      key,
      clock,
      sleep: async (milliseconds) => {
        log.push(`sleep ${milliseconds}`)
        clock.advance(milliseconds)
      },
      onWait: (wait: VerifyWait) => log.push(`wait ${wait.milliseconds}: ${wait.reason}`),
      fetch: async (input, init) => answer(new Request(input, init)),
      ...extra,
    }
    return { clock, log, options }
  }

  it('announces each wait before it begins: a Retry-After, with the answer that asked for it; a backoff, with why', async () => {
    let calls = 0
    const { log, options } = onManualClock(() => {
      calls++
      if (calls === 2) return new Response('{}', { status: 429, headers: { 'retry-after': '39' } })
      if (calls === 3) return new Response('{}', { status: 503 })
      return Response.json({ code: 'unauthorized', message: 'no', status: 401 }, { status: 401 })
    })
    await verify(options)
    const retryAfter = log.indexOf("wait 39000: the target's Retry-After: 39 s (429 on GET /v1/pets)")
    expect(retryAfter).toBeGreaterThan(-1)
    expect(log[retryAfter + 1]).toBe('sleep 39000')
    expect(log).toContain('wait 250: a backoff: the target answered 503 without Retry-After (1 in a row)')
    // Every sleep was announced, with the same length, just before.
    for (const [index, line] of log.entries()) {
      if (line.startsWith('sleep ')) expect(log[index - 1]).toMatch(new RegExp(`^wait ${line.slice(6)}: `))
    }
  })
})
