import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../../src/simulator.ts'
import { createClientGrader } from '../../../src/core/grading/client-grader.ts'
import type { GradableRequest } from '../../../src/core/grading/gradable-request.ts'
import { clientRuleIds } from '../../../src/core/grading/client-rules.ts'
import { assertClientsCompliant } from '../../../src/client-assertion.ts'

// The grader against what a client sees: requests sent through `simulator.fetch` on a frozen clock moved by hand,
// so that "waited" is exactly the clock moves the test makes (docs/where-the-spec-is-silent.md).

const keys = { 'k-limited': 'enterprise:3/1000', 'k-pro': 'pro' }
const start = '2030-06-15T10:00:00Z'

function world() {
  const simulator = createSimulator({ keys, pets: 5 })
  simulator.clock.set(start)
  simulator.clock.freeze()
  /** `key` '' sends none. */
  const send = (path: string, key = 'k-limited', init: RequestInit = {}) =>
    simulator.fetch(`/v1${path}`, { ...init, headers: { ...(key === '' ? {} : { authorization: `Bearer ${key}` }), ...init.headers } })
  /** Sends until a 429, then returns its Retry-After in seconds. */
  const exhaust = async () => {
    for (let index = 0; index < 10; index++) {
      const response = await send('/pets?limit=1')
      if (response.status === 429) return Number(response.headers.get('retry-after'))
    }
    throw new Error('no 429')
  }
  const rules = () =>
    simulator
      .clientReport()
      .callers.flatMap((grade) => grade.findings.map((finding) => [grade.caller, finding.rule, finding.count] as const))
  return { simulator, send, exhaust, rules }
}

describe('the client report', () => {
  it('accuses no client that waits the full Retry-After each time', async () => {
    const { simulator, send, exhaust, rules } = world()
    for (let round = 0; round < 3; round++) {
      const retryAfter = await exhaust()
      simulator.clock.advance(retryAfter * 1000)
      expect((await send('/pets?limit=1')).status).toBe(200)
    }
    expect(rules()).toEqual([])
    const report = simulator.clientReport()
    expect(report.verdict).toBe('pass')
    expect(report.callers).toHaveLength(1)
    expect(report.callers[0]).toMatchObject({ plan: 'enterprise:3/1000', verdict: 'pass', requests: 13 })
    expect(report.callers[0]!.caller).toMatch(/^key#/)
  })

  it('accuses an immediate retry loop of ignoring Retry-After and of no backoff', async () => {
    const { simulator, send, exhaust, rules } = world()
    await exhaust()
    for (let retry = 0; retry < 4; retry++) expect((await send('/pets?limit=1')).status).toBe(429)
    const caller = simulator.clientReport().callers[0]!
    expect(rules().map(([, rule, count]) => [rule, count])).toEqual([
      ['retry-after-ignored', 4],
      ['no-backoff', 3],
    ])
    expect(caller.verdict).toBe('fail')
    // The first offending requests, by journal sequence: the 5th request (the 1st retry) on.
    expect(caller.findings[0]!.firstSequences).toEqual([5, 6, 7, 8])
    expect(caller.findings[0]!.message).toMatch(/Retry-After/)
    expect(simulator.clientReport().verdict).toBe('fail')
  })

  it('accuses a fixed short delay of no backoff, and exponential backoff short of Retry-After only of ignoring it', async () => {
    const fixed = world()
    await fixed.exhaust()
    for (let retry = 0; retry < 3; retry++) {
      fixed.simulator.clock.advance(100)
      await fixed.send('/pets?limit=1')
    }
    expect(fixed.rules().map(([, rule, count]) => [rule, count])).toEqual([
      ['retry-after-ignored', 3],
      ['no-backoff', 2],
    ])
    const exponential = world()
    await exponential.exhaust()
    for (const delay of [100, 200, 400, 800]) {
      exponential.simulator.clock.advance(delay)
      await exponential.send('/pets?limit=1')
    }
    expect(exponential.rules().map(([, rule, count]) => [rule, count])).toEqual([['retry-after-ignored', 4]])
  })

  it('accuses a client that hammers into a ban, for every request during it', async () => {
    const { send, exhaust, rules } = world()
    await exhaust()
    const statuses: string[] = []
    for (let retry = 0; retry < 14; retry++) statuses.push(((await (await send('/pets?limit=1')).json()) as { code: string }).code)
    const banned = statuses.filter((code) => code === 'api_key_banned').length
    expect(banned).toBeGreaterThan(0)
    expect(rules().map(([, rule, count]) => [rule, count])).toEqual([
      ['retry-after-ignored', 14],
      ['no-backoff', 13],
      ['banned', banned],
    ])
  })

  it('advises on getPet before its removal and accuses its use after', async () => {
    const { simulator, send, rules } = world()
    expect((await send('/pets/1', 'k-pro')).status).toBe(200)
    const advised = simulator.clientReport()
    expect(advised.verdict).toBe('pass')
    expect(advised.callers[0]!.findings[0]).toMatchObject({ rule: 'deprecated-operation', severity: 'advice', count: 1 })
    expect(advised.callers[0]!.findings[0]!.message).toContain('GET /pets?status=')
    simulator.clock.set('2030-12-05T00:00:00Z')
    expect((await send('/pets/1', 'k-pro')).status).toBe(410)
    expect(rules().map(([, rule, count]) => [rule, count])).toEqual([
      ['deprecated-operation', 1],
      ['removed-operation', 1],
    ])
    expect(simulator.clientReport().verdict).toBe('fail')
  })

  it('accuses malformed and unauthenticated requests, but not answers forced with Prefer', async () => {
    const { simulator, send } = world()
    expect((await send('/pets?limit=500', 'k-pro')).status).toBe(400)
    expect((await send('/pets?status=lost', 'k-pro')).status).toBe(400)
    expect((await send('/pets', 'k-pro', { headers: { prefer: 'code=400' } })).status).toBe(400)
    expect((await send('/pets', 'not-a-key')).status).toBe(401)
    expect((await send('/pets', '')).status).toBe(401)
    const report = simulator.clientReport()
    const byCaller = Object.fromEntries(
      report.callers.map((grade) => [grade.caller, grade.findings.map((finding) => [finding.rule, finding.count])]),
    )
    expect(Object.values(byCaller)).toEqual([[['invalid-request', 2]], [['unauthenticated', 2]]])
    expect(report.callers[1]).toMatchObject({ caller: 'anonymous', plan: 'anonymous', verdict: 'fail' })
    // No secret in the report: keys appear as the journal names them.
    expect(JSON.stringify(report)).not.toMatch(/k-pro|not-a-key/)
  })

  it('advises on retries after 5xx that do not slow down, and on a createPet sent again after a broken answer', async () => {
    const { simulator, send, rules } = world()
    simulator.faults.add({ operation: 'listPets', status: 503, times: 3 })
    for (let attempt = 0; attempt < 4; attempt++) await send('/pets', 'k-pro')
    simulator.faults.add({ operation: 'createPet', fault: 'truncate', times: 1 })
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 })
    const create = () => send('/pets', 'k-pro', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    await create().then((response) => response.text().catch(() => ''))
    expect((await create()).status).toBe(201)
    expect(rules().map(([, rule, count]) => [rule, count])).toEqual([
      ['retry-storm', 2],
      ['duplicate-create', 1],
    ])
    expect(simulator.clientReport().verdict).toBe('pass')
  })

  it('weighs each caller against the plan table: busiest minute and day, smallest plan, shadow 429s', async () => {
    const { simulator, send } = world()
    for (let index = 0; index < 70; index++) await send('/pets?limit=1', 'k-pro')
    simulator.clock.advance(60_000)
    for (let index = 0; index < 5; index++) await send('/pets?limit=1', 'k-pro')
    expect(simulator.clientReport().callers[0]!.planAdvice).toEqual({
      busiestMinute: 70,
      busiestDay: 75,
      smallestPlan: 'pro',
      shadow429s: { free: 10, pro: 0, business: 0 },
    })
  })

  it('leaves out what an ignore list names: a rule, or the requests a journal filter takes', async () => {
    const { simulator, send } = world()
    await send('/pets?limit=500', 'k-pro')
    await send('/pets', 'not-a-key')
    expect(simulator.clientReport({ ignore: [{ rule: 'invalid-request' }, { rule: 'unauthenticated' }] }).verdict).toBe('pass')
    const filtered = simulator.clientReport({ ignore: [{ filter: { query: { limit: '500' } } }] })
    expect(filtered.callers.map((grade) => grade.findings.map((finding) => finding.rule))).toEqual([[], ['unauthenticated']])
    expect(() => simulator.clientReport({ ignore: [{ rule: 'nope' as never }] })).toThrow(/Unknown client rule "nope"/)
    expect(() => simulator.clientReport({ ignore: [{}] })).toThrow(RangeError)
  })

  it('starts over when the journal does', async () => {
    const { simulator, send } = world()
    await send('/pets?limit=500', 'k-pro')
    simulator.reset()
    expect(simulator.clientReport().callers).toEqual([])
    await send('/pets', 'k-pro')
    simulator.journal.clear()
    expect(simulator.clientReport().callers).toEqual([])
  })
})

describe('the grader', () => {
  const request = (sequence: number, caller: string): GradableRequest => ({
    sequence,
    atMs: sequence,
    operation: 'listPets',
    status: 400,
    caller,
    plan: 'pro',
    forced: false,
    fault: false,
    retryDueAt: () => undefined,
    errorCode: () => undefined,
    requestBody: () => undefined,
  })

  it('keeps a bounded number of callers, the least recently seen forgotten first', () => {
    const grader = createClientGrader({ sunsetAt: Date.UTC(2030, 11, 5), maxCallers: 2 })
    grader.observe(request(1, 'a'))
    grader.observe(request(2, 'b'))
    grader.observe(request(3, 'a'))
    grader.observe(request(4, 'c'))
    const report = grader.report()
    expect(report.callers.map((grade) => grade.caller)).toEqual(['a', 'c'])
    expect(report.forgottenCallers).toBe(1)
  })

  it('keeps the first five offending sequence numbers of a finding and counts them all', () => {
    const grader = createClientGrader({ sunsetAt: 0, maxCallers: 10 })
    for (let sequence = 1; sequence <= 9; sequence++) grader.observe(request(sequence, 'a'))
    expect(grader.report().callers[0]!.findings[0]).toMatchObject({ rule: 'invalid-request', count: 9, firstSequences: [1, 2, 3, 4, 5] })
  })

  it('lists findings in the rule table order', () => {
    expect(clientRuleIds).toEqual([
      'retry-after-ignored',
      'no-backoff',
      'banned',
      'deprecated-operation',
      'removed-operation',
      'invalid-request',
      'unauthenticated',
      'retry-storm',
      'duplicate-create',
    ])
  })
})

describe('assertClientsCompliant', () => {
  it('throws an Error listing each violation on a line, the report as its cause; advice alone passes', async () => {
    const { simulator, send, exhaust } = world()
    await send('/pets/1', 'k-pro')
    expect(assertClientsCompliant(simulator.clientReport()).verdict).toBe('pass')
    await exhaust()
    await send('/pets?limit=1')
    let thrown: unknown
    try {
      assertClientsCompliant(simulator.clientReport())
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(Error)
    const message = (thrown as Error).message
    expect(message.split('\n')[0]).toBe("The client broke the spec's rules for clients (1 violation):")
    expect(message).toMatch(/^ {2}key#[0-9a-f]+ \(enterprise:3\/1000, 5 requests\):$/m)
    expect(message).toMatch(/^ {4}retry-after-ignored: 1 request: .*Retry-After.* \(requests #6\)$/m)
    expect(message).not.toContain('deprecated-operation')
    expect(message).not.toContain('k-limited')
    expect((thrown as Error).cause).toEqual(simulator.clientReport())
  })
})
