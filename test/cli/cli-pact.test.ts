import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Pact } from '../../src/core/contract/pact-export.ts'
import { runCli, startCli } from '../support/cli-process.ts'

// `--pact <file>` (issues #30, 36): the run's interactions written as a Pact 4 file at shutdown, resets included,
// written like --state (atomically, never through a symbolic link), with one line saying what was written.

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-pact-cli-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const auth = { authorization: 'Bearer demo-pro-key' }

describe('--pact <file>', () => {
  it('writes every interaction of the run, a POST /__sim/reset between tests included, and says so in one line', async () => {
    const file = join(directory, 'web-animal-store.json')
    const cli = await startCli([
      '--port',
      '0',
      '--log',
      'silent',
      '--pact',
      file,
      '--pact-consumer',
      'pet-shop-web',
      '--pact-provider',
      'animal-store',
    ])
    // Test 1, then the Playwright recipe's reset, then test 2.
    expect((await fetch(`${cli.apiUrl}/pets/2`, { headers: auth })).status).toBe(200)
    expect((await fetch(`${cli.apiUrl}/pets/2`, { headers: auth })).status).toBe(200)
    const reset = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }
    expect((await fetch(`${cli.origin}/__sim/reset`, reset)).status).toBe(200)
    expect((await fetch(`${cli.apiUrl}/pets`)).status).toBe(401)
    expect(await cli.stop()).toBe(0)
    const pact = JSON.parse(readFileSync(file, 'utf8')) as Pact
    expect(pact.consumer).toEqual({ name: 'pet-shop-web' })
    expect(pact.provider).toEqual({ name: 'animal-store' })
    expect(pact.metadata.pactSpecification.version).toBe('4.0')
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
      'getPet GET /v1/pets/2 with an API key: 200',
      'listPets GET /v1/pets without an API key: 401 missing_api_key',
    ])
    expect(cli.stdout()).toContain(`pact written: ${file}, 2 interactions\n`)
    expect(cli.stderr()).toBe('')
  })

  it("warns on an empty pact, and writes the simulator's own answers only with --pact-simulator-choices", async () => {
    for (const [flags, count] of [
      [[], 0],
      [['--pact-simulator-choices'], 1],
    ] as const) {
      const file = join(directory, `choices-${count}.json`)
      const cli = await startCli(['--port', '0', '--log', 'silent', '--pact', file, ...flags])
      expect((await fetch(`${cli.apiUrl}/pets?limit=500`, { headers: auth })).status).toBe(400)
      expect(await cli.stop()).toBe(0)
      expect((JSON.parse(readFileSync(file, 'utf8')) as Pact).interactions).toHaveLength(count)
      expect(cli.stdout()).toContain(`pact written: ${file}, ${count} interaction`)
      if (count === 0)
        expect(cli.stderr()).toContain(`--pact: warning: ${file} has no interactions (1 left out as the simulator's own answers`)
      else expect(cli.stderr()).toBe('')
    }
  })

  // The warning said "no API request was answered" after a run whose answers were all faulted or unrouted.
  it('warns on an empty pact without claiming no request was answered, when every answer was one a pact never holds', async () => {
    const file = join(directory, 'faulted.json')
    const cli = await startCli(['--port', '0', '--log', 'silent', '--pact', file, '--fault', 'getPet 503 times=5'])
    expect((await fetch(`${cli.apiUrl}/pets/1`, { headers: auth })).status).toBe(503)
    expect((await fetch(`${cli.apiUrl}/nothing`, { headers: auth })).status).toBe(404)
    expect(await cli.stop()).toBe(0)
    expect(cli.stderr()).toBe(
      `petstore-sim: --pact: warning: ${file} has no interactions (no answer a pact holds was recorded: forced and faulted answers, 5xx and requests that matched no operation never are)\n`,
    )
  })

  it('replaces a symbolic link at the file name, never its target', async () => {
    const target = join(directory, 'precious.txt')
    writeFileSync(target, 'keep me')
    const file = join(directory, 'linked.json')
    symlinkSync(target, file)
    const cli = await startCli(['--port', '0', '--log', 'silent', '--pact', file])
    await fetch(`${cli.apiUrl}/pets/1`, { headers: auth })
    expect(await cli.stop()).toBe(0)
    expect(readFileSync(target, 'utf8')).toBe('keep me')
    expect((JSON.parse(readFileSync(file, 'utf8')) as Pact).interactions).toHaveLength(1)
  })

  it.each(['../../x/../y', 'a/../../../../etc/passwd'])('refuses the party name %j with a usage error', async (name) => {
    const cli = runCli(['--port', '0', '--log', 'silent', '--pact', join(directory, 'never.json'), '--pact-consumer', name])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toContain('--pact-consumer must be 1 to 128 letters, digits, spaces or ._@-')
  })

  // With --log json the line was plain text among JSON lines: a collector parsing each line of stdout failed on it.
  it('says what it wrote in a JSON line with --log json, stdout staying JSON lines to its end', async () => {
    const file = join(directory, 'json-log.json')
    const cli = await startCli(['--port', '0', '--log', 'json', '--pact', file])
    expect((await fetch(`${cli.apiUrl}/pets/2`, { headers: auth })).status).toBe(200)
    expect(await cli.stop()).toBe(0)
    const lines = cli.stdout().trimEnd().split('\n')
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(parsed.at(-1)).toMatchObject({ message: `pact written: ${file}, 1 interaction`, pact: file, interactions: 1 })
  })

  // Issue 49: the pact was written 0600 and the coverage 0644, so a CI runner of another uid reading a mounted folder
  // got `Permission denied` on the pact alone. Artefacts for other tools share one mode; the state file stays private.
  it('writes the pact, the coverage and the ready file with one mode, readable by all (0644 under umask 022); the state 0600', async () => {
    const files = ['pact.json', 'coverage.md', 'ready.url', 'state.json'].map((name) => join(directory, `modes-${name}`))
    const [pact, coverage, ready, state] = files as [string, string, string, string]
    const previous = process.umask(0o022)
    try {
      const cli = await startCli([
        '--port',
        '0',
        '--log',
        'silent',
        '--pact',
        pact,
        '--coverage',
        coverage,
        '--ready-file',
        ready,
        '--state',
        state,
      ])
      expect((await fetch(`${cli.apiUrl}/pets/2`, { headers: auth })).status).toBe(200)
      const readyMode = statSync(ready).mode & 0o777
      expect(await cli.stop()).toBe(0)
      const modes = {
        pact: statSync(pact).mode & 0o777,
        coverage: statSync(coverage).mode & 0o777,
        ready: readyMode,
        state: statSync(state).mode & 0o777,
      }
      expect(modes).toEqual({ pact: 0o644, coverage: 0o644, ready: 0o644, state: 0o600 })
    } finally {
      process.umask(previous)
    }
  })

  it('says so on stderr and exits 1 when the file cannot be written', async () => {
    const file = join(directory, 'missing-folder', 'pact.json')
    const cli = await startCli(['--port', '0', '--log', 'silent', '--pact', file])
    expect(await cli.stop()).toBe(1)
    expect(cli.stderr()).toContain(`petstore-sim: --pact: cannot write ${file}`)
  })
})
