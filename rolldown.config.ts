// The package's builds. What the Node entries share (the core, the YAML parser) is bundled once, in shared chunks.
// Only the peer dependencies stay outside: msw (users bring their own), @playwright/test for the fixture, and ioredis,
// the shared store's client.
//
// - dist/lib: the Node build (exports' `node` condition): the library's entries and the CLI. zod and faker's
//   `SimpleFaker` are not in its start-up path: `core/model/zod-module.ts` and `core/catalogue/faker-module.ts` are
//   swapped for `node/zod-on-demand.ts` and `node/faker-on-demand.ts`, which `require` dist/lib/zod.cjs and
//   dist/lib/faker.cjs (built below) the first time a schema is built or a simulator is given `generatePet`.
//   Together they were half of the time of importing the package and creating a simulator (test/bench/cold-start.ts).
// - dist/browser: the main entry as everywhere else gets it (browsers through their bundler, workers; Deno and Bun
//   match `node` and get dist/lib),
//   with zod and faker imported statically: there is no synchronous loading on demand there. `journal.toPact` and
//   `toHar` are left out (`core/contract/pact-module.ts` swapped for `pact-module-browser.ts`, `core/journal/har-module.ts` for
//   `har-module-browser.ts`); the control plane keeps both exports.
// - dist/lib/zod.cjs, dist/lib/faker.cjs: the pinned zod/mini and faker's `SimpleFaker`, as CommonJS, for `require`.
// - In both: the dashboard's script (src/app/dashboard/script/), bundled afresh into the page ({@link dashboardScriptInPage}).
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, defineConfig, type Plugin } from 'rolldown'
import { parseAst } from 'rolldown/parseAst'

// ioredis is an optional peer: never bundled, loaded only by the shared store (`--store`), on demand, and installed
// only by the projects that use it. @playwright/test, an optional peer too, is imported by the Playwright fixture's
// entry alone.
const external = [/^msw(\/.*)?$/, /^ioredis$/, /^@playwright\/test$/]
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))
/** In the Node build, each module here is replaced by the one that loads its package when it is first needed. */
const onDemand = new Map([
  [source('src/core/model/zod-module.ts'), source('src/node/zod-on-demand.ts')],
  [source('src/core/catalogue/faker-module.ts'), source('src/node/faker-on-demand.ts')],
])

/** In the browser build, each module here is replaced by one that leaves its weight out of every setupWorker page. */
const leftOutInBrowsers = new Map([
  [source('src/core/contract/pact-module.ts'), source('src/core/contract/pact-module-browser.ts')],
  [source('src/core/journal/har-module.ts'), source('src/core/journal/har-module-browser.ts')],
])

const leftOutInBrowser: Plugin = {
  name: 'left-out-in-browser',
  async resolveId(specifier, importer, options) {
    const resolved = await this.resolve(specifier, importer, { ...options, skipSelf: true })
    const replacement = resolved === null ? undefined : leftOutInBrowsers.get(resolved.id)
    return replacement ?? resolved
  },
}

const onDemandInNode: Plugin = {
  name: 'on-demand-in-node',
  async resolveId(specifier, importer, options) {
    const resolved = await this.resolve(specifier, importer, { ...options, skipSelf: true })
    const replacement = resolved === null ? undefined : onDemand.get(resolved.id)
    return replacement ?? resolved
  },
}

/**
 * faker's module computes its tables when it is loaded: the default `simpleFaker` instance, emoji and time-zone lists
 * split from strings, transliteration maps built with `Object.fromEntries`, enums filled by functions. A bundler must
 * keep calls it cannot prove pure, so every bundle that imports anything from faker, its generator included, ran all
 * of them: 5.4 ms of the 19.9 of importing the package and creating a simulator in Node (test/bench/cold-start.ts,
 * A/B with faker's generator stubbed, 2026-11-23). In both builds the calls that initialise top-level bindings are
 * marked pure, so those that nothing uses go: in the Node build, which uses faker's generator alone (`SimpleFaker` comes
 * from faker.cjs, built whole), and in the browser build, where `SimpleFaker` is bundled and its unused tables (time
 * zones, emoji, …) went on every setupWorker page (14 kB gzipped: 60.1 → 46.1 kB over msw alone, 2026-11-26).
 * test/packaging/node-build.test.ts and browser-build.test.ts check that each build draws what faker itself draws.
 */
const fakerTablesPure: Plugin = {
  name: 'faker-tables-pure',
  transform: {
    filter: { id: /@faker-js[\\/]faker[\\/]dist[\\/]base-[^\\/]*\.js$/ },
    handler(code) {
      const calls: number[] = []
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) {
          for (const child of node) visit(child)
          return
        }
        if (node === null || typeof node !== 'object' || !('type' in node)) return
        const { type, start } = node as { type: string; start: number }
        // Code in functions and classes runs when they are called, not when the module is loaded.
        if (/Function|Class/.test(type)) return
        if (type === 'CallExpression' || type === 'NewExpression') calls.push(start)
        for (const [key, child] of Object.entries(node)) if (key !== 'type' && typeof child === 'object') visit(child)
      }
      for (const statement of parseAst(code).body) {
        if (statement.type === 'VariableDeclaration') for (const declarator of statement.declarations) visit(declarator.init)
      }
      if (calls.length === 0) throw new Error('faker-tables-pure: no top-level call found in faker; has its build changed?')
      let marked = code
      for (const start of calls.sort((a, b) => b - a)) marked = `${marked.slice(0, start)}/* @__PURE__ */ ${marked.slice(start)}`
      return marked
    },
  },
}

/** The dashboard's script, a TypeScript module of its own: what the page (`dashboard-page.ts`) inlines. */
const dashboardScriptEntry = source('src/app/dashboard/script/dashboard-script.ts')
/** Its bundle as a module, for the sources (tests, a checkout's CLI): `npm run build:dashboard` writes it. */
export const dashboardScriptBundle = source('src/app/dashboard/dashboard-script-bundle.ts')

/**
 * The dashboard's script as one classic script for the page's inline `<script nonce>`: its modules bundled (an IIFE
 * in strict mode, types stripped), its comments kept, for whoever reads the page's source. The page is HTML: the text must not
 * close the script element or open a comment in it.
 */
export async function bundleDashboardScript(): Promise<string> {
  const { output } = await build({
    input: dashboardScriptEntry,
    write: false,
    platform: 'browser',
    logLevel: 'warn',
    tsconfig: source('src/app/dashboard/script/tsconfig.json'),
    output: { format: 'iife', strict: true },
  })
  const code = output[0].code
  if (/<\/script|<!--/i.test(code)) throw new Error('The dashboard script holds </script or <!--, which would break its page')
  return code
}

/** The module `dashboard-page.ts` imports the script from, holding `code`. */
export function dashboardScriptModule(code: string): string {
  return `// Generated by \`npm run build:dashboard\` from script/dashboard-script.ts (rolldown.config.ts): do not edit. The
// package's build bundles the script afresh instead; test/app/dashboard-script.test.ts fails while this copy differs.

/** The dashboard's script, bundled: a function, so that bundles that never serve the page leave it out. */
export function dashboardScript(): string {
  return ${JSON.stringify(code)}
}
`
}

/** Writes {@link dashboardScriptBundle} afresh (`npm run build:dashboard`), when it differs. */
export async function writeDashboardScript(): Promise<void> {
  const text = dashboardScriptModule(await bundleDashboardScript())
  if (readFileSync(dashboardScriptBundle, 'utf8') !== text) writeFileSync(dashboardScriptBundle, text)
}

/** In both builds, the page gets the script bundled from its sources now, not the copy the sources use. */
const dashboardScriptInPage: Plugin = {
  name: 'dashboard-script-in-page',
  load: {
    filter: { id: /dashboard-script-bundle\.ts$/ },
    async handler(id) {
      if (id !== dashboardScriptBundle) return null
      return { code: dashboardScriptModule(await bundleDashboardScript()), moduleType: 'ts' }
    },
  },
}

export default defineConfig([
  {
    input: {
      index: 'src/index.ts',
      node: 'src/node.ts',
      verify: 'src/verify.ts',
      playwright: 'src/playwright.ts',
      cli: 'src/cli/run-cli.ts',
    },
    platform: 'node',
    external,
    plugins: [onDemandInNode, fakerTablesPure, dashboardScriptInPage],
    logLevel: 'warn',
    output: {
      dir: 'dist/lib',
      format: 'esm',
      chunkFileNames: 'chunks/[name]-[hash].js',
      // What `import 'petstore-sim'` loads in two files, not five: each module is a resolution, a read and a compile
      // of its own, and a test file pays for them before its first line runs. The loaders on demand are in it too,
      // so that they always sit in dist/lib/chunks, one level under zod.cjs and faker.cjs. Not the msw handlers (nor
      // `simulator.ts`, which imports them): the CLI shares this chunk, and must not load msw unless asked
      // (`--engine msw`, `--handlers`); test/packaging/node-build.test.ts checks it.
      codeSplitting: {
        groups: [
          {
            name: 'simulator',
            test: /[\\/]src[\\/](core[\\/]|app[\\/]|simulator-fetch\.ts$|node[\\/](zod-on-demand|faker-on-demand|load-bundled)\.ts$)/,
          },
        ],
      },
    },
  },
  {
    input: { index: 'src/index.ts' },
    platform: 'browser',
    external,
    plugins: [leftOutInBrowser, fakerTablesPure, dashboardScriptInPage],
    logLevel: 'warn',
    output: { dir: 'dist/browser', format: 'esm', chunkFileNames: 'chunks/[name]-[hash].js' },
  },
  {
    input: 'src/node/zod-bundle.ts',
    platform: 'node',
    logLevel: 'warn',
    output: { file: 'dist/lib/zod.cjs', format: 'cjs' },
  },
  {
    input: 'src/node/faker-bundle.ts',
    platform: 'node',
    logLevel: 'warn',
    output: { file: 'dist/lib/faker.cjs', format: 'cjs' },
  },
])
