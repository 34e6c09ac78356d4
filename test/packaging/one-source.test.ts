import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** The code of a file without its comments (examples in JSDoc name the package's own entries). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
}

/** Every bare specifier a file imports (static or dynamic). */
function bareImports(source: string): string[] {
  return [
    ...withoutComments(source).matchAll(
      /\bfrom\s*["']([^"'.][^"']*)["']|\bimport\s*\(\s*["']([^"'.][^"']*)["']\s*\)|\bimport\s*["']([^"'.][^"']*)["']/g,
    ),
  ]
    .map((match) => match[1] ?? match[2] ?? match[3]!)
    .filter((specifier) => !specifier.startsWith('node:'))
}

/** Every bare specifier a CommonJS file requires. */
function bareRequires(source: string): string[] {
  return [...withoutComments(source).matchAll(/\brequire\(\s*["']([^"'.][^"']*)["']\s*\)/g)]
    .map((match) => match[1]!)
    .filter((specifier) => !specifier.startsWith('node:'))
}

describe('one source of each dependency', () => {
  it('installs in the image the Redis client of the major the peer range names', () => {
    const major = /^\^(\d+)\.0\.0$/.exec(packageJson.peerDependencies.ioredis)?.[1]
    expect(major).toBeDefined()
    const install = /^RUN npm install [\s\S]*?&&/m.exec(readFileSync(join(root, 'Containerfile'), 'utf8'))?.[0] ?? ''
    expect(install.match(/\bioredis@\S+/g)).toEqual([`ioredis@${major}`])
  })

  it('bundles zod, faker, commander and yaml once into dist, so the package depends on its peers msw, ioredis and, for its fixture alone, @playwright/test', () => {
    // ioredis, the shared store's client (`--store`), is an optional peer: loaded on demand by the Node build only, and
    // installed only by the projects that use the store.
    expect(packageJson.dependencies).toBeUndefined()
    expect(Object.keys(packageJson.peerDependencies)).toEqual(['@playwright/test', 'ioredis', 'msw'])
    // @playwright/test: an optional peer, for the Playwright fixture (petstore-sim/playwright) alone.
    expect(packageJson.peerDependenciesMeta).toEqual({ '@playwright/test': { optional: true }, ioredis: { optional: true } })
    // The Node build (dist/lib, with zod.cjs and faker.cjs, loaded on demand) and the build for everywhere else.
    const files = ['dist/lib', 'dist/browser'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.c?js$/.test(file))
        .map((file) => join(root, dir, file)),
    )
    expect(files.some((file) => file.endsWith('zod.cjs'))).toBe(true)
    const imported = new Set(
      files.flatMap((file) => [...bareImports(readFileSync(file, 'utf8')), ...bareRequires(readFileSync(file, 'utf8'))]),
    )
    expect([...imported].filter((specifier) => !/^(msw(\/|$)|ioredis$|@playwright\/test$)/.test(specifier))).toEqual([])
    expect(files.filter((file) => bareImports(readFileSync(file, 'utf8')).includes('@playwright/test'))).toEqual([
      join(root, 'dist/lib/playwright.js'),
    ])
    const browserFiles = files.filter((file) => file.includes(`${join('dist', 'browser')}`))
    expect(browserFiles.filter((file) => bareImports(readFileSync(file, 'utf8')).includes('ioredis'))).toEqual([])
  })

  it('publishes type declarations that need no package but msw (Standard Schemas, not zod types; PetFaker, not faker types)', () => {
    const pending = [packageJson.exports['.'].types, packageJson.exports['./node'].types, packageJson.exports['./verify'].types].map(
      (path: string) => resolve(root, path),
    )
    const seen = new Set<string>()
    const external = new Set<string>()
    while (pending.length > 0) {
      const file = pending.pop()!
      if (seen.has(file)) continue
      seen.add(file)
      const source = withoutComments(readFileSync(file, 'utf8'))
      for (const match of source.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
        const specifier = match[1] ?? match[2]!
        if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier.replace(/\.ts$/, '.d.ts').replace(/\.js$/, '.d.ts')))
        else external.add(specifier)
      }
    }
    expect(seen.size).toBeGreaterThan(10)
    expect([...external].filter((specifier) => !/^(msw(\/|$)|node:)/.test(specifier))).toEqual([])
  })
})
