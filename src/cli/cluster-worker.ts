import type { Cluster } from 'node:cluster'

/**
 * What a `--workers` process and its primary say to each other over the cluster's IPC channel, and the worker's side
 * of it. The primary (`worker-pool.ts`) forks the CLI itself; each worker reads the same flags and learns its slot
 * (and, after a restart, the port the fleet already serves) from its environment.
 */

/** A worker to its primary. */
export type WorkerMessage =
  /** Listening: the URLs, and the banner as this worker's `--log` would print it (the primary prints slot 0's, once). */
  | { readonly petstoreSim: 'listening'; readonly url: string; readonly apiUrl: string; readonly banner: string }
  /** Could not start: the one line to print, and the exit code. */
  | { readonly petstoreSim: 'start-failed'; readonly message: string; readonly exitCode: number }

/** The primary to a worker: stop (drain, then exit), or, the second time, at once. */
export interface StopMessage {
  readonly petstoreSim: 'stop'
  readonly signal: 'SIGINT' | 'SIGTERM'
  readonly now: boolean
}

/** The environment variables the primary sets on each worker. */
export const workerEnvironment = { slot: 'PETSTORE_SIM_CLUSTER_SLOT', port: 'PETSTORE_SIM_CLUSTER_PORT' } as const

/** This process as one of the primary's workers. */
export interface WorkerRole {
  /** 0 to N-1; a restarted worker takes the slot of the one it replaces. Slot 0 writes `--pact` and `--coverage`. */
  readonly slot: number
  /** The port the fleet serves, once known (a restarted worker listens on it, even with `--port 0`). */
  readonly port: number | undefined
  /** Sends to the primary; `then` runs once the message is handed over (a worker that exits next waits for it). */
  send(message: WorkerMessage, then?: () => void): void
  /** Calls `stop` on the primary's stop message (the worker ignores SIGINT: a terminal's Ctrl-C reaches the primary too). */
  onStop(stop: (message: StopMessage) => void): void
}

/** The role of this process when the CLI's primary forked it, else undefined (node:cluster is not even loaded then). */
export function workerRole(env: NodeJS.ProcessEnv = process.env): WorkerRole | undefined {
  const slot = env[workerEnvironment.slot]
  if (slot === undefined) return undefined
  const cluster = process.getBuiltinModule('node:cluster') as unknown as Cluster
  if (!cluster.isWorker) return undefined
  const port = env[workerEnvironment.port]
  // Ctrl-C signals the whole process group: the primary forwards it once, as a stop message, so that a worker never
  // takes the terminal's signal and the primary's for two (a second signal stops at once, without the drain).
  process.on('SIGINT', () => {})
  // Until it serves, a worker has nothing to drain: a stop ends it at once.
  let stop = (message: StopMessage): void => process.exit(message.signal === 'SIGINT' ? 130 : 143)
  process.on('message', (message: Partial<StopMessage>) => {
    if (message.petstoreSim === 'stop') stop(message as StopMessage)
  })
  return {
    slot: Number(slot),
    port: port === undefined ? undefined : Number(port),
    send: (message, then) => process.send?.(message, undefined, undefined, then),
    onStop(serving) {
      stop = serving
    },
  }
}
