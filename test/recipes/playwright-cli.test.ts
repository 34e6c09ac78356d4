// Runs the Playwright-against-the-CLI recipe (playwright-cli.config.ts): the CLI started as Playwright's webServer on
// a free port, the spec asserting on a body field and a header through the journal. Bounded by a timeout.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { closedPort as freePort } from '../support/closed-port.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

it('passes against the CLI, asserting on what the app sent', async () => {
  const port = await freePort()
  const run = spawnSync(
    process.execPath,
    ['node_modules/@playwright/test/cli.js', 'test', '--config', 'test/recipes/playwright-cli.config.ts', '--reporter', 'json'],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        PETSTORE_SIM_PORT: String(port),
        PETSTORE_SIM_URL: `http://127.0.0.1:${port}`,
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
        NO_COLOR: '1',
      },
    },
  )
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
  const report = JSON.parse(run.stdout) as { stats: { expected: number; unexpected: number; skipped: number } }
  expect(report.stats).toMatchObject({ expected: 1, unexpected: 0, skipped: 0 })
}, 150_000)
