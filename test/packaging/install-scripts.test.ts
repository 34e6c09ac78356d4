// `npm install petstore-sim` printed `npm warn install-scripts … (prepare: npm run build)`: npm runs a published
// package's prepare, preinstall, install and postinstall scripts on install (and npm 11 warns about them). The build
// belongs to packing (prepack), which npm runs for `npm pack` and `npm publish` only.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }

it('publishes no install-time script, and builds when packed', () => {
  const installTime = ['preinstall', 'install', 'postinstall', 'prepare']
  expect(Object.keys(manifest.scripts).filter((name) => installTime.includes(name))).toEqual([])
  expect(manifest.scripts.prepack).toBe('npm run build')
})
