import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defaults } from '../../src/core/defaults.ts'
import { InputFileError, readInputFile } from '../../src/node/input-file.ts'
import { runCli } from '../support/cli-process.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-inputs-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const fifo = join(directory, 'fifo.json')
// Node has no mkfifo: coreutils' (a FIFO is what hung start-up).
execFileSync('mkfifo', [fifo])

/** Runs the CLI to its exit (it must exit by itself: a hang is killed after 10 s and fails the test). */
async function exitOf(args: string[]) {
  const cli = runCli(['--port', '0', '--log', 'silent', ...args])
  const timer = setTimeout(() => cli.child.kill('SIGKILL'), 10_000)
  const code = await cli.exited
  clearTimeout(timer)
  return { code, stderr: cli.stderr() }
}

describe('readInputFile', () => {
  it('reads a regular file, and refuses a device, a FIFO, a directory and a file over the cap', () => {
    const small = join(directory, 'small.json')
    writeFileSync(small, '{"a":"é"}')
    expect(readInputFile(small, 100)).toBe('{"a":"é"}')
    expect(() => readInputFile(small, 5)).toThrow(new InputFileError('larger than 5 bytes (10 bytes), the most read'))
    expect(() => readInputFile('/dev/zero', 100)).toThrow(/not a regular file \(a device\)/)
    expect(() => readInputFile(fifo, 100)).toThrow(/not a regular file \(a FIFO\)/)
    expect(() => readInputFile(directory, 100)).toThrow(/not a regular file \(a directory\)/)
    expect(() => readInputFile(join(directory, 'missing.json'), 100)).toThrow(expect.objectContaining({ code: 'ENOENT' }))
  })
})

describe('the CLI reads regular files under a cap only, and exits 2 with one line otherwise', () => {
  const cases: [string, string[], RegExp][] = [
    [
      '--config /dev/zero',
      ['--config', '/dev/zero'],
      /^petstore-sim: --config \/dev\/zero: cannot read it \(not a regular file \(a device\)/,
    ],
    ['--config <fifo>', ['--config', fifo], /--config .*fifo\.json: cannot read it \(not a regular file \(a FIFO\)/],
    ['--keys /dev/zero', ['--keys', '/dev/zero'], /^petstore-sim: --keys: cannot read \/dev\/zero \(not a regular file \(a device\)/],
    ['--faults <fifo>', ['--faults', fifo], /^petstore-sim: --faults: cannot read .*fifo\.json \(not a regular file \(a FIFO\)/],
    ['--fixtures /dev/zero', ['--fixtures', '/dev/zero'], /^petstore-sim: --fixtures: cannot read \/dev\/zero \(not a regular file/],
    ['--state <fifo>', ['--state', fifo], /^petstore-sim: --state: cannot read .*fifo\.json \(not a regular file \(a FIFO\)/],
    ['--state /dev/zero', ['--state', '/dev/zero'], /^petstore-sim: --state: cannot read \/dev\/zero \(not a regular file/],
  ]
  it.each(cases)('%s', async (_name, args, message) => {
    const { code, stderr } = await exitOf(args)
    expect(code).toBe(2)
    expect(stderr).toMatch(message)
    expect(stderr.trim().split('\n')).toHaveLength(1)
  })

  it('refuses a config file over defaults.maxInputFileBytes before reading it', async () => {
    const large = join(directory, 'large.json')
    // A sparse file: its size is what is checked, before a byte is read.
    writeFileSync(large, '')
    truncateSync(large, defaults.maxInputFileBytes + 1)
    const { code, stderr } = await exitOf(['--config', large])
    expect(code).toBe(2)
    expect(stderr).toContain(`larger than ${defaults.maxInputFileBytes} bytes (${defaults.maxInputFileBytes + 1} bytes), the most read`)
  })
})

describe('config values', () => {
  it('reports a bad value in the config file even when a flag overrides it (exit 2, naming the key)', async () => {
    const config = join(directory, 'overridden.json')
    writeFileSync(config, JSON.stringify({ port: 'abc' }))
    const { code, stderr } = await exitOf(['--config', config, '--port', '0'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/--config .*overridden\.json: port: /)
  })

  it('checks every scenario at start: a bad key plan or a bad fixture in one not chosen is exit 2, naming it', async () => {
    const badKeys = join(directory, 'bad-keys.json')
    writeFileSync(badKeys, JSON.stringify({ scenarios: { later: { keys: { 'some-key': 'platinum' } } } }))
    const keys = await exitOf(['--config', badKeys])
    expect(keys.code).toBe(2)
    expect(keys.stderr).toMatch(/^petstore-sim: Scenario later: .*platinum/)

    const badFixtures = join(directory, 'bad-fixtures.json')
    writeFileSync(badFixtures, JSON.stringify({ scenarios: { later: { fixtures: [{ name: '', categoryId: 1 }] } } }))
    const fixtures = await exitOf(['--config', badFixtures])
    expect(fixtures.code).toBe(2)
    expect(fixtures.stderr).toMatch(/^petstore-sim: Scenario later: .*name/)
  })
})
