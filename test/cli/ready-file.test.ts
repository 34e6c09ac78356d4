// --ready-file: what a CI script waits for instead of reading the log (docs/ci.md). The URL is in the file once the
// server listens, whatever --log says; a file left by an earlier run is gone before the new one can be read; and the
// file goes at exit, so that a stopped simulator's URL never passes for a live one.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli-process.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-ready-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

/** Polls (bounded: 10 s) for a non-empty file, as `until [ -s file ]` does. */
async function waitForFile(path: string, exited: () => boolean): Promise<string> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline && !exited()) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8')
      if (text !== '') return text
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`${path} was not written`)
}

describe('--ready-file', () => {
  it.each(['pretty', 'json', 'silent'])('with --log %s, holds the API URL once listening, and is removed at exit', async (log) => {
    const path = join(directory, `sim-${log}.url`)
    const cli = runCli(['--port', '0', '--log', log, '--ready-file', path])
    const text = await waitForFile(path, () => cli.child.exitCode !== null)
    expect(text).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\n$/)
    const health = await fetch(`${text.trim().replace(/\/v1$/, '')}/__sim/health`)
    expect(health.status).toBe(200)
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
    expect(existsSync(path)).toBe(false)
  })

  it('comes from PETSTORE_SIM_READY_FILE too', async () => {
    const path = join(directory, 'from-env.url')
    const cli = runCli(['--port', '0', '--log', 'silent'], { PETSTORE_SIM_READY_FILE: path })
    expect(await waitForFile(path, () => cli.child.exitCode !== null)).toMatch(/\/v1\n$/)
    cli.child.kill('SIGTERM')
    expect(await cli.exited).toBe(0)
  })

  it("removes an earlier run's file at start, also when this run then cannot start", async () => {
    const path = join(directory, 'stale.url')
    writeFileSync(path, 'http://127.0.0.1:1/v1\n')
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    try {
      const cli = runCli(['--port', String((blocker.address() as AddressInfo).port), '--ready-file', path])
      expect(await cli.exited).toBe(2)
      expect(cli.stderr()).toMatch(/already in use/)
      expect(existsSync(path)).toBe(false)
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })

  it('stops start-up with one line and exit code 2 when the path cannot be used', async () => {
    const cli = runCli(['--port', '0', '--ready-file', directory])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toBe(`petstore-sim: --ready-file: cannot remove ${directory} (ERR_FS_EISDIR)\n`)
    const missingFolder = runCli(['--port', '0', '--log', 'silent', '--ready-file', join(directory, 'no-such-folder', 'sim.url')])
    expect(await missingFolder.exited).toBe(2)
    expect(missingFolder.stderr()).toMatch(/^petstore-sim: --ready-file: cannot write .*no-such-folder\/sim\.url \(ENOENT/)
  })
})
