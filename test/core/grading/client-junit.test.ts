import { describe, expect, it } from 'vitest'
import { clientReportJUnit } from '../../../src/core/grading/client-junit.ts'
import type { ClientReport } from '../../../src/core/grading/client-grader.ts'

const advice = { busiestMinute: 1, busiestDay: 1, smallestPlan: 'free' as const, shadow429s: { free: 0, pro: 0, business: 0 } }

describe('clientReportJUnit', () => {
  it('escapes what a caller or message holds, and drops characters XML cannot carry', () => {
    const report: ClientReport = {
      verdict: 'fail',
      violations: 1,
      advice: 1,
      forgottenCallers: 0,
      callers: [
        {
          caller: 'a<&>"\'\u0001b',
          plan: 'pro',
          requests: 2,
          firstSequence: 1,
          lastSequence: 2,
          verdict: 'fail',
          findings: [
            { rule: 'invalid-request', severity: 'violation', count: 1, firstSequences: [1], message: 'x < y & z' },
            { rule: 'deprecated-operation', severity: 'advice', count: 1, firstSequences: [2], message: 'use </system-out>' },
          ],
          planAdvice: advice,
        },
      ],
    }
    const xml = clientReportJUnit(report)
    expect(xml).toContain('<testcase classname="clients" name="a&lt;&amp;&gt;&quot;&apos;b (pro)">')
    expect(xml).toContain(
      '<failure type="client-rules" message="invalid-request">invalid-request: x &lt; y &amp; z (requests #1)</failure>',
    )
    expect(xml).toContain('<system-out>deprecated-operation: use &lt;/system-out&gt;</system-out>')
    expect(xml).not.toContain('\u0001')
  })

  it('is an empty suite for no callers', () => {
    const xml = clientReportJUnit({ verdict: 'pass', violations: 0, advice: 0, forgottenCallers: 0, callers: [] })
    expect(xml).toContain('<testsuite name="petstore-sim client report" tests="0" failures="0" errors="0" skipped="0">')
  })
})
