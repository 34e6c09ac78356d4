// Issue 40: a store the simulator cannot use stops it at start, with one line on stderr that names the cause. Flags
// that cannot go together are usage errors (exit 2); a store that cannot be used, exit 1 (docs/cli.md). Never a silent
// start on an in-memory world instead.
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { usageExitCode } from '../../src/cli/cli-usage-error.ts'
import { startFailedExitCode } from '../../src/cli/start-serving.ts'
import { runCli } from '../support/cli-process.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { controlOk, startInstances, stopInstances, storeArgs } from '../support/store-fleet.ts'

/** Preloaded: `ioredis` cannot be resolved, as in a project that did not install it. */
const withoutRedisClient = fileURLToPath(new URL('../support/without-redis-client.mjs', import.meta.url))

/** Runs the CLI to its exit (killed past `boundMs`, so that a simulator that starts anyway fails the test, never hangs it). */
async function refusal(args: readonly string[], boundMs = 15_000) {
  const cli = runCli(['--port', '0', '--log', 'silent', ...args])
  const bound = setTimeout(() => cli.child.kill('SIGKILL'), boundMs)
  const code = await cli.exited
  clearTimeout(bound)
  return { code, stderr: cli.stderr(), stdout: cli.stdout() }
}

/** Exactly one line on stderr, `petstore-sim: …`, and nothing that says it listens. */
function expectOneLine(result: { code: number | string; stderr: string; stdout: string }, ...mentions: RegExp[]): void {
  expect(result.code, result.stderr).toBe(usageExitCode)
  expectOneLineOnly(result, mentions)
}

/** The same, for a store that cannot be used: its own exit code. */
function expectStoreRefused(result: { code: number | string; stderr: string; stdout: string }, ...mentions: RegExp[]): void {
  expect(result.code, result.stderr).toBe(startFailedExitCode)
  expectOneLineOnly(result, mentions)
}

function expectOneLineOnly(result: { stderr: string; stdout: string }, mentions: readonly RegExp[]): void {
  expect(result.stderr).toMatch(/^petstore-sim: [^\n]+\n$/)
  for (const mention of mentions) expect(result.stderr).toMatch(mention)
  expect(result.stdout).not.toContain('listening on')
}

/** A pattern that matches `text` as written. */
const named = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))

describe('a --store the simulator cannot use', () => {
  it('refuses a URL of another scheme, naming it and the schemes it takes', async () => {
    expectOneLine(await refusal(['--store', 'http://x']), /--store/, /http:\/\/x/, /redis:\/\//)
  })

  it('gives up on a store it cannot reach after --store-wait, naming it and why', async () => {
    expectStoreRefused(
      await refusal(['--store', 'redis://127.0.0.1:1', '--store-wait', '500']),
      /--store redis:\/\/127\.0\.0\.1:1/,
      /ECONNREFUSED|refused|cannot connect/i,
    )
  })

  it('refuses a store given with --state or --watch, saying why', async () => {
    // Refused before any connection is tried; --store-wait keeps a simulator that tries anyway from waiting long.
    const unreachable = ['--store', 'redis://127.0.0.1:1', '--store-wait', '500']
    expectOneLine(await refusal([...unreachable, '--state', 'never-written.json']), /--state/, /--store/, /snapshot/)
    expectOneLine(await refusal([...unreachable, '--watch']), /--watch/, /--store/)
  })

  // Issue 45, Low 14: a password holding `/` made the URL unparsable, and the usage error printed it whole.
  it('never prints a --store password holding reserved characters, from the flag or PETSTORE_SIM_STORE', async () => {
    const secret = 'Pw/se?cr#et'
    const wrongDb = `redis://app:${secret}@127.0.0.1:1/not-a-db`
    const flag = await refusal(['--store', wrongDb])
    expectOneLine(flag, /--store/, /redis:\/\/app:/, /database must be a number/)
    const cli = runCli(['--port', '0', '--log', 'silent'], { PETSTORE_SIM_STORE: wrongDb })
    const env = { code: await cli.exited, stderr: cli.stderr(), stdout: cli.stdout() }
    expectOneLine(env, /PETSTORE_SIM_STORE/, /database must be a number/)
    // Read as written: the store is tried, and the message shows it without the password.
    const unreachable = await refusal(['--store', `redis://app:${secret}@127.0.0.1:1`, '--store-wait', '0'])
    expectStoreRefused(unreachable, named('--store redis://app:***@127.0.0.1:1/0'), /ECONNREFUSED|cannot connect/)
    for (const result of [flag, env, unreachable]) {
      for (const part of [secret, 'se?cr', 'cr#et']) expect(`${result.stderr}${result.stdout}`).not.toContain(part)
    }
  })

  it('names the package to install when the Redis client is not installed (an optional peer dependency), exit 2', async () => {
    const cli = runCli(['--port', '0', '--log', 'silent', '--store', 'redis://127.0.0.1:1', '--store-wait', '500'], {
      NODE_OPTIONS: `--import ${withoutRedisClient}`,
    })
    const bound = setTimeout(() => cli.child.kill('SIGKILL'), 15_000)
    const code = await cli.exited
    clearTimeout(bound)
    expectOneLine({ code, stderr: cli.stderr(), stdout: cli.stdout() }, /--store/, /ioredis/, /npm i ioredis/)
  })

  it('refuses --workers above 1 without --store, saying each worker would count on its own', async () => {
    expectOneLine(await refusal(['--workers', '2']), /--workers/, /--store/)
  })
})

describe('a store that refuses scripts', () => {
  let server: RedisServer
  beforeAll(async () => {
    server = await startRedisServer({ extraArgs: ['--rename-command', 'EVAL', '', '--rename-command', 'EVALSHA', ''] })
  })
  afterAll(async () => server?.stop())

  it('stops the start, naming the store and the scripts it needs', async () => {
    // The server is up and answers: only scripting is missing.
    expect(server.cli('PING')).toBe('PONG')
    expect(server.cli('EVAL', 'return 1', '0')).toMatch(/unknown command/i)
    expectStoreRefused(await refusal(['--store', server.socketUrl]), named(`--store ${server.socketUrl}`), /script|Lua|EVAL/i)
  })
})

describe("a store holding another version's data", () => {
  let server: RedisServer
  beforeAll(async () => {
    server = await startRedisServer()
    server.cli('SET', 'petstore-sim:format', '999')
  })
  afterAll(async () => server?.stop())

  it('stops the start, naming the format found and how to go on, and leaves the data alone', async () => {
    expectStoreRefused(await refusal(['--store', server.socketUrl]), /format 999/, /--store-namespace/)
    expect(server.cli('GET', 'petstore-sim:format')).toBe('999')
  })

  it('starts on the same store under another namespace, as the message advises', async () => {
    const [instance] = await startInstances(1, storeArgs(server, 'another-namespace', { 'start-key': 'free' }))
    try {
      expect(await controlOk(instance!, '/health')).toMatchObject({ status: 'ok', store: { ready: true } })
      expect(server.cli('GET', 'another-namespace:format')).toBe('1')
      expect(server.cli('GET', 'petstore-sim:format')).toBe('999')
    } finally {
      await stopInstances([instance!])
    }
  })

  // Issue 45, Low 11: `--sandbox-idle 2s --max-sandboxes 2` joined a fleet of 30m/50 and swept its sandboxes.
  it('refuses to join a fleet started with another --sandbox-idle or --max-sandboxes, in one line', async () => {
    const args = storeArgs(server, 'sandbox-options', { 'start-key': 'free' })
    const [instance] = await startInstances(1, [...args, '--sandbox-idle', '30m', '--max-sandboxes', '50'])
    try {
      for (const other of [
        ['--sandbox-idle', '2s', '--max-sandboxes', '50'],
        ['--sandbox-idle', '30m', '--max-sandboxes', '2'],
      ]) {
        expectStoreRefused(await refusal([...args, ...other]), named(`--store ${server.socketUrl}`), /made with other options/, /sandboxes/)
      }
      expect(await controlOk(instance!, '/health')).toMatchObject({ status: 'ok', store: { ready: true } })
    } finally {
      await stopInstances([instance!])
    }
  })
})
