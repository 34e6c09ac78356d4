import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const binPath = fileURLToPath(new URL('../../bin/petstore-sim.js', import.meta.url))

export interface CliProcess {
  readonly child: ChildProcess
  /** Everything written to stdout so far. */
  stdout(): string
  stderr(): string
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>
}

/** Runs the real CLI with Node (the one running the tests) and no inherited `PETSTORE_SIM_*` variables, in `cwd` if given. */
export function runCli(args: readonly string[], env: Record<string, string> = {}, cwd?: string): CliProcess {
  const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_SIM_')))
  const child = spawn(process.execPath, [binPath, ...args], { cwd, env: { ...cleanEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  return { child, stdout: () => out, stderr: () => err, exited }
}

/**
 * Starts the CLI and waits (at most `timeoutMs`) for the line that says where
 * it listens, as a CI job would.
 */
export async function startCli(args: readonly string[], env: Record<string, string> = {}, timeoutMs = 10_000) {
  const cli = runCli(args, env)
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const match = /listening on (http:\/\/\S+?)(?:"|\s|$)/.exec(cli.stdout())
    if (match) {
      const apiUrl = match[1]!
      const origin = new URL(apiUrl).origin
      return { ...cli, apiUrl, origin, stop: () => stop(cli) }
    }
    if (cli.child.exitCode !== null) break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  cli.child.kill('SIGKILL')
  throw new Error(`petstore-sim did not start: ${cli.stdout()} ${cli.stderr()}`)
}

async function stop(cli: CliProcess): Promise<number | string> {
  if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGTERM')
  return cli.exited
}
