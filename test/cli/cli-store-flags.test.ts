// Issue 40: the flags of the shared store and of workers, what start-up refuses (usage errors, exit 2, one line that
// says why), and a store that cannot be used (exit 1, one line naming the URL). The store itself is tested under
// test/node/shared-store; here, only what the command line makes of it.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProgram, type CliOptions } from '../../src/cli/cli-options.ts'
import { applyConfigFile } from '../../src/cli/config-file.ts'
import { closedPort } from '../support/closed-port.ts'
import { binPath, runCli } from '../support/cli-process.ts'
import { importGraph } from '../support/import-graph.ts'

const directory = mkdtempSync(join(tmpdir(), 'petstore-sim-store-flags-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

async function refusal(args: readonly string[], env: Record<string, string> = {}) {
  const cli = runCli(['--port', '0', ...args], env)
  const code = await cli.exited
  return { code, stderr: cli.stderr(), stdout: cli.stdout() }
}

describe('the flags of the shared store and of workers', () => {
  it('default to no store, namespace petstore-sim, 1000 ms, 30000 ms and one worker', () => {
    const options = createProgram().exitOverride().parse([], { from: 'user' }).opts<CliOptions>()
    expect([options.store, options.storeNamespace, options.storeTimeout, options.storeWait, options.workers]).toEqual([
      undefined,
      'petstore-sim',
      1000,
      30_000,
      1,
    ])
  })

  it('read milliseconds, or a duration with its unit, and come from the config file by their camelCase names', () => {
    const config = join(directory, 'store.json')
    writeFileSync(
      config,
      JSON.stringify({ store: 'unix:///run/redis/s.sock?db=2', storeNamespace: 'team-a', storeTimeout: 250, storeWait: '5s', workers: 4 }),
    )
    const program = createProgram().exitOverride()
    const parsed = program.parse(['--config', config], { from: 'user' }).opts<CliOptions>()
    applyConfigFile(program, parsed.config)
    expect(program.opts<CliOptions>()).toMatchObject({
      store: 'unix:///run/redis/s.sock?db=2',
      storeNamespace: 'team-a',
      storeTimeout: 250,
      storeWait: 5000,
      workers: 4,
    })
  })

  it.each([
    [['--workers', '2'], '--workers 2 needs --store: each worker would count rate limits on its own'],
    [['--store', 'redis://127.0.0.1:1', '--state', 'state.json'], '--state cannot be used with --store: the store keeps the state'],
    [
      ['--store', 'redis://127.0.0.1:1', '--watch'],
      '--watch cannot be used with --store: a reload on one instance would not reach the others',
    ],
    [['--workers', '0'], '--workers must be a whole number from 1 to 64.'],
    [['--workers', '65'], '--workers must be a whole number from 1 to 64.'],
    [['--store', 'http://127.0.0.1:6379'], 'expected redis://[user:pass@]host[:port][/db], rediss://… or unix:///path/to/socket.'],
    [['--store', 'unix://relative/s.sock'], 'expected unix:///path/to/socket (three slashes, then the absolute path).'],
    [['--store', 'redis://127.0.0.1:6379/x'], 'the database must be a number (got "x").'],
    [['--store-namespace', 'a:b'], 'expected 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit.'],
    [['--store-timeout', '0'], '--store-timeout must be a whole number of milliseconds from 1 to 60000'],
    [['--store-wait', 'soon'], '--store-wait must be a whole number of milliseconds from 0 to 3600000'],
  ])('refuses %j with exit code 2 and one line saying why', async (args, message) => {
    const { code, stderr } = await refusal(args)
    expect(code).toBe(2)
    expect(stderr).toContain(message)
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
  })

  it('says how to start a store-backed image, whose PETSTORE_SIM_STATE names a file, without one', async () => {
    const { code, stderr } = await refusal(['--store', 'redis://127.0.0.1:1'], { PETSTORE_SIM_STATE: '/data/state.json' })
    expect(code).toBe(2)
    expect(stderr).toBe(
      'petstore-sim: PETSTORE_SIM_STATE cannot be used with --store: the store keeps the state (take snapshots with GET /__sim/snapshot; set PETSTORE_SIM_STATE empty to start without a file)\n',
    )
  })

  it('names where a refused value came from: an environment variable or the config file', async () => {
    expect((await refusal([], { PETSTORE_SIM_WORKERS: '3' })).stderr).toBe(
      'petstore-sim: PETSTORE_SIM_WORKERS=3 needs --store: each worker would count rate limits on its own\n',
    )
    const config = join(directory, 'workers.json')
    writeFileSync(config, JSON.stringify({ workers: 2 }))
    expect((await refusal(['--config', config])).stderr).toBe(
      `petstore-sim: workers: 2 in --config ${config} needs --store: each worker would count rate limits on its own\n`,
    )
  })

  it("never prints the store's password, also in a refusal that quotes the URL", async () => {
    const { code, stderr } = await refusal(['--store', 'redis://user:hunter2-secret@'])
    expect(code).toBe(2)
    expect(stderr).not.toContain('hunter2-secret')
    expect((await refusal([], { PETSTORE_SIM_STORE: 'redis://:hunter2-secret@' })).stderr).not.toContain('hunter2-secret')
  })
})

describe('a store that cannot be used', () => {
  let notRedis: Server
  let notRedisPort = 0
  beforeAll(async () => {
    // Something that listens but is not Redis: it answers every connection with an HTTP error and closes it.
    // Read (and dropped), so that the client's end is seen and the server can close: a paused socket never ends.
    notRedis = createServer((socket) => socket.resume().end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'))
    await new Promise<void>((resolve) => notRedis.listen(0, '127.0.0.1', resolve))
    notRedisPort = (notRedis.address() as { port: number }).port
  })
  afterAll(() => new Promise((resolve) => notRedis.close(resolve)))

  /** One line on stderr that names the store, exit code 1, no banner. */
  async function expectOneLine(args: readonly string[], url: string) {
    const { code, stderr, stdout } = await refusal(['--store', url, '--store-wait', '300', ...args])
    expect(code).toBe(1)
    const lines = stderr
      .trimEnd()
      .split('\n')
      .filter((line) => !line.includes('does not answer yet'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^petstore-sim: .+/)
    expect(lines[0]).toContain(url)
    expect(stdout).not.toContain('listening on')
    return lines[0]!
  }

  it('an unreachable one ends start-up with one line naming it, exit code 1', async () => {
    await expectOneLine([], `redis://127.0.0.1:${await closedPort()}`)
  })

  it('one that is not Redis: the same', async () => {
    expect(await expectOneLine([], `redis://127.0.0.1:${notRedisPort}`)).toContain('not in the Redis protocol')
  })

  it('with --workers 2, the same one line, once for the fleet', async () => {
    await expectOneLine(['--workers', '2'], `redis://127.0.0.1:${await closedPort()}`)
  })
})

describe('the CLI loads the shared store only with --store', () => {
  const srcDir = fileURLToPath(new URL('../../src/', import.meta.url))

  it('has no static import of the store module or a Redis client from the CLI', () => {
    const graph = importGraph(resolveSource('cli/run-cli.ts'), { dynamic: false })
    const loaded = [...graph.keys()].map((file) => file.slice(srcDir.length))
    expect(loaded).toContain('cli/start-serving.ts')
    expect(loaded.filter((file) => file.startsWith('node/shared-store/'))).toEqual([])
    const clients = [...graph.values()].flat().filter((specifier) => /^(ioredis|iovalkey|redis|@redis\/)/.test(specifier))
    expect(clients).toEqual([])
    expect(readFileSync(resolveSource('cli/start-serving.ts'), 'utf8')).toContain("await import('../node/shared-store/connect-store.ts')")
  })

  it('does not load it at run time without --store, and does with it', async () => {
    const without = await modulesLoaded(['--port', '0', '--log', 'silent'])
    // The sources in a checkout, the build once `npm run build` has made it (bin/petstore-sim.js prefers it).
    expect(without.some((url) => /\/src\/cli\/run-cli\.ts$|\/dist\/lib\/cli\.js$/.test(url))).toBe(true)
    expect(without.filter((url) => /shared-store|connect-store|ioredis|iovalkey|node_modules\/(@redis|redis)\//.test(url))).toEqual([])
    const withStore = await modulesLoaded(['--port', '0', '--store', `redis://127.0.0.1:${await closedPort()}`, '--store-wait', '0'])
    expect(withStore.some((url) => url.includes('connect-store'))).toBe(true)
  })

  function resolveSource(path: string) {
    return join(srcDir, path)
  }
})

/**
 * The module URLs the CLI loads with these flags, recorded by a module hook (fixtures/record-loads.mjs) until it listens
 * (then it is stopped) or exits.
 */
async function modulesLoaded(args: readonly string[]): Promise<string[]> {
  const record = join(directory, `loads-${Math.random().toString(36).slice(2)}.txt`)
  const hook = fileURLToPath(new URL('fixtures/record-loads.mjs', import.meta.url))
  const child = spawn(process.execPath, ['--import', hook, binPath, ...args], {
    env: { ...process.env, PETSTORE_SIM_TEST_RECORD_LOADS: record, PETSTORE_SIM_LOG: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk
    if (out.includes('listening on')) child.kill('SIGTERM')
  })
  await new Promise((resolve) => child.once('exit', resolve))
  return readFileSync(record, 'utf8').split('\n').filter(Boolean)
}
