import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Issue #20, item 4: the docs' TypeScript examples that import msw must type-check on msw 3 and on msw 2. msw 3's
// `onUnhandledFrame` alone does not on msw 2 (and msw 2 ignores it at run time). Each ```ts block of docs/*.md that
// imports msw is written out and checked with tsc, `msw` mapped to msw 3 and then to msw 2 (the msw-2-latest alias).
// Needs the build (dist/types), as `npm test` makes it first. Not docs/in-process-speed.md: its msw/experimental
// network is msw 3's alone, and says so.

const root = fileURLToPath(new URL('..', import.meta.url))
const pages = ['in-process.md', 'recipes.md', 'error-states.md']
const blocks = pages.flatMap((name) =>
  [...readFileSync(join(root, 'docs', name), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
    .map((match, index) => ({ name: `${name.replace(/\.md$/, '')}-${index}`, code: match[1]! }))
    .filter(({ code }) => /from 'msw(?:\/[a-z]+)?'/.test(code)),
)

const majors = {
  'msw 3': { package: 'msw', extension: 'd.ts' },
  'msw 2': { package: 'msw-2-latest', extension: 'd.mts' },
} as const

describe('the docs TypeScript examples that import msw', () => {
  it('are found (the in-process page and the recipes have some)', () => {
    expect(blocks.map((block) => block.name)).toEqual(expect.arrayContaining(['in-process-0', 'recipes-0', 'error-states-0']))
  })

  for (const [major, { package: mswPackage, extension }] of Object.entries(majors)) {
    it(`type-check on ${major}`, () => {
      // Under node_modules: ignored by git and the linters, and packages resolve from there as from the root.
      const dir = join(root, 'node_modules', '.cache', 'petstore-sim-doc-blocks', mswPackage)
      rmSync(dir, { recursive: true, force: true })
      mkdirSync(dir, { recursive: true })
      for (const block of blocks) writeFileSync(join(dir, `${block.name}.ts`), `${block.code}\nexport {}\n`)
      // What the error-states example imports from "your code".
      writeFileSync(
        join(dir, 'client.ts'),
        'export declare function fetchPetsWithRetry(baseUrl: string, key: string): Promise<unknown[]>\n',
      )
      const lib = (entry: string) => [join(root, 'node_modules', mswPackage, 'lib', entry, `index.${extension}`)]
      const config = {
        compilerOptions: {
          target: 'es2023',
          lib: ['es2023', 'dom', 'dom.iterable'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: ['node'],
          strict: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          noEmit: true,
          paths: {
            msw: lib('core'),
            'msw/node': lib('node'),
            'msw/browser': lib('browser'),
            'petstore-sim': [join(root, 'dist', 'types', 'src', 'index.d.ts')],
          },
        },
        include: ['*.ts'],
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
