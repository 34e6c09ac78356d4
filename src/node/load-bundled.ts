import { createRequire } from 'node:module'

/**
 * A CommonJS file the package's Node build ships in `dist/lib` (zod.cjs, faker.cjs), loaded synchronously. The
 * loaders live in dist/lib/chunks (rolldown.config.ts), hence `../`; each names its file literally, so that a bundler
 * that follows `require` (webpack) takes that file and nothing else. A tool that bundles the Node build into a file
 * of its own (Vitest's SSR dependency optimizer, a Vite SSR build with `noExternal`, esbuild) leaves the file behind:
 * it is then found through the package's own exports (`petstore-sim/internal/*.cjs`) wherever petstore-sim is
 * installed, and when it is not, the error says what to do instead of Node's bare "Cannot find module".
 */
export function loadBundled<Module>(load: (require: NodeJS.Require) => unknown, file: 'zod.cjs' | 'faker.cjs', what: string): Module {
  const require = createRequire(import.meta.url)
  try {
    // Node caches the module: every call after the first gets it at once.
    return load(require) as Module
  } catch (nextToUs) {
    if (!isModuleNotFound(nextToUs)) throw nextToUs
    try {
      return require(`petstore-sim/internal/${file}`) as Module
    } catch (installed) {
      if (!isModuleNotFound(installed)) throw installed
      throw new Error(
        `petstore-sim could not load ${what} (${file}), which its Node build loads on first use: a bundler seems to have bundled petstore-sim's "node" build without its dist/lib/${file}. Leave petstore-sim out of the bundle (Vitest: server.deps / deps.optimizer.ssr.exclude; Vite SSR: ssr.external), resolve its "browser" condition instead (esbuild: --conditions=browser), or install petstore-sim where the bundle runs`,
        { cause: nextToUs },
      )
    }
  }
}

function isModuleNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'MODULE_NOT_FOUND'
}
