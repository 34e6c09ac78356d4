// On Node 20 the CLI used to start although package.json's engines say >=22.12, and fail later in odd places.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { binPath } from '../support/cli-process.ts'

const pretendNode20 = fileURLToPath(new URL('../support/pretend-node-20.mjs', import.meta.url))

it('says plainly which Node it needs when started on an older one, and exits 1', () => {
  const run = spawnSync(process.execPath, ['--import', pretendNode20, binPath, '--port', '0'], { encoding: 'utf8', timeout: 10_000 })
  expect(run.status).toBe(1)
  expect(run.stdout).toBe('')
  expect(run.stderr).toBe(
    'petstore-sim needs Node.js 22.12.0 or later; this is Node.js 20.20.2. Install Node.js 22 or 24 (LTS) and run it again.\n',
  )
})
