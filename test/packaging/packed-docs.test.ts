// Issue #31, item 1: the docs a user reads in node_modules/petstore-sim are the tarball's, not the repository's. Six
// links were broken there (five to CONTRIBUTING.md, one to dashboard.png), though none was in the repository. Every
// Markdown page of the packed package is checked here: each relative link leads to a file the tarball holds, and each
// anchor to a heading of that page. Needs the build (dist), as `npm test` makes it first.
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { brokenLinks } from '../support/markdown-links.ts'
import { packPackage } from '../support/packed-package.ts'

const packed = packPackage()
afterAll(() => packed.remove())

const pages = (readdirSync(packed.packageDir, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.md'))
  .map((file) => relative(packed.packageDir, join(packed.packageDir, file)))
  .sort()

describe('the packed package', () => {
  it('holds the README and every page of docs/', () => {
    const docs = readdirSync(fileURLToPath(new URL('../../docs', import.meta.url))).filter((name) => name.endsWith('.md'))
    expect(pages).toEqual(expect.arrayContaining(['README.md', ...docs.map((name) => `docs/${name}`)]))
  })

  it.each(pages)('links only to files it ships, and to headings they have (%s)', (page) => {
    expect(brokenLinks(packed.packageDir, page)).toEqual([])
  })

  it('reports a link to a file the package does not ship (the check above can fail)', () => {
    const text = '[a](../CONTRIBUTING.md) [b](missing.png) [c](../README.md#install) [d](cli.md#no-such-heading) [e](../../x.md)'
    expect(brokenLinks(packed.packageDir, 'docs/cli.md', text)).toEqual([
      '../CONTRIBUTING.md: no file CONTRIBUTING.md',
      'missing.png: no file docs/missing.png',
      'cli.md#no-such-heading: no heading #no-such-heading in docs/cli.md',
      '../../x.md: no file ../x.md',
    ])
  })
})
