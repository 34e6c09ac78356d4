import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Issue 37: the pages npm installs (README.md and docs/*.md, package.json `files`) pointed at src/, test/ and `npm run`
// scripts of a repository the package does not name (it has no public URL to give as `repository`). A reader of
// node_modules/petstore-sim has none of them: those pointers (and the developers' figures that went with them) belong
// in CONTRIBUTING.md. A user's own paths and scripts in a recipe (`src/mocks/…`, `npm run dev`) are theirs, and stay.

const root = fileURLToPath(new URL('../..', import.meta.url))
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
const installedPages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** Files of the repository that the package does not ship, named at the root. */
const repositoryFiles = ['CONTRIBUTING.md', 'rolldown.config.ts', 'stryker.config.json', 'knip.json', 'biome.json']

/** What a page says of the repository that an installed package does not have. */
function repositoryPointers(text: string): string[] {
  const found: string[] = []
  for (const [, script] of text.matchAll(/\bnpm run ([\w:-]+)/g)) if (script! in packageJson.scripts) found.push(`npm run ${script}`)
  for (const [path] of text.matchAll(/(?<![\w.@/~-])(?:src|test|\.ci)\/[\w./-]*/g)) {
    // A path of the repository: it is there (a user's `src/mocks/browser.ts` is not).
    if (existsSync(join(root, path.replace(/[.,]+$/, '')))) found.push(path)
  }
  for (const file of repositoryFiles) if (text.includes(file)) found.push(file)
  return found
}

describe('the installed pages', () => {
  it.each(installedPages)('name no path or script of the repository (%s)', (page) => {
    expect(repositoryPointers(readFileSync(join(root, page), 'utf8'))).toEqual([])
  })

  it("finds the repository's own, and leaves a user's", () => {
    const text =
      'Run `npm run bench`, read `src/core/journal/request-journal.ts` and test/recipes/, see CONTRIBUTING.md. ' +
      'Yours: `npm run dev`, `npm run e2e`, src/mocks/handlers.ts, http://petstore.test/v1, tests/api.test.ts.'
    expect(repositoryPointers(text)).toEqual(['npm run bench', 'src/core/journal/request-journal.ts', 'test/recipes/', 'CONTRIBUTING.md'])
  })
})
