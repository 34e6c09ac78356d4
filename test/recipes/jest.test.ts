import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Issue #20, item 3: the Jest recipe of docs/recipes.md (test/recipes/jest/), run by Jest itself in a child process,
// once on msw 3 and once on msw 2 (the msw-2-latest alias). A standard ts-jest set-up fails on both ("Must use import
// to load ES Module", on msw 3 itself and on msw 2's rettime); the recipe runs the ES modules as they are. Needs the
// build (dist/lib), as `npm test` makes it first. Bounded: the child is killed after 120 s.

const root = fileURLToPath(new URL('../..', import.meta.url))
const jestBin = fileURLToPath(import.meta.resolve('jest/bin/jest'))
// The recipe's own file, as docs/recipes.md shows it (JavaScript: no declarations for tsc to find).
const configUrl = new URL('./jest/jest.config.js', import.meta.url).href
const { default: config } = (await import(configUrl)) as { default: Record<string, unknown> }

const lanes = {
  'msw 3': { package: 'msw', extension: 'js' },
  'msw 2': { package: 'msw-2-latest', extension: 'mjs' },
} as const

function runJest(mswPackage: string, extension: string): Promise<{ code: number | null; output: string }> {
  const lib = (entry: string) => `${root}node_modules/${mswPackage}/lib/${entry}/index.${extension}`
  // The recipe's config, plus what a fixture inside this repository needs: its own name for the test file (so that
  // Vitest leaves it alone), petstore-sim resolved to the build (a user has it in node_modules), and msw to the major
  // under test, for the test file and the package alike.
  const runConfig = {
    ...config,
    rootDir: `${root}test/recipes/jest`,
    testMatch: ['**/*.jest.js'],
    moduleNameMapper: { '^petstore-sim$': `${root}dist/lib/index.js`, '^msw$': lib('core'), '^msw/node$': lib('node') },
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [jestBin, '--ci', '--config', JSON.stringify(runConfig)], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
  })
}

describe('the Jest recipe', () => {
  it('is the one docs/recipes.md shows', () => {
    const page = readFileSync(`${root}docs/recipes.md`, 'utf8')
    const block = (firstLine: string) => {
      const match = new RegExp(`^\`\`\`js\n${firstLine}[^\n]*\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(page)
      expect(match, firstLine).not.toBeNull()
      return match![1]!
    }
    expect(readFileSync(`${root}test/recipes/jest/pets.jest.js`, 'utf8')).toContain(block('// pets.test.js'))
    expect(readFileSync(`${root}test/recipes/jest/jest.config.js`, 'utf8')).toContain(block('// jest.config.js'))
  })

  for (const [major, { package: mswPackage, extension }] of Object.entries(lanes)) {
    it(`passes under Jest on ${major}`, async () => {
      const { code, output } = await runJest(mswPackage, extension)
      expect(output).toContain('Tests:       3 passed, 3 total')
      expect(output, output).toContain(`node_modules/${mswPackage}/`)
      expect(code, output).toBe(0)
    }, 150_000)
  }
})
