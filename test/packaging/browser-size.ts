// What petstore-sim adds to a browser app: Vite production builds of two
// minimal setupWorker pages, one with msw alone and one with msw and
// petstore-sim's browser entry (the package's exports["."].browser, as a
// user's bundler resolves it), measured gzipped. Used by `npm run size` and
// by the budget test next to it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type Rolldown } from 'vite'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The page with msw alone: a worker with one handler, as small as an msw app gets. */
const mswOnlyPage = `import { http, HttpResponse } from 'msw'
import { setupWorker } from 'msw/browser'
await setupWorker(http.get('/v1/pets', () => HttpResponse.json([]))).start({ quiet: true })
`

/** The same page with the simulator's handlers instead. */
const withSimulatorPage = `import { setupWorker } from 'msw/browser'
import { createSimulator } from 'petstore-sim'
await setupWorker(...createSimulator({ seed: 1 }).handlers).start({ quiet: true })
`

export interface BundleSize {
  /** Minified bytes of every emitted JavaScript chunk. */
  readonly bytes: number
  /** Gzipped bytes (zlib's default level, as servers send it), chunk by chunk. */
  readonly gzipBytes: number
  /** Bytes each package contributes after tree-shaking, before minification, largest first. */
  readonly byPackage: ReadonlyArray<{ readonly name: string; readonly bytes: number }>
}

export interface BrowserWeight {
  readonly mswOnly: BundleSize
  readonly withSimulator: BundleSize
  /** What petstore-sim adds to the gzipped bundle. */
  readonly addedGzipBytes: number
  /**
   * How much of that is zod (zod/mini), which the package bundles: the page
   * built from petstore-sim's sources, gzipped, minus the same page with zod
   * left out.
   */
  readonly zodGzipBytes: number
  /** The same for @faker-js/faker, which the package bundles too (its seeded catalogue). */
  readonly fakerGzipBytes: number
}

/** Builds both pages (the package must be built: `dist/lib`). */
export async function measureBrowserWeight(): Promise<BrowserWeight> {
  // Inside the repository, so the pages resolve msw and the package from its node_modules.
  mkdirSync(join(root, 'test-output'), { recursive: true })
  const workDir = mkdtempSync(join(root, 'test-output', 'size-'))
  try {
    const mswOnly = await buildPage(workDir, 'msw-only', mswOnlyPage)
    const withSimulator = await buildPage(workDir, 'with-simulator', withSimulatorPage)
    const fromSources = await buildPage(workDir, 'from-sources', withSimulatorPage, [], sourceEntry)
    const withoutZod = await buildPage(workDir, 'without-zod', withSimulatorPage, [/^zod(\/.*)?$/], sourceEntry)
    const withoutFaker = await buildPage(workDir, 'without-faker', withSimulatorPage, [/^@faker-js\/faker(\/.*)?$/], sourceEntry)
    return {
      mswOnly,
      withSimulator,
      addedGzipBytes: withSimulator.gzipBytes - mswOnly.gzipBytes,
      zodGzipBytes: fromSources.gzipBytes - withoutZod.gzipBytes,
      fakerGzipBytes: fromSources.gzipBytes - withoutFaker.gzipBytes,
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** petstore-sim's browser entry in its sources, where zod and faker are still packages of their own. */
const sourceEntry = join(root, 'src/index.ts')

async function buildPage(
  workDir: string,
  name: string,
  source: string,
  external: RegExp[] = [],
  petstoreSim?: string,
): Promise<BundleSize> {
  const entry = join(workDir, `${name}.js`)
  writeFileSync(entry, source)
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const output = (await build({
    root: workDir,
    configFile: false,
    logLevel: 'silent',
    // The browser entry of the built package, as exports["."].browser names it for bundlers.
    resolve: { alias: { 'petstore-sim': petstoreSim ?? join(root, packageJson.exports['.'].browser) } },
    build: { write: false, target: 'es2022', modulePreload: false, rolldownOptions: { input: entry, external } },
  })) as Rolldown.RolldownOutput
  const chunks = output.output.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk')
  const byPackage = new Map<string, number>()
  for (const chunk of chunks) {
    for (const [id, module] of Object.entries(chunk.modules)) {
      const name = packageOf(id)
      byPackage.set(name, (byPackage.get(name) ?? 0) + module.renderedLength)
    }
  }
  return {
    bytes: chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk.code), 0),
    gzipBytes: chunks.reduce((sum, chunk) => sum + gzipSync(chunk.code).length, 0),
    byPackage: [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
  }
}

/** `msw`, `@faker-js/faker`, … for a module in node_modules; `petstore-sim` for the package's own code. */
function packageOf(id: string): string {
  const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)
  if (match) return match[1]!
  return id.startsWith(join(root, 'dist')) || id.startsWith(join(root, 'src')) ? 'petstore-sim' : 'page'
}
