import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createProgram } from '../../src/cli/cli-options.ts'
import { errorCatalogue } from '../../src/core/http/error-catalogue.ts'
import { brokenLinks as brokenLinksUnder, relativeLinks as linksOf } from '../support/markdown-links.ts'

// The user docs (README.md, the front door, and the pages under docs/): these keep their tables true to the code and
// their links pointing somewhere.
const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (file: string) => readFileSync(join(root, file), 'utf8')
const docsPages = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)
const linkedFiles = ['README.md', 'CONTRIBUTING.md', 'src/README.md', ...docsPages]
// Pages other branches add in parallel (journal, verify, state, openapi-tools, faker): linked from the indexes
// already. Each must be missing until its branch is merged; then remove it here, and its links are checked like any.
const pendingPages: string[] = []

const section = (file: string, heading: string) => {
  const text = `\n${read(file)}`
  const start = text.indexOf(`\n${heading}\n`)
  expect(start, `${file}: ${heading}`).toBeGreaterThanOrEqual(0)
  const rest = text.slice(start + heading.length + 2)
  const next = rest.search(/\n#{1,3} /)
  return next === -1 ? rest : rest.slice(0, next)
}
const tableRows = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
    .slice(1)
    .map((line) => line.slice(2, -2).split(' | '))

const relativeLinks = (file: string) => linksOf(read(file))
/** The relative links of a page (its own text, or the one given) that lead to no file, or to no heading of theirs. */
const brokenLinks = (file: string, text = read(file)) => brokenLinksUnder(root, file, text, pendingPages)

describe('the user docs', () => {
  it('list every error code with its status, and no other (docs/error-codes.md)', () => {
    const rows = tableRows(section('docs/error-codes.md', '# Error codes')).map(([code, status]) => [
      code!.replaceAll('`', ''),
      Number(status),
    ])
    expect(rows).toEqual(Object.entries(errorCatalogue).map(([code, { status }]) => [code, status]))
  })

  it('list every CLI flag with its environment variable and default (docs/cli.md)', () => {
    const rows = tableRows(section('docs/cli.md', '## Flags')).filter(([flag]) => !flag!.includes('--help'))
    const options = createProgram().options.filter((option) => !['--help', '--version'].includes(option.long!))
    expect(rows.map(([flag]) => flag!.replaceAll('`', ''))).toEqual(options.map((option) => option.flags))
    for (const [flag, env, fallback] of rows) {
      const option = options.find((candidate) => candidate.flags === flag!.replaceAll('`', ''))!
      expect(env!.replaceAll('`', '').split(' ')[0], flag).toBe(option.envVar)
      const documented = fallback!.replaceAll('`', '')
      const actual = option.defaultValueDescription ?? (option.defaultValue === undefined ? undefined : String(option.defaultValue))
      if (actual === undefined) expect(['—', 'none'], flag).toContain(documented)
      else
        expect(actual.startsWith(documented) || documented === actual, `${flag}: docs/cli.md says ${documented}, CLI says ${actual}`).toBe(
          true,
        )
    }
  })

  it.each(linkedFiles)('link only to files that exist, and to headings those files have (%s)', (file) => {
    expect(brokenLinks(file)).toEqual([])
  })

  it('report a link to a missing file or heading, not one to a heading that is there (the check above can fail)', () => {
    const text = [
      '[a](missing.md) [b](rate-limits.md#no-such-heading) [c](../CONTRIBUTING.md#performance) [d](#flags) [e](#nope)',
      '[f](in-process.md#createsimulatoroptions) [g](dashboard.png) [h](https://example.com/x.md) [i](journal.md)',
      '```sh',
      '[j](in-code.md)',
      '```',
    ].join('\n')
    expect(brokenLinks('docs/cli.md', text)).toEqual([
      'missing.md: no file docs/missing.md',
      'rate-limits.md#no-such-heading: no heading #no-such-heading in docs/rate-limits.md',
      '#nope: no heading #nope in docs/cli.md',
    ])
  })

  it.each(pendingPages)('wait for %s from another branch (remove it from pendingPages once it exists)', (page) => {
    expect(existsSync(join(root, page)), `${page} exists now: remove it from pendingPages`).toBe(false)
  })

  it('index every page under docs/ in docs/README.md, and link each from the front page', () => {
    const indexed = relativeLinks('docs/README.md').map((target) => `docs/${target.split('#')[0]}`)
    const fromFrontPage = relativeLinks('README.md').map((target) => target.split('#')[0])
    for (const page of [...docsPages.filter((page) => page !== 'docs/README.md'), ...pendingPages]) {
      expect(indexed, page).toContain(page)
      expect(fromFrontPage, page).toContain(page)
    }
  })
})
