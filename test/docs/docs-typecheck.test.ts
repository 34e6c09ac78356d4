import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { packPackage } from '../support/packed-package.ts'

// Issue #20, item 4, and issue #31, item 3: every TypeScript (and JavaScript, with checkJs) block of the README and of
// docs/*.md, as the packed package ships them, type-checks as written against the packed package's types, with a strict tsconfig, on msw 3 and
// on msw 2 (the msw-2-latest alias). The blocks that import msw 3's alone (`msw/experimental`) are checked on msw 3,
// as their page says. A block whose first line names its file (`// fixtures.ts`) is written as that file, so that the
// blocks that import it find it. Needs the build (dist), as `npm test` makes it first.

const root = fileURLToPath(new URL('../..', import.meta.url))
const packed = packPackage()
afterAll(() => packed.remove())

const pages = ['README.md', ...readdirSync(join(packed.packageDir, 'docs')).map((name) => `docs/${name}`)].filter((page) =>
  page.endsWith('.md'),
)
const blocks = pages.flatMap((page) =>
  [...readFileSync(join(packed.packageDir, page), 'utf8').matchAll(/^```(ts|js)\n([\s\S]*?)^```$/gm)].map((match, index) => {
    const code = match[2]!
    const named = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.[jt]s)\b/.exec(code)?.[1]
    const folder = page.replace(/\.md$/, '').replace('/', '-')
    // JavaScript apart: TypeScript leaves out a pets.test.js that sits next to a pets.test.ts (its output, it assumes).
    return { name: `${folder}/${match[1] === 'js' ? 'js/' : ''}${named ?? `block-${index}.${match[1]}`}`, code }
  }),
)

/**
 * What the blocks leave to the reader's own code, declared as that code would have them: the error-states example's
 * client, the express app of the CLI page, the Storybook story's `meta` and `definePreview` (from the reader's framework
 * package), a Playwright `page`, and `other`, another simulator.
 */
const readersCode = `import type { Express } from 'express'
import type { Page } from '@playwright/test'
import type { Simulator } from 'petstore-sim'
declare global {
  const expressApp: Express
  const page: Page
  const other: Simulator
  const meta: { story(input: { beforeEach?: (context: never) => void }): unknown }
  function definePreview(input: { addons: unknown[] }): unknown
}
export {}
`

const majors = {
  'msw 3': { package: 'msw', extension: 'd.ts' },
  'msw 2': { package: 'msw-2-latest', extension: 'd.mts' },
} as const

describe('the docs TypeScript blocks, from the packed package', () => {
  it('are found: the README, the in-process pages, the recipes, verify and the journal have some', () => {
    const folders = new Set(blocks.map((block) => block.name.split('/')[0]))
    for (const folder of [
      'README',
      'docs-in-process',
      'docs-in-process-speed',
      'docs-recipes',
      'docs-error-states',
      'docs-verify',
      'docs-journal',
    ])
      expect(folders, folder).toContain(folder)
    expect(blocks.map((block) => block.name)).toEqual(
      expect.arrayContaining(['docs-recipes/js/pets.test.js', 'docs-recipes/js/jest.config.js', 'docs-recipes/pets.test.ts']),
    )
  })

  for (const [major, { package: mswPackage, extension }] of Object.entries(majors)) {
    it(`type-check on ${major}, with a strict tsconfig`, () => {
      const dir = join(packed.project, mswPackage)
      for (const block of blocks.filter((block) => major === 'msw 3' || !/from 'msw\/experimental'/.test(block.code))) {
        mkdirSync(dirname(join(dir, block.name)), { recursive: true })
        writeFileSync(join(dir, block.name), `${block.code}\nexport {}\n`)
      }
      writeFileSync(join(dir, 'readers-code.d.ts'), readersCode)
      writeFileSync(
        join(dir, 'docs-error-states', 'client.ts'),
        'export declare function fetchPetsWithRetry(baseUrl: string, key: string): Promise<unknown[]>\n',
      )
      copyFileSync(join(root, 'test', 'recipes', 'animal-store.d.ts'), join(dir, 'docs-in-process-speed', 'animal-store.d.ts'))
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
      const lib = (entry: string) => [join(root, 'node_modules', mswPackage, 'lib', entry, `index.${extension}`)]
      const config = {
        compilerOptions: {
          target: 'es2023',
          lib: ['es2023', 'dom', 'dom.iterable'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: ['node'],
          strict: true,
          allowJs: true,
          checkJs: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          noEmit: true,
          paths: { msw: lib('core'), 'msw/node': lib('node'), 'msw/browser': lib('browser') },
        },
        include: ['**/*.ts', '**/*.js'],
      }
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config, null, 2))
      const result = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(dir, 'tsconfig.json')], {
        encoding: 'utf8',
        timeout: 120_000,
      })
      expect(`${result.stdout}${result.stderr}`.trim(), `tsc on ${major}`).toBe('')
      expect(result.status).toBe(0)
    }, 150_000)
  }
})
