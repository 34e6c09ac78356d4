import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatPlan, parsePlan, planForms, standardPlans } from '../../src/core/access/plans.ts'

// The plans are declared once (src/core/access/plans.ts); the user docs list them by hand, so this keeps them true:
// the demo-key table is fixtures/demo-keys.json with each plan's limits, and every sentence or cell that lists the
// plans' text forms lists exactly planForms, in order.

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')
const demoKeys = JSON.parse(read('fixtures/demo-keys.json')) as Record<string, string>
const custom = '`enterprise:<perMinute>/<perDay>`'
const grouped = (count: number) => count.toLocaleString('en-US')

describe('the plans in the user docs', () => {
  it('show the demo keys with their plans and limits (docs/rate-limits.md)', () => {
    const section = read('docs/rate-limits.md').split('## Demo keys')[1]!.split('\n## ')[0]!
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.slice(2, -2).split(' | '))
    const expected = Object.entries(demoKeys).map(([token, text]) => {
      const plan = parsePlan(text)
      return [`\`${token}\``, plan.name, grouped(plan.perMinute), grouped(plan.perDay)]
    })
    expect(rows).toEqual(expected)
  })

  it.each(['docs/rate-limits.md', 'docs/cli.md', 'docs/in-process.md', 'docs/verify.md'])(
    'list exactly the plans where %s lists them',
    (page) => {
      const listing = read(page)
        .split('\n')
        .filter((line) => line.includes(custom))
      expect(listing.length).toBeGreaterThan(0)
      for (const line of listing) {
        // The list ends with the custom plan's form: what follows it (a default, say) is not part of it.
        const list = line.slice(0, line.indexOf(custom) + custom.length)
        const forms = [...list.matchAll(/`([a-z]+(?::<perMinute>\/<perDay>)?)`/g)]
          .map((match) => match[1])
          .filter((form) => planForms.includes(form!))
        expect(forms, line).toEqual(planForms)
      }
    },
  )

  it('have one text form per plan that parsePlan reads back', () => {
    for (const plan of Object.values(standardPlans)) expect(formatPlan(parsePlan(formatPlan(plan)))).toBe(plan.name)
    expect(planForms.map((form) => form.split(':')[0])).toEqual(Object.keys(demoKeys).map((token) => token.split('-')[1]))
  })
})
