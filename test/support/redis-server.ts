import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closedPort as freePort } from './closed-port.ts'

/**
 * A real Redis (or Valkey) server for the tests of the shared store (`--store`): started on a Unix socket in a folder
 * of its own (and on a loopback port when asked), nothing saved to disk, stopped by its PID. `.ci/run` installs Debian's
 * `redis-server`; Valkey is tried first where it is installed. Tests that need one start one per file.
 */
export interface RedisServer {
  /** `unix:///…/s.sock`: what `--store` takes. */
  readonly socketUrl: string
  /** `redis://127.0.0.1:<port>` when started with `tcp: true`, else undefined. */
  readonly tcpUrl: string | undefined
  readonly socketPath: string
  readonly pid: number
  /** The server's own name and version, e.g. `redis-server 7.0.15`. */
  readonly version: string
  /** SIGSTOP: the server holds its connections and answers nothing (a paused engine). */
  pause(): void
  /** SIGCONT after {@link pause}. */
  resume(): void
  /** SIGKILL, and waits for the process to end: the engine is gone (its data with it). */
  kill(): Promise<void>
  /** Starts the server again on the same socket (and port) after {@link kill}: an empty engine, back. */
  restart(): Promise<void>
  /** Runs `redis-cli` against the server: for a test that sets up what it needs by hand (e.g. another version's data). */
  cli(...args: string[]): string
  /** Stops the server and removes its folder. */
  stop(): Promise<void>
}

/** The server binary: `valkey-server` where installed, else `redis-server`; undefined when neither is. */
export function redisServerBinary(): string | undefined {
  for (const name of ['valkey-server', 'redis-server']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' })
    if (found.status === 0 && found.stdout.trim() !== '') return found.stdout.trim()
  }
  return undefined
}

/** Starts a server; throws, naming the package to install, when there is none (the tests that need one fail, never skip). */
export async function startRedisServer(
  options: { readonly tcp?: boolean; readonly extraArgs?: readonly string[] } = {},
): Promise<RedisServer> {
  const binary = redisServerBinary()
  if (binary === undefined) {
    throw new Error("The shared-store tests need a Redis server: install Debian's redis-server (apt-get install redis-server)")
  }
  const cliBinary = binary.replace(/-server$/, '-cli')
  const folder = mkdtempSync(join(tmpdir(), 'petstore-sim-redis-'))
  const socketPath = join(folder, 's.sock')
  const port = options.tcp === true ? await freePort() : 0
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim()
  let child: ChildProcess
  const launch = async () => {
    const args = [
      '--port',
      String(port),
      ...(port === 0 ? [] : ['--bind', '127.0.0.1']),
      '--unixsocket',
      socketPath,
      '--unixsocketperm',
      '700',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      folder,
      ...(options.extraArgs ?? []),
    ]
    child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    // Ready when it answers PING on its socket: bounded at 10 s.
    const deadline = Date.now() + 10_000
    while (Date.now() < deadline) {
      if (child.exitCode !== null) break
      if (existsSync(socketPath) && spawnSync(cliBinary, ['-s', socketPath, 'PING'], { encoding: 'utf8' }).stdout.trim() === 'PONG') return
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    child.kill('SIGKILL')
    throw new Error(`${binary} did not start: ${output}`)
  }
  await launch()
  const ended = () =>
    new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())))
  const server: RedisServer = {
    socketUrl: `unix://${socketPath}`,
    tcpUrl: port === 0 ? undefined : `redis://127.0.0.1:${port}`,
    socketPath,
    get pid() {
      return child.pid!
    },
    version,
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async kill() {
      child.kill('SIGCONT')
      child.kill('SIGKILL')
      await ended()
      rmSync(socketPath, { force: true })
    },
    async restart() {
      await launch()
    },
    cli: (...args) => spawnSync(cliBinary, ['-s', socketPath, ...args], { encoding: 'utf8' }).stdout.trim(),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT')
        child.kill('SIGTERM')
        await ended()
      }
      rmSync(folder, { recursive: true, force: true })
    },
  }
  return server
}
