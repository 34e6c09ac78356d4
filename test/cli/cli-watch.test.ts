// Issue #31, item 7: `--watch` once printed "banAfter, stateInterval, latency, state changed; restart petstore-sim to
// apply" though nothing had changed (not reproduced in five tries). The cause: an editor that saves by removing or
// renaming the old file leaves a moment with no petstore-sim.config.json; a reload in that moment read no config file
// at all (without --config, a missing file in the working directory is no error), so every key of the file fell back
// to its default: the keys only a restart applies were reported as changed, and the others were reset to defaults.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { runCli } from '../support/cli-process.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-watch-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

it('keeps its state while the config file is away (an editor saving it), and names no change when it is back', async () => {
  const config = join(directory, 'petstore-sim.config.json')
  const content = { banAfter: 5, stateInterval: '10s', latency: 1, state: 'state.json', pets: 7, log: 'pretty' }
  writeFileSync(config, JSON.stringify(content))
  const cli = runCli(['--port', '0', '--watch'], {}, directory)
  const poll = { timeout: 10_000, interval: 50 }
  try {
    await expect.poll(() => cli.stdout(), poll).toMatch(/listening on http:\/\/\S+/)
    const apiUrl = /listening on (http:\/\/\S+)/.exec(cli.stdout())![1]!
    const count = async () =>
      ((await (await fetch(`${apiUrl}/pets?limit=100`, { headers: { authorization: 'Bearer demo-pro-key' } })).json()) as unknown[]).length
    expect(await count()).toBe(7)

    // The save of an editor that writes a new file and renames it over the old one, slowly: the old one goes first.
    rmSync(config)
    await expect
      .poll(() => cli.stderr(), poll)
      .toMatch(/--watch: not reloaded, the simulator keeps its state: .*petstore-sim\.config\.json is gone/)
    expect(await count()).toBe(7)
    writeFileSync(join(directory, '.petstore-sim.config.json.tmp'), JSON.stringify(content))
    renameSync(join(directory, '.petstore-sim.config.json.tmp'), config)

    // A real change after it, to know the reload of the restored file has come and gone.
    await new Promise((resolve) => setTimeout(resolve, 800))
    writeFileSync(config, JSON.stringify({ ...content, pets: 4 }))
    await expect.poll(count, poll).toBe(4)
    expect(cli.stderr()).not.toMatch(/changed; restart/)
    expect(cli.stdout()).toMatch(/--watch: reloaded \(pets changed\)/)
  } finally {
    cli.child.kill('SIGTERM')
    await cli.exited
  }
}, 30_000)
