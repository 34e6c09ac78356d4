// Runs the Vitest browser-mode recipe: a nested Vitest, in Chromium, with the
// simulator under setupWorker. Bounded by a timeout.
import { spawnSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

// Issue 49: "Failed to fetch dynamically imported module", now and then under load. The cause was not time: Vitest's
// browser server took "localhost" and the first free port from 23315, as every other Vitest browser run on the
// machine does; one run on 127.0.0.1 and another on [::1] both found the port free, and Chromium, opening
// localhost:<port>, asked the other run's server for this test file. Here another run holds [::1]:23315 (or, without
// IPv6, 127.0.0.1:23315) for the whole run: the recipe's run failed so every time, and passes on a port of its own.
let otherRun: Server | undefined
beforeAll(async () => {
  for (const host of ['::1', '127.0.0.1']) {
    const server = createServer((_request, response) => response.writeHead(404).end('another Vitest run'))
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'))
      server.listen(23315, host, () => resolve(true))
    })
    // EADDRINUSE: a run of someone else's holds it already, which is the case under test.
    if (listening) {
      otherRun = server.listening ? server : undefined
      return
    }
  }
  throw new Error('could not hold port 23315 on [::1] or 127.0.0.1 for the other run')
})
afterAll(() => new Promise<void>((resolve) => (otherRun === undefined ? resolve() : otherRun.close(() => resolve()))))

it('passes in Vitest browser mode, while another Vitest browser run holds its default port', () => {
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
