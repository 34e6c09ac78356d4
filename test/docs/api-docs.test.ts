import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { entryPoints, reportExports, reportFolder } from '../packaging/api-report.ts'

// Issue #38, item 1: docs/api.md lists every export of every entry point, with its kind, and nothing else. The API
// reports (api-report/*.api.md, checked against the build by test/packaging/api-report.test.ts) are the one list of
// what each entry exports; this keeps the page's tables equal to them, and the reports' values equal to what each
// entry's module really holds at run time.

const root = fileURLToPath(new URL('../..', import.meta.url))
const read = (file: string) => readFileSync(join(root, file), 'utf8')
const sources: Record<string, () => Promise<Record<string, unknown>>> = {
  'petstore-sim': () => import('../../src/index.ts'),
  'petstore-sim/node': () => import('../../src/node.ts'),
  'petstore-sim/verify': () => import('../../src/verify.ts'),
  'petstore-sim/playwright': () => import('../../src/playwright.ts'),
}
const valueKinds = new Set(['function', 'const', 'class', 'enum'])

/** The table under `## \`<specifier>\`` in docs/api.md, as name and kind, in the page's order. */
function documented(page: string, specifier: string): Array<{ name: string; kind: string }> {
  const text = `\n${page}`
  const start = text.indexOf(`\n## \`${specifier}\`\n`)
  expect(start, `docs/api.md has a section ## \`${specifier}\``).toBeGreaterThanOrEqual(0)
  const rest = text
    .slice(start + 1)
    .split('\n')
    .slice(1)
  const end = rest.findIndex((line) => line.startsWith('## '))
  return (end === -1 ? rest : rest.slice(0, end))
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(2, -2).split(' | '))
    .map(([name, kind]) => ({ name: name!.replaceAll('`', ''), kind: kind! }))
}

/** A report's exports, one per name, its kinds joined (`StandardSchemaV1` is an interface and a namespace). */
function declared(specifier: string): Array<{ name: string; kind: string }> {
  const entry = entryPoints().find((candidate) => candidate.specifier === specifier)!
  const kinds = new Map<string, string[]>()
  for (const { name, kind } of reportExports(read(`${reportFolder}/${entry.report}`))) kinds.set(name, [...(kinds.get(name) ?? []), kind])
  return [...kinds].map(([name, nameKinds]) => ({ name, kind: nameKinds.join(', ') }))
}

const byName = (rows: Array<{ name: string; kind: string }>) => rows.toSorted((a, b) => a.name.localeCompare(b.name))

describe('docs/api.md', () => {
  it('has a section for each entry point of package.json exports, and the docs index links it', () => {
    expect(entryPoints().map((entry) => entry.specifier)).toEqual(Object.keys(sources))
    expect(read('docs/README.md')).toContain('(api.md)')
  })

  it.each(Object.keys(sources))('lists every export of %s with its kind, once, and no other', (specifier) => {
    const rows = documented(read('docs/api.md'), specifier)
    expect(new Set(rows.map((row) => row.name)).size, 'a name listed twice').toBe(rows.length)
    expect(byName(rows)).toEqual(byName(declared(specifier)))
  })

  it.each(Object.keys(sources))('has in its report the values %s holds at run time, and no other', async (specifier) => {
    const values = declared(specifier).filter((row) => row.kind.split(', ').some((kind) => valueKinds.has(kind)))
    expect(
      values.map((row) => row.name).toSorted(),
      'a value of the module missing from its report, or one the report declares that it does not hold',
    ).toEqual(Object.keys(await sources[specifier]!()).toSorted())
  })

  it('tells a missing export from a listed one (the check above can fail)', () => {
    const page = [
      '## `petstore-sim`',
      '',
      '| name | kind | what | page |',
      '| --- | --- | --- | --- |',
      '| `createSimulator` | function | x | y |',
    ].join('\n')
    expect(byName(documented(page, 'petstore-sim'))).not.toEqual(byName(declared('petstore-sim')))
    expect(documented(page, 'petstore-sim')).toEqual([{ name: 'createSimulator', kind: 'function' }])
  })
})
