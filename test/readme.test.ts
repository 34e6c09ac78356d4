import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createProgram } from '../src/cli/cli-options.ts'
import { errorCatalogue } from '../src/core/pipeline/error-codes.ts'

// The README is for users: these keep its tables true to the code.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const section = (heading: string) => {
  const start = readme.indexOf(`${heading}\n`)
  expect(start, heading).toBeGreaterThanOrEqual(0)
  const rest = readme.slice(start + heading.length + 1)
  const next = rest.search(/\n#{2,3} /)
  return next === -1 ? rest : rest.slice(0, next)
}
const tableRows = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
    .slice(1)
    .map((line) => line.slice(2, -2).split(' | '))

describe('README', () => {
  it('lists every error code with its status, and no other', () => {
    const rows = tableRows(section('## Error codes')).map(([code, status]) => [code!.replaceAll('`', ''), Number(status)])
    expect(rows).toEqual(Object.entries(errorCatalogue).map(([code, { status }]) => [code, status]))
  })

  it('lists every CLI flag with its environment variable and default', () => {
    const rows = tableRows(section('### Flags')).filter(([flag]) => !flag!.includes('--help'))
    const options = createProgram().options.filter((option) => !['--help', '--version'].includes(option.long!))
    expect(rows.map(([flag]) => flag!.replaceAll('`', ''))).toEqual(options.map((option) => option.flags))
    for (const [flag, env, fallback] of rows) {
      const option = options.find((candidate) => candidate.flags === flag!.replaceAll('`', ''))!
      expect(env!.replaceAll('`', '').split(' ')[0], flag).toBe(option.envVar)
      const documented = fallback!.replaceAll('`', '')
      const actual = option.defaultValueDescription ?? (option.defaultValue === undefined ? undefined : String(option.defaultValue))
      if (actual === undefined) expect(['—', 'none'], flag).toContain(documented)
      else
        expect(actual.startsWith(documented) || documented === actual, `${flag}: README says ${documented}, CLI says ${actual}`).toBe(true)
    }
  })
})
