// Runs before the tests (`npm test`). Fails early, with a clear message, when
// the Node.js running the tests is too old: `npm test` runs with
// node_modules/.bin on PATH, where the `node` dev dependency puts Node 24,
// whatever Node the machine has. Then makes sure the browser tests have a
// Chromium: Debian's, installed with apt-get when missing and running as root.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `petstore-sim needs Node.js >= 22.12 (running ${process.version}). Run "npm install" first: it installs Node 24 into node_modules/.bin.`,
  )
  process.exit(1)
}
console.log(`Node.js ${process.version}`)

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
if (!existsSync(chromium)) {
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
  if (!canInstall) {
    console.error(
      `The browser tests need Chromium at ${chromium}: install Debian's chromium package (sudo apt-get install chromium) or set CHROMIUM_PATH.`,
    )
    process.exit(1)
  }
  console.log("Installing Debian's chromium for the browser tests (once)…")
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env })
}
