// Runs the Playwright-against-the-CLI recipe (playwright-cli.config.ts): the CLI started as Playwright's webServer on
// a free port, the spec asserting on a body field and a header through the journal. Bounded by a timeout.
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** A port free now: bound on 0, then released for the CLI to take. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

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
