import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Issue #31, item 3: the node:test recipe the README promises (docs/recipes.md, test/recipes/node-test/), run by
// `node --test` itself in a child process (its tests in that process: --test-isolation=none), on msw 3 and on msw 2 (the msw-2-latest alias, through a resolve hook).
// petstore-sim resolves to the build (dist), as `npm test` makes it first. Bounded: the child is killed after 60 s.

const root = fileURLToPath(new URL('../..', import.meta.url))
const recipe = 'test/recipes/node-test/pets.node-test.ts'

function runNodeTest(extraArgs: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...extraArgs, '--test', '--test-isolation=none', '--test-reporter=spec', recipe], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

describe('the node:test recipe', () => {
  it('is the one docs/recipes.md shows', () => {
    const page = readFileSync(`${root}docs/recipes.md`, 'utf8')
    const block = /^```ts\n\/\/ pets\.test\.ts[^\n]*\n([\s\S]*?)^```$/m.exec(page)
    expect(block, 'the ```ts block of docs/recipes.md starting with // pets.test.ts').not.toBeNull()
    expect(readFileSync(`${root}${recipe}`, 'utf8')).toContain(block![1]!)
  })

  it.each([
    ['msw 3', [], 'msw'],
    ['msw 2', ['--import', './test/recipes/node-test/msw-2.mjs'], 'msw-2-latest'],
  ] as const)(
    'passes under node --test on %s',
    async (_major, args, mswPackage) => {
      const { code, output } = await runNodeTest([...args, '--import', './test/recipes/node-test/report-msw.mjs'])
      expect(output, output).toMatch(/ℹ tests 2\n/)
      expect(output).toMatch(/ℹ pass 2\n/)
      expect(output).toContain(`msw from node_modules/${mswPackage}/`)
      expect(code, output).toBe(0)
    },
    90_000,
  )
})
