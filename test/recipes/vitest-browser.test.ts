// Runs the Vitest browser-mode recipe: a nested Vitest, in Chromium, with the
// simulator under setupWorker. Bounded by a timeout.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

it('passes in Vitest browser mode', () => {
  const init = spawnSync(process.execPath, ['node_modules/msw/cli/index.js', 'init', 'test/browser/public'], {
    cwd: root,
    encoding: 'utf8',
  })
  expect(init.status, init.stderr).toBe(0)
  const run = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/recipes/vitest-browser/vitest.config.ts'],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: '1' },
    },
  )
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour codes
  const output = `${run.stdout}\n${run.stderr}`.replace(/\u001b\[[0-9;]*m/g, '')
  expect(run.status, output).toBe(0)
  expect(output).toMatch(/Tests\s+1 passed \(1\)/)
  expect(output).toContain('chromium')
}, 150_000)
