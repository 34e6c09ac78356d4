import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

it('type-checks a plain TypeScript project against the built package (exports map and declarations)', () => {
  const run = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'test/consumer'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  })
  expect(`${run.stdout}${run.stderr}`).toBe('')
  expect(run.status).toBe(0)
}, 70_000)
