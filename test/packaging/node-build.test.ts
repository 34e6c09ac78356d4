// The Node build (exports' `node` condition, dist/lib) loads zod and faker's `SimpleFaker` only when they are first
// needed, and draws faker's generator from a copy of faker whose unused tables the build drops (rolldown.config.ts).
// What a user sees must not change: the same pets as faker itself draws, the same validation messages, the same
// `generatePet` pets. Each case runs the built package in a fresh Node process, as a test file imports it.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { generatePets } from '../../src/core/catalogue/seed-pets.ts'
import { createSimulator } from '../../src/index.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** Runs `code` as an ES module in a fresh Node process, with `sim` the Node build of the main entry; its JSON output. */
function inNodeBuild(code: string, build = `${root}dist/lib`): unknown {
  const program = `import { createRequire } from 'node:module'
const sim = await import(${JSON.stringify(`${build}/index.js`)})
/** The package's files Node has loaded with require (zod.cjs, faker.cjs), by name. */
const required = () => Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('/dist/lib/')).map((file) => file.split('/').at(-1)).sort()
const result = await (async () => { ${code} })()
console.log(JSON.stringify(result))`
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', program], { cwd: root, encoding: 'utf8', timeout: 30_000 })
  return JSON.parse(output)
}

const seeds = [1, 42, 20301205, 2 ** 40 + 3, 0.5]

describe('the Node build (dist/lib)', () => {
  it('draws the same catalogues as faker itself, seed by seed', () => {
    // Through the public API: the core's generatePets is not exported, the seeded store is what users see.
    const built = inNodeBuild(`return ${JSON.stringify(seeds)}.map((seed) => sim.createSimulator({ seed, pets: 2000 }).store.all())`)
    expect(built).toEqual(seeds.map((seed) => generatePets({ seed, count: 2000 })))
  })

  it('loads neither zod nor faker to create a simulator and answer a valid request', () => {
    const loaded = inNodeBuild(`const simulator = sim.createSimulator({ seed: 1 })
const response = await simulator.fetch('/v1/pets?limit=2', { headers: { Authorization: 'Bearer demo-pro-key' } })
return { status: response.status, pets: (await response.json()).length, required: required() }`)
    expect(loaded).toEqual({ status: 200, pets: 2, required: [] })
  })

  it('loads zod for the first validation, with the messages the sources give', async () => {
    const body = JSON.stringify({ name: '', categoryId: 'one' })
    const request = `{ method: 'POST', headers: { Authorization: 'Bearer demo-pro-key', 'Content-Type': 'application/json' }, body: ${JSON.stringify(body)} }`
    const built = inNodeBuild(`const simulator = sim.createSimulator({ seed: 1 })
const response = await simulator.fetch('/v1/pets', ${request})
let fault
try { simulator.faults.add({ status: 503, delay: { min: 5, max: 1 } }) } catch (error) { fault = error.message }
return { status: response.status, body: await response.json(), fault, required: required() }`)
    const simulator = createSimulator({ seed: 1 })
    const response = await simulator.fetch('/v1/pets', {
      method: 'POST',
      headers: { Authorization: 'Bearer demo-pro-key', 'Content-Type': 'application/json' },
      body,
    })
    let fault: string | undefined
    try {
      simulator.faults.add({ status: 503, delay: { min: 5, max: 1 } })
    } catch (error) {
      fault = (error as Error).message
    }
    expect(built).toEqual({ status: 400, body: await response.json(), fault, required: ['zod.cjs'] })
  })

  it("loads faker's SimpleFaker for generatePet (and zod, which validates its pets), and shapes the same pets", () => {
    const shape = `({ faker, pet }) => ({ ...pet, name: 'Rex ' + faker.string.alpha(6), categoryId: faker.number.int({ min: 1, max: 9 }) })`
    const built = inNodeBuild(`const simulator = sim.createSimulator({ seed: 7, pets: 20, generatePet: ${shape} })
return { pets: simulator.store.list({ limit: 20 }), required: required() }`)
    const simulator = createSimulator({
      seed: 7,
      pets: 20,
      generatePet: ({ faker, pet }) => ({ ...pet, name: `Rex ${faker.string.alpha(6)}`, categoryId: faker.number.int({ min: 1, max: 9 }) }),
    })
    expect(built).toEqual({ pets: simulator.store.list({ limit: 20 }), required: ['faker.cjs', 'zod.cjs'] })
  })

  it('finds zod.cjs through the package when a bundler left it behind', () => {
    // Inside the repository, as a bundle inside a project that has petstore-sim installed (here: the package itself).
    mkdirSync(join(root, 'test-output'), { recursive: true })
    const copy = mkdtempSync(join(root, 'test-output', 'bundled-'))
    try {
      cpSync(join(root, 'dist/lib'), copy, { recursive: true, filter: (file) => !file.endsWith('.cjs') })
      const added = inNodeBuild(`const simulator = sim.createSimulator(); simulator.faults.add({ status: 503 }); return required()`, copy)
      expect(added).toEqual(['zod.cjs'])
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })

  it('says what to do when neither is there', () => {
    // Outside any project with petstore-sim, with msw alone beside it.
    const scratch = mkdtempSync(join(tmpdir(), 'petstore-sim-bundled-'))
    try {
      cpSync(join(root, 'dist/lib'), join(scratch, 'lib'), { recursive: true, filter: (file) => !file.endsWith('.cjs') })
      mkdirSync(join(scratch, 'node_modules'))
      symlinkSync(join(root, 'node_modules/msw'), join(scratch, 'node_modules/msw'), 'dir')
      const refused = inNodeBuild(
        `try { sim.createSimulator().faults.add({ status: 503 }); return 'added' } catch (error) { return error.message }`,
        join(scratch, 'lib'),
      )
      expect(refused).toMatch(/^petstore-sim could not load zod \(zod\.cjs\).*Leave petstore-sim out of the bundle/)
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })

  it('keeps msw out of what the CLI and petstore-sim/node load at start (msw comes with --engine msw or --handlers), and ioredis out of every entry', () => {
    /** The bare packages a built file reaches through static imports, following the build's own chunks. */
    const staticPackages = (entry: string): string[] => {
      const seen = new Set<string>()
      const packages = new Set<string>()
      const pending = [join(root, entry)]
      while (pending.length > 0) {
        const file = pending.pop()!
        if (seen.has(file)) continue
        seen.add(file)
        for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
          /^(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm,
        )) {
          if (specifier === undefined) continue
          if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier))
          else packages.add(specifier)
        }
      }
      return [...packages]
    }
    expect(staticPackages('dist/lib/index.js')).toContain('msw') // the handlers are msw's: it is really followed
    expect(staticPackages('dist/lib/cli.js').filter((specifier) => specifier.startsWith('msw'))).toEqual([])
    expect(staticPackages('dist/lib/node.js').filter((specifier) => specifier.startsWith('msw'))).toEqual([])
    // The shared store's client comes with --store alone, by a dynamic import: no entry reaches it statically.
    for (const entry of ['index', 'node', 'verify', 'cli']) expect(staticPackages(`dist/lib/${entry}.js`)).not.toContain('ioredis')
    // @playwright/test, an optional peer dependency, is the Playwright fixture's alone (issue 49).
    for (const entry of ['index', 'node', 'verify', 'cli']) expect(staticPackages(`dist/lib/${entry}.js`)).not.toContain('@playwright/test')
    expect(staticPackages('dist/lib/playwright.js')).toEqual(['@playwright/test'])
  })
})
