import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../../src/simulator.ts'
import { gradeHar, harGradingLimits } from '../../../src/core/grading/har-grading.ts'

// `gradeHar`: the simulator's own HAR export graded to the report the simulator keeps; a recording made elsewhere
// timed by its own fields, its callers fingerprinted; hostile files refused with a message saying what is wrong.

async function traffic() {
  const simulator = createSimulator({ keys: { 'k-limited': 'enterprise:3/1000', 'k-pro': 'pro' }, pets: 3 })
  simulator.clock.set('2030-06-15T10:00:00Z')
  simulator.clock.freeze()
  const send = (path: string, key: string, init: RequestInit = {}) =>
    simulator.fetch(`/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } })
  for (let index = 0; index < 6; index++) await send('/pets?limit=1', 'k-limited')
  await send('/pets/1', 'k-pro')
  await send('/pets?limit=500', 'k-pro')
  simulator.clock.set('2031-01-01T00:00:00Z')
  await send('/pets/1', 'k-pro')
  await send('/pets', 'nope')
  return simulator
}

/** A browser's recording: no `_` fields, the key as sent, times in startedDateTime. */
function browserEntry(at: string, url: string, status: number, headers: Array<[string, string]> = [], key = 'secret-token') {
  return {
    startedDateTime: at,
    time: 12,
    request: { method: 'GET', url, headers: [{ name: 'Authorization', value: `Bearer ${key}` }] },
    response: { status, headers: headers.map(([name, value]) => ({ name, value })), content: { text: '' } },
  }
}

describe('gradeHar', () => {
  it("grades the simulator's own HAR export to the report the simulator keeps", async () => {
    const simulator = await traffic()
    const report = gradeHar(JSON.stringify(simulator.journal.toHar()))
    expect(report).toEqual(simulator.clientReport())
    expect(report.callers.map((grade) => grade.findings.map((finding) => finding.rule))).toEqual([
      ['retry-after-ignored', 'no-backoff'],
      ['deprecated-operation', 'removed-operation', 'invalid-request'],
      ['unauthenticated'],
    ])
  })

  it("grades a browser's recording by its own times, in the order sent, callers fingerprinted and never named by their key", () => {
    const har = {
      log: {
        version: '1.2',
        entries: [
          // Listed out of order: graded by startedDateTime.
          browserEntry('2030-06-15T10:00:01.000Z', 'https://api.example/v1/pets', 200),
          browserEntry('2030-06-15T10:00:00.000Z', 'https://api.example/v1/pets', 429, [['Retry-After', '2']]),
          browserEntry('2030-06-15T10:00:03.000Z', 'https://api.example/v1/pets/4', 200),
        ],
      },
    }
    const report = gradeHar(JSON.stringify(har))
    expect(report.callers).toHaveLength(1)
    expect(report.callers[0]!.caller).toMatch(/^key#[0-9a-f]{8}$/)
    expect(report.callers[0]!.findings.map((finding) => [finding.rule, finding.firstSequences])).toEqual([
      ['retry-after-ignored', [1]],
      ['deprecated-operation', [3]],
    ])
    expect(JSON.stringify(report)).not.toContain('secret-token')
  })

  it('refuses a file cut short, one that is not a HAR, and entries whose times or fields lie, saying which', () => {
    const good = JSON.stringify({ log: { entries: [browserEntry('2030-06-15T10:00:00Z', '/v1/pets', 200)] } })
    expect(() => gradeHar(good.slice(0, good.length - 7))).toThrow(/^not JSON \(.*\): a HAR file cut short, or not a HAR file$/)
    expect(() => gradeHar('{"log":{}}')).toThrow('not a HAR file: no log.entries array')
    expect(() => gradeHar('null')).toThrow('not a HAR file: no log.entries array')
    const lying = (change: Record<string, unknown>) =>
      JSON.stringify({ log: { entries: [{ ...browserEntry('2030-06-15T10:00:00Z', '/v1/pets', 200), ...change }] } })
    expect(() => gradeHar(lying({ startedDateTime: 'yesterday' }))).toThrow(
      'entry 0: startedDateTime "yesterday" is not an ISO 8601 time from 1970 to 9999',
    )
    expect(() => gradeHar(lying({ startedDateTime: '+275760-09-13T00:00:00.000Z' }))).toThrow(/entry 0: startedDateTime/)
    expect(() => gradeHar(lying({ time: -5 }))).toThrow('entry 0: time -5 is not a duration in ms')
    expect(() => gradeHar(lying({ response: { status: 'ok' } }))).toThrow(
      "entry 0: a request's method and url, and a response's status, are required",
    )
    expect(() => gradeHar(lying({ request: 7 }))).toThrow('entry 0: not a HAR entry (request and response objects)')
  })

  it('refuses nesting deeper than its bound before parsing, and more entries than its bound', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`
    expect(() => gradeHar(deep)).toThrow(
      `nested deeper than ${harGradingLimits.maxDepth} levels at character ${harGradingLimits.maxDepth}: not a HAR file`,
    )
    // Brackets inside strings are text, not nesting.
    const inText = JSON.stringify({
      log: { entries: [{ ...browserEntry('2030-06-15T10:00:00Z', '/v1/pets', 200), note: '[[[['.repeat(100) }] },
    })
    expect(gradeHar(inText).callers).toHaveLength(1)
    const many = `{"log":{"entries":[${Array.from({ length: harGradingLimits.maxEntries + 1 }, () => '0').join(',')}]}}`
    expect(() => gradeHar(many)).toThrow(
      `${harGradingLimits.maxEntries + 1} entries: at most ${harGradingLimits.maxEntries} are graded; split the recording`,
    )
  })
})
