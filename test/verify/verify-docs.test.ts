import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { createVerifyProgram } from '../../src/cli/verify-command.ts'
import { checkCatalogue, checkIds, type CheckDefinition } from '../../src/verify/check-catalogue.ts'
import { planVerification } from '../../src/verify/verify-runner.ts'

// docs/verify.md lists the checks; this keeps its table equal to the catalogue: per check, the spec's words it rests
// on and whether it is hard or advisory (issue 29).
it('docs/verify.md lists every check with its section, title, spec basis, kind and flag, and no other', () => {
  const page = readFileSync(new URL('../../docs/verify.md', import.meta.url), 'utf8')
  const start = page.indexOf('| id | spec section | what it checks | rests on (the spec says) | kind | runs |')
  expect(start).toBeGreaterThan(0)
  const rows = page
    .slice(start)
    .split('\n')
    .slice(2)
    .filter((line, index, lines) => line.startsWith('| ') && lines.slice(0, index).every((earlier) => earlier.startsWith('| ')))
    .map((line) => line.slice(2, -2).split(' | '))
  const expected = checkIds.map((id) => {
    const check: CheckDefinition = checkCatalogue[id]
    const kind = check.advisory === undefined ? 'hard' : `advisory: ${check.advisory}`
    return [`\`${id}\``, check.section, check.title, check.basis, kind, check.needs === undefined ? 'always' : `--${check.needs}`]
  })
  expect(rows).toEqual(expected)
})

// The options table of docs/verify.md, against the command's own flags and defaults (issue 26 added --max-time and --max-body).
it('docs/verify.md lists every verify flag with its default, and no other', () => {
  const page = readFileSync(new URL('../../docs/verify.md', import.meta.url), 'utf8')
  const table = page.slice(page.indexOf('| option | meaning | default |'))
  const rows = table
    .split('\n')
    .slice(2)
    .filter((line, index, lines) => line.startsWith('| ') && lines.slice(0, index).every((earlier) => earlier.startsWith('| ')))
    .map((line) => line.slice(2, -2).split(' | '))
    .filter(([flag]) => flag!.startsWith('`--'))
  const options = createVerifyProgram().options.filter((option) => option.long !== '--help')
  expect(rows.map(([flag]) => flag!.replaceAll('`', ''))).toEqual(options.map((option) => option.flags))
  for (const option of options) {
    const documented = rows.find(([flag]) => flag!.replaceAll('`', '') === option.flags)![2]!
    const actual = option.defaultValueDescription ?? (option.defaultValue === false ? 'off' : String(option.defaultValue ?? 'required'))
    if (option.long === '--out') continue
    expect(documented.replaceAll('`', '').startsWith(actual.split(' ')[0]!), `${option.flags}: ${documented} vs ${actual}`).toBe(true)
  }
})

// Issue #31, item 7: the page implied 22 requests (20 GETs and 2 retries) where verify announces 23.
it("docs/verify.md's request counts add up to what verify announces", () => {
  const page = readFileSync(new URL('../../docs/verify.md', import.meta.url), 'utf8')
  const announced = planVerification({}).requests
  expect(page).toContain(`petstore-sim verify: at most ${announced} requests to https://staging.api.animal-store.example/v1`)
  const reads =
    /By default it only reads: (\d+) GET requests \([^)]*\), a (\d+)(?:st|nd|rd|th) when a\s+rate-limit window ends between two of them, plus at most (\d+) retries[^:]*: (\d+) announced/.exec(
      page,
    )
  expect(reads, 'the default run, in "What it sends"').not.toBeNull()
  const [, gets, conditional, retried, total] = reads!.map(Number)
  expect([conditional, gets! + 1 + retried!, total]).toEqual([gets! + 1, announced, announced])
  const writes = /`--writes` adds the checks that \*\*create pets\*\* on the target \((\d+) more requests/.exec(page)
  expect(Number(writes![1])).toBe(planVerification({ writes: true }).requests - announced)
  expect(page).toContain(`in 29 of ${planVerification({ writes: true, limits: true }).requests} announced`)
})
