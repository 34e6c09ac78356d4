import type { CliOptions } from './cli-options.ts'
import type { CliSecrets } from './cli-secrets.ts'
import { failWith } from './cli-usage-error.ts'
import type { ConfigData } from './config-file.ts'
import type { GuardedOutput } from './guarded-output.ts'
import { removeReadyFile, writeReadyFile } from './ready-file.ts'
import { checkInputs, startFailure, warnAboutOptions } from './start-serving.ts'
import { startWorkerPool } from './worker-pool.ts'

/**
 * `--workers N`: the process the user started checks the flags and inputs once (a usage error before any fork), forks
 * N workers that serve the port, prints one banner (the first worker's) once every worker listens, writes
 * `--ready-file` then, forwards SIGINT and SIGTERM (each worker drains; a second signal stops them at once), and exits
 * with the fleet's code: 0, 1 when a worker could not write its files, or a failed start's own.
 */
export async function runPrimary(
  argv: readonly string[],
  options: CliOptions,
  config: ConfigData,
  output: GuardedOutput,
  secrets: CliSecrets,
): Promise<void> {
  warnAboutOptions(options)
  try {
    if (options.readyFile !== undefined) removeReadyFile(options.readyFile)
    await checkInputs(options, config, output, secrets)
  } catch (error) {
    const { message, exitCode } = startFailure(error, options, config)
    return failWith(secrets.scrub(message), exitCode)
  }
  const pool = startWorkerPool({
    count: options.workers,
    exec: process.argv[1]!,
    args: argv,
    warn: (line) => process.stderr.write(`petstore-sim: ${secrets.scrub(line)}\n`),
  })
  let stopping = false
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (!stopping && options.log === 'pretty') output.writeLine(`${signal}: finishing requests in flight, then stopping`)
    stopping = true
    pool.stop(signal)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  pool.ready.then(
    (listening) => {
      // The file before the banner: a script that waits for the banner finds the file too (it is fsynced, so the
      // banner would otherwise come first by a few milliseconds).
      try {
        if (options.readyFile !== undefined) writeReadyFile(options.readyFile, listening.apiUrl)
      } catch (error) {
        failWith(`--ready-file: cannot write ${options.readyFile} (${(error as Error).message})`)
        stopping = true
        pool.stop('SIGTERM')
        return
      }
      output.writeLine(listening.banner)
      output.serving()
    },
    // Reported below, when the pool has ended.
    () => {},
  )
  const { exitCode, message } = await pool.ended
  if (message !== undefined) failWith(secrets.scrub(message), exitCode)
  try {
    if (options.readyFile !== undefined) removeReadyFile(options.readyFile)
  } catch {
    // Gone already, or its folder with it: nothing is left to mislead.
  }
  process.exit(exitCode)
}
