import { createRequire } from 'node:module'

/**
 * A CommonJS file the package's Node build ships in `dist/lib` (zod.cjs, faker.cjs), loaded synchronously. The build
 * puts the loaders in dist/lib/chunks, hence `../`. A bundler that bundles the Node build into a file of its own
 * leaves these files behind: the error says what to do instead of Node's bare "Cannot find module".
 */
export function loadBundled<Module>(file: 'zod.cjs' | 'faker.cjs', what: string): Module {
  const require = createRequire(import.meta.url)
  try {
    // Node caches the module: every call after the first gets it at once.
    return require(`../${file}`) as Module
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error
    throw new Error(
      `petstore-sim could not load ${what} (${file}), which its Node build loads on first use from next to itself: when you bundle petstore-sim, resolve its "default" export condition (dist/browser) instead of "node", or copy dist/lib/${file} along`,
      { cause: error },
    )
  }
}
