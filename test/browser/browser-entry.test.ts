import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importGraph } from '../support/import-graph.ts'

const srcDir = fileURLToPath(new URL('../../src/', import.meta.url))
/** Packages the browser entry may import: all run in browsers as they are. */
// zod/mini and faker's main entry (SimpleFaker) are bundled into the package; both run in browsers (test/browser/browser.test.ts).
const browserSafePackages = ['msw', 'zod/mini', 'zod/locales', '@faker-js/faker']

describe('the browser entry (petstore-sim, src/index.ts)', () => {
  const graph = importGraph(resolve(srcDir, 'index.ts'))

  it('reaches the core, the handlers and the app', () => {
    const files = [...graph.keys()].map((file) => file.slice(srcDir.length))
    expect(files).toEqual(
      expect.arrayContaining([
        'index.ts',
        'simulator.ts',
        'core/access/rate-limiter.ts',
        'core/pipeline/api-pipeline.ts',
        'handlers/api-handlers.ts',
        'app/app.ts',
      ]),
    )
  })

  it('imports nothing Node-only: no node: modules, no node/ or cli/ sources, only browser-safe packages', () => {
    const offending: string[] = []
    for (const [file, specifiers] of graph) {
      for (const specifier of specifiers) {
        const nodeOnly =
          specifier.startsWith('node:') ||
          /(^|\/)(node|cli)\//.test(specifier) ||
          (!specifier.startsWith('.') && !browserSafePackages.includes(specifier))
        if (nodeOnly) offending.push(`${file.slice(srcDir.length)} imports ${specifier}`)
      }
    }
    expect(offending).toEqual([])
  })

  it('keeps the pure core free of msw and node', () => {
    const coreImports = [...graph].filter(([file]) => file.includes('/core/')).flatMap(([, specifiers]) => specifiers)
    expect(coreImports.filter((specifier) => specifier === 'msw' || specifier.startsWith('node:'))).toEqual([])
  })
})

describe('the built browser entry (exports["."].browser)', () => {
  it('imports only browser-safe packages, through every chunk', () => {
    const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    const entry = fileURLToPath(new URL(`../../${packageJson.exports['.'].browser}`, import.meta.url))
    const seen = new Set<string>()
    const external = new Set<string>()
    const pending = [entry]
    while (pending.length > 0) {
      const file = pending.pop()!
      if (seen.has(file)) continue
      seen.add(file)
      for (const match of readFileSync(file, 'utf8').matchAll(
        /\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s*["']([^"']+)["']/g,
      )) {
        const specifier = match[1] ?? match[2] ?? match[3]!
        if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier))
        else external.add(specifier)
      }
    }
    expect([...external].filter((specifier) => !browserSafePackages.includes(specifier))).toEqual([])
    expect(external.has('msw')).toBe(true)
  })
})
