import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closedPort as freePort } from './closed-port.ts'

/**
 * A real Prometheus server for the metrics tests: Debian's `prometheus` (`.ci/run` installs it and stops the service
 * the package starts), on a free loopback port, scraping the given targets every 250 ms, its data in a folder of its
 * own, stopped by its PID.
 */
export interface PrometheusServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  /** The server's own version line, e.g. `prometheus, version 2.42.0+ds`. */
  readonly version: string
  /** The value of an instant query's single sample (`/api/v1/query`), or undefined while it has none. */
  query(expression: string): Promise<number | undefined>
  stop(): Promise<void>
}

export interface ScrapeTarget {
  /** `127.0.0.1:<port>` */
  readonly address: string
  readonly metricsPath: string
  /** Sent as `Authorization: Bearer <token>`. */
  readonly bearerToken?: string | undefined
}

export async function startPrometheus(target: ScrapeTarget): Promise<PrometheusServer> {
  const found = spawnSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' })
  if (found.status !== 0)
    throw new Error("The metrics tests need a Prometheus server: install Debian's prometheus (apt-get install prometheus)")
  const binary = found.stdout.trim()
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]!.trim()
  const folder = mkdtempSync(join(tmpdir(), 'petstore-sim-prometheus-'))
  const config = join(folder, 'prometheus.yml')
  // JSON is YAML: no YAML writer needed.
  writeFileSync(
    config,
    JSON.stringify({
      global: { scrape_interval: '250ms', scrape_timeout: '200ms', evaluation_interval: '1s' },
      scrape_configs: [
        {
          job_name: 'petstore-sim',
          metrics_path: target.metricsPath,
          static_configs: [{ targets: [target.address] }],
          ...(target.bearerToken === undefined ? {} : { authorization: { type: 'Bearer', credentials: target.bearerToken } }),
        },
      ],
    }),
  )
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(
    binary,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(folder, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-20_000)))
  const ended = () =>
    new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await ended()
    }
    rmSync(folder, { recursive: true, force: true })
  }
  // Ready when `/-/ready` answers 200: bounded at 30 s (a contended machine).
  const deadline = Date.now() + 30_000
  let ready = false
  while (!ready && Date.now() < deadline && child.exitCode === null) {
    ready = await fetch(`${url}/-/ready`).then(
      (response) => response.status === 200,
      () => false,
    )
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (!ready) {
    await stop()
    throw new Error(`prometheus did not start: ${output}`)
  }
  return {
    url,
    version,
    async query(expression) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expression)}`)
      const answer = (await response.json()) as { status: string; data?: { result: { value: [number, string] }[] }; error?: string }
      if (answer.status !== 'success') throw new Error(`prometheus refused ${expression}: ${answer.error ?? response.status}`)
      const [sample] = answer.data!.result
      return sample === undefined ? undefined : Number(sample.value[1])
    },
    stop,
  }
}
