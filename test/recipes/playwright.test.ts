// Runs the Playwright recipe with 2 workers: each worker's tests are served
// by that worker's own simulator. Bounded by a timeout.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { apiUrlsByWorker, type PlaywrightJsonReport } from '../support/playwright-report.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

it('passes with 2 workers in parallel, each worker on its own simulator', () => {
  const run = spawnSync(
    process.execPath,
    [
      'node_modules/@playwright/test/cli.js',
      'test',
      '--config',
      'test/recipes/playwright.config.ts',
      '--workers',
      '2',
      '--reporter',
      'json',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', NO_COLOR: '1' },
    },
  )
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0)
  const report = JSON.parse(run.stdout) as PlaywrightJsonReport
  expect(report.stats).toMatchObject({ expected: 4, unexpected: 0, flaky: 0, skipped: 0 })
  const servedBy = apiUrlsByWorker(report)
  // Two workers ran tests, each against one simulator, and no two workers shared one.
  expect(servedBy.size).toBe(2)
  const urls = [...servedBy.values()].map((set) => [...set])
  for (const list of urls) expect(list).toHaveLength(1)
  expect(new Set(urls.flat()).size).toBe(2)
}, 150_000)
