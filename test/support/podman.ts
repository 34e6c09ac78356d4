import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** Every container the tests start carries this label, so that the container step removes what a failed run left. */
export const testLabel = 'petstore-sim-test=1'

/**
 * Runs `podman` (as `CONTAINERS_CONF` sets it up: test/container/containers.conf) and resolves with its stdout,
 * trimmed; a non-zero exit rejects with its stderr. Podman's complaints about systemd timers, which it prints on
 * every run with a health check on a machine without systemd, are not errors and are dropped.
 */
export async function podman(args: readonly string[], timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await run('podman', [...args], { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 })
    return stdout.trim()
  } catch (error) {
    const { stderr = '', message } = error as { stderr?: string; message: string }
    const cause = stderr
      .split('\n')
      .filter((line) => line !== '' && !line.includes('systemd'))
      .join('\n')
    throw new Error(`podman ${args.join(' ')} failed: ${cause || message}`)
  }
}

export interface RunningContainer {
  readonly id: string
  /** `http://127.0.0.1:<published port>`: the simulator as the host reaches it, through the published port. */
  readonly origin: string
  /** When `podman run` was called, and when the health endpoint first answered from outside (`performance.now()`). */
  readonly startedAt: number
  readonly answeredAt: number
  /** `podman stop` (SIGTERM, then SIGKILL after `graceSeconds`): resolves with the exit code. */
  stop(graceSeconds?: number): Promise<number>
  /** Removes the container (forced), and its anonymous volumes; named ones stay. */
  remove(): Promise<void>
  logs(): Promise<string>
}

export interface ContainerOptions {
  readonly image: string
  /** Flags after the image's name (the simulator's). */
  readonly args?: readonly string[]
  readonly env?: Readonly<Record<string, string>>
  /** `-v` values: `name:/data`, `/host/folder:/out`. */
  readonly volumes?: readonly string[]
  /** More `podman run` flags, before the image's name: `--read-only`. */
  readonly runFlags?: readonly string[]
}

/**
 * `podman run -d` with the container's port 4010 published on a free port of the host's loopback (`-p 127.0.0.1::4010`,
 * as a CI job publishes a service, not the host's network), then waits (bounded: 30 s) until `GET /__sim/health`
 * answers through it. A container that exits or never answers fails with its log.
 */
export async function runContainer(options: ContainerOptions): Promise<RunningContainer> {
  const startedAt = performance.now()
  const env = Object.entries(options.env ?? {}).flatMap(([name, value]) => ['--env', `${name}=${value}`])
  const volumes = (options.volumes ?? []).flatMap((volume) => ['--volume', volume])
  const id = await podman([
    'run',
    '--detach',
    '--label',
    testLabel,
    '--publish',
    '127.0.0.1::4010',
    ...env,
    ...volumes,
    ...(options.runFlags ?? []),
    options.image,
    ...(options.args ?? []),
  ])
  const logs = () => podman(['logs', id]).catch((error: Error) => error.message)
  const remove = async () => {
    await podman(['rm', '--force', '--volumes', id]).catch(() => {})
  }
  try {
    const published = await podman(['port', id, '4010/tcp'])
    const origin = `http://${published.split('\n')[0]!}`
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      const answered = await fetch(`${origin}/__sim/health`).then(
        (response) => response.status === 200,
        () => false,
      )
      if (answered) {
        const answeredAt = performance.now()
        const stop = async (graceSeconds = 10) => {
          await podman(['stop', '--time', String(graceSeconds), id])
          return Number(await podman(['inspect', '--format', '{{.State.ExitCode}}', id]))
        }
        return { id, origin, startedAt, answeredAt, stop, remove, logs }
      }
      if ((await podman(['inspect', '--format', '{{.State.Running}}', id])) !== 'true') break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`the container ${options.image} did not answer /__sim/health through its published port:\n${await logs()}`)
  } catch (error) {
    await remove()
    throw error
  }
}
