import { readFileSync } from 'node:fs'
import { relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importCycles, sourceImports } from '../support/import-graph.ts'
import { coreFloors } from './core-floors.ts'

// The core's folders are floors (test/architecture/core-floors.ts, bottom first): a core file imports from its own
// folder or from a lower floor, never upward. Nothing under src/ imports in a circle, type-only imports included. The
// core stays pure: no msw, no node:*. Runs in `npm run lint`.

const srcDir = fileURLToPath(new URL('../../src/', import.meta.url))
const imports = sourceImports(srcDir)
const fromSrc = (file: string) => relative(srcDir, file).split(sep).join('/')

/** A core file's floor: its folder under core/, or its own name for a file at the top of core/. */
function floorOf(file: string): string | undefined {
  const path = fromSrc(file)
  if (!path.startsWith('core/')) return undefined
  const [first, second] = path.slice('core/'.length).split('/')
  return second === undefined ? first : first
}

describe('the core, floor by floor', () => {
  const coreFiles = [...imports.keys()].filter((file) => floorOf(file) !== undefined)

  it('puts every core file on a declared floor', () => {
    expect(coreFiles.length).toBeGreaterThan(50)
    const floors: readonly string[] = coreFloors
    expect(coreFiles.filter((file) => !floors.includes(floorOf(file)!)).map(fromSrc)).toEqual([])
  })

  it('imports only from its own floor or below (0 upward imports)', () => {
    const upward: string[] = []
    for (const file of coreFiles) {
      const floor = coreFloors.indexOf(floorOf(file) as (typeof coreFloors)[number])
      for (const { target, specifier } of imports.get(file)!) {
        if (target === undefined) continue
        const targetFloor = floorOf(target)
        if (targetFloor === undefined) {
          // The core reads two data files from the package root, nothing else outside core/.
          if (!/\/(package|fixtures\/demo-keys)\.json$/.test(target)) upward.push(`${fromSrc(file)} imports ${specifier}, outside the core`)
          continue
        }
        if (coreFloors.indexOf(targetFloor as (typeof coreFloors)[number]) > floor) upward.push(`${fromSrc(file)} imports ${specifier}`)
      }
    }
    expect(upward).toEqual([])
  })

  it('imports no msw and no node:* module', () => {
    const impure = coreFiles.flatMap((file) =>
      imports
        .get(file)!
        .filter(({ specifier }) => /^msw(\/|$)/.test(specifier) || specifier.startsWith('node:'))
        .map(({ specifier }) => `${fromSrc(file)} imports ${specifier}`),
    )
    expect(impure).toEqual([])
  })

  it('is shown in src/README.md in the same order', () => {
    const map = readFileSync(new URL('README.md', `file://${srcDir}`), 'utf8')
    const shown = [...map.matchAll(/^\| (\d+) \| `([^`]+)` \|/gm)].map((match) => [Number(match[1]), match[2]!.replace(/\/$/, '')])
    expect(shown).toEqual(coreFloors.map((floor, index) => [index, floor]))
  })
})

describe('src/, file by file', () => {
  it('has no import cycle (type-only imports included)', () => {
    const graph = new Map(
      [...imports].map(([file, found]) => [file, found.flatMap(({ target }) => (target === undefined ? [] : [target]))]),
    )
    expect(importCycles(graph).map((cycle) => cycle.map(fromSrc).join(' -> '))).toEqual([])
  })

  it('finds what it checks: a test graph with a cycle has one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ])
    expect(importCycles(graph)).toEqual([['a', 'b', 'c']])
  })
})

describe("the dashboard's script (app/dashboard/script/), which runs in browsers", () => {
  const scriptDir = 'app/dashboard/script/'
  const scriptFiles = [...imports.keys()].filter((file) => fromSrc(file).startsWith(scriptDir))

  it('imports values from its own folder only, and from the core types alone (erased from its bundle)', () => {
    expect(scriptFiles.length).toBeGreaterThan(3)
    const outside = scriptFiles.flatMap((file) =>
      imports
        .get(file)!
        .filter(({ target, typeOnly }) => {
          const path = target === undefined ? undefined : fromSrc(target)
          if (path?.startsWith(scriptDir)) return false
          return !(typeOnly && path?.startsWith('core/'))
        })
        .map(({ specifier }) => `${fromSrc(file)} imports ${specifier}`),
    )
    expect(outside).toEqual([])
  })

  it('is imported by nothing else: the page gets it bundled (dashboard-script-bundle.ts)', () => {
    const importers = [...imports].flatMap(([file, found]) =>
      fromSrc(file).startsWith(scriptDir)
        ? []
        : found.filter(({ target }) => target !== undefined && fromSrc(target).startsWith(scriptDir)),
    )
    expect(importers).toEqual([])
  })
})
