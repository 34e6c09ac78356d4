// Runs docs/sharing.md's Playwright recipe with 2 workers against one simulator: each worker's tests are served by
// that worker's own sandbox. Bounded by a timeout.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startCli } from '../support/cli-process.ts'
import { collectRun, type CollectedRun } from '../support/collected-run.ts'
import { apiUrlsByWorker, type PlaywrightJsonReport } from '../support/playwright-report.ts'
import { fencedBlocks } from '../support/docs-blocks.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const page = new URL('../../docs/sharing.md', import.meta.url)

let cli: Awaited<ReturnType<typeof startCli>>
beforeAll(async () => {
  cli = await startCli(['--port', '0', '--log', 'silent'])
})
afterAll(async () => {
  await cli?.stop()
})

/** Playwright's CLI, bounded: killed after 120 s. */
function playwright(env: Record<string, string>): Promise<CollectedRun> {
  return collectRun(
    process.execPath,
    [
      'node_modules/@playwright/test/cli.js',
      'test',
      '--config',
      'test/recipes/playwright-sandboxes.config.ts',
      '--workers',
      '2',
      '--reporter',
      'json',
    ],
    { cwd: root, env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', NO_COLOR: '1', ...env }, timeout: 120_000 },
  )
}

it('shows the fixture as the test runs it', () => {
  const [fixture] = fencedBlocks(page, '## One sandbox per Playwright worker', 'ts')
  expect(fixture).toBe(readFileSync(new URL('./playwright-sandbox-fixtures.ts', import.meta.url), 'utf8'))
})

it('passes with 2 workers on one simulator, each worker in its own sandbox, the default world untouched', async () => {
  const run = await playwright({ PETSTORE_SIM_URL: cli.origin })
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
  const report = JSON.parse(run.stdout) as PlaywrightJsonReport
  expect(report.stats).toMatchObject({ expected: 4, unexpected: 0, flaky: 0, skipped: 0 })
  const servedBy = apiUrlsByWorker(report)
  expect(servedBy.size).toBe(2)
  const urls = [...servedBy.values()].map((set) => [...set])
  for (const list of urls) expect(list).toHaveLength(1)
  expect(new Set(urls.flat()).size).toBe(2)
  const listed = (await (await fetch(`${cli.origin}/__sim/sandboxes`)).json()) as { sandboxes: Array<{ name: string }> }
  expect(listed.sandboxes.map((sandbox) => sandbox.name).sort()).toEqual([...servedBy.keys()].sort().map((index) => `pw-worker-${index}`))
  expect(await (await fetch(`${cli.origin}/__sim/requests/count`)).json()).toEqual({ count: 0 })
}, 150_000)
