// Runs docs/sharing.md's Playwright recipe (the fixture of petstore-sim/playwright) with 2 workers against the real
// CLI, beside 10 tests that fail on purpose, under --max-sandboxes 3 (issue 49, part 5). The fixture it replaced
// named sandboxes after workerIndex, which Playwright renews with each worker it starts after a failure: the 4th
// replacement was 503 too_many_sandboxes, and every healthy test after it failed. Bounded by a timeout.
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
  cli = await startCli(['--port', '0', '--log', 'silent', '--max-sandboxes', '3'])
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

it('shows the spec as the test runs it', () => {
  const [spec] = fencedBlocks(page, '## One sandbox per Playwright worker', 'ts').filter((block) => block.includes('app.spec.ts'))
  expect(spec).toBe(readFileSync(new URL('./playwright-sandbox.sandbox-e2e.ts', import.meta.url), 'utf8'))
})

it('passes its healthy tests with 2 workers and 10 failing tests under a cap of 3 sandboxes, and deletes its sandboxes', async () => {
  const run = await playwright({ PETSTORE_SIM_URL: cli.origin })
  const report = JSON.parse(run.stdout) as PlaywrightJsonReport
  expect(report.stats, run.stderr).toMatchObject({ expected: 11, unexpected: 10, flaky: 0, skipped: 0 })
  expect(run.code).toBe(1)
  // A worker for each failure and the two first: more workers than the cap, and never more sandboxes than workers at once.
  const servedBy = apiUrlsByWorker(report)
  expect(servedBy.size).toBeGreaterThan(3)
  const urls = new Set([...servedBy.values()].flatMap((set) => [...set]))
  expect([...urls].sort()).toEqual([`${cli.origin}/sandboxes/pw-worker-0/v1`, `${cli.origin}/sandboxes/pw-worker-1/v1`])
  const listed = (await (await fetch(`${cli.origin}/__sim/sandboxes`)).json()) as { sandboxes: Array<{ name: string }> }
  expect(listed.sandboxes).toEqual([])
  expect(await (await fetch(`${cli.origin}/__sim/requests/count`)).json()).toEqual({ count: 0 })
}, 150_000)
