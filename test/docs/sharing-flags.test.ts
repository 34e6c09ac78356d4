import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { createProgram } from '../../src/cli/cli-options.ts'

// docs/sharing.md's table of the shared store's flags, kept true to the CLI: each flag is one the CLI has, with its
// environment variable and its default (docs/cli.md lists them all; this page explains these).
const text = readFileSync(new URL('../../docs/sharing.md', import.meta.url), 'utf8')

it('docs/sharing.md lists the store flags with the variables and defaults the CLI has', () => {
  const section = text.slice(text.indexOf('\n## The shared store\n'), text.indexOf('\n## When the store is out'))
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `--'))
    .map((line) =>
      line
        .slice(2, -2)
        .split(' | ')
        .map((cell) => cell.replaceAll('`', '')),
    )
  expect(rows.map(([flag]) => flag)).toEqual(['--store <url>', '--store-namespace <name>', '--store-timeout <ms>', '--store-wait <ms>'])
  const options = createProgram().options
  for (const [flag, env, fallback] of rows) {
    const option = options.find((candidate) => candidate.flags === flag)
    expect(option, `${flag}: not a flag of the CLI`).toBeDefined()
    expect(env, flag).toBe(option!.envVar)
    const actual = option!.defaultValueDescription ?? (option!.defaultValue === undefined ? undefined : String(option!.defaultValue))
    if (actual === undefined) expect(fallback, flag).toMatch(/^none/)
    else expect(fallback, flag).toBe(actual)
  }
})

it('docs/sharing.md names --workers with the variable the CLI reads', () => {
  const workers = createProgram().options.find((option) => option.long === '--workers')
  expect(workers, '--workers: not a flag of the CLI').toBeDefined()
  expect(text).toContain(`\`${workers!.flags}\` (\`${workers!.envVar}\`)`)
})
