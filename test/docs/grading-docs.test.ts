import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { clientRules } from '../../src/core/grading/client-rules.ts'

// docs/grading-clients.md's table of rules is the rule table (core/grading/client-rules.ts): the same ids, in the
// same order, each with its severity.
describe('docs/grading-clients.md', () => {
  it('lists every client rule with its severity, in the table order', () => {
    const page = readFileSync(new URL('../../docs/grading-clients.md', import.meta.url), 'utf8')
    const section = page.slice(page.indexOf('## The rules'), page.indexOf('## The report'))
    const rows = [...section.matchAll(/^\| `([a-z-]+)` \| (violation|advice) \|/gm)].map((match) => [match[1], match[2]])
    expect(rows).toEqual(Object.entries(clientRules).map(([id, rule]) => [id, rule.severity]))
  })
})
