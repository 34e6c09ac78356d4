import type { Cluster, Worker } from 'node:cluster'
import { type StopMessage, type WorkerMessage, workerEnvironment } from './cluster-worker.ts'

/** How the primary restarts a worker that died: after a delay that doubles from `firstDelayMs` up to `maxDelayMs`. */
export interface RestartPolicy {
  readonly firstDelayMs: number
  readonly maxDelayMs: number
  /** A worker that has served this long resets the delay. */
  readonly stableMs: number
  /** Restarted workers that fail before listening, in a row, before the primary gives up. */
  readonly maxStartFailures: number
}

export const defaultRestartPolicy: RestartPolicy = { firstDelayMs: 250, maxDelayMs: 8000, stableMs: 10_000, maxStartFailures: 5 }

export interface WorkerPoolOptions {
  readonly count: number
  /** The script each worker runs, and its arguments: the CLI itself and the user's flags (cluster's own default). */
  readonly exec: string
  readonly args: readonly string[]
  readonly restart?: RestartPolicy
  /** Lines about workers that died and came back (stderr). */
  readonly warn: (line: string) => void
}

/** The first worker's `listening` message, once every worker listens. */
export type Listening = Extract<WorkerMessage, { petstoreSim: 'listening' }>

export interface WorkerPool {
  /** Resolves once every worker listens (with slot 0's message); rejects with the failure the pool gave up on. */
  readonly ready: Promise<Listening>
  /** Resolves with the exit code once every worker has ended: after {@link stop}, or after a failure the pool gave up on. */
  readonly ended: Promise<{ readonly exitCode: number; readonly message?: string | undefined }>
  /** Forwards a stop to every worker: they drain and exit; the second call stops them at once. */
  stop(signal: 'SIGINT' | 'SIGTERM'): void
}

/** A start failure: the worker's own one line and exit code. */
export class WorkerStartError extends Error {
  readonly exitCode: number
  constructor(message: string, exitCode: number) {
    super(message)
    this.exitCode = exitCode
  }
}

interface Slot {
  worker: Worker | undefined
  listening: boolean
  listeningSince: number
}

/**
 * `--workers N`: forks N workers with Node's cluster (round robin: the primary accepts each connection and hands it
 * to the next worker; docs/cli.md says why) and keeps them running. A worker that fails before the fleet is up ends
 * the fleet with that worker's one line (once, not N times). A worker that dies later is restarted after a delay that
 * grows while restarts keep failing; `maxStartFailures` restarts in a row that never listen end the fleet too.
 */
export function startWorkerPool(options: WorkerPoolOptions): WorkerPool {
  // The builtin's CommonJS exports are the cluster object itself (not a module namespace, as its type says).
  const cluster = process.getBuiltinModule('node:cluster') as unknown as Cluster
  const policy = options.restart ?? defaultRestartPolicy
  cluster.setupPrimary({ exec: options.exec, args: [...options.args] })
  const slots: Slot[] = Array.from({ length: options.count }, () => ({ worker: undefined, listening: false, listeningSince: 0 }))
  const ready = settlable<Listening>()
  const ended = settlable<{ exitCode: number; message?: string | undefined }>()
  // Whoever waits on `ready` learns of a failure from `ended` too: a rejection nobody awaits must not end the process.
  ready.promise.catch(() => {})
  const restarts = new Set<NodeJS.Timeout>()
  let first: Listening | undefined
  let port: number | undefined
  let up = false
  let stopping: 'SIGINT' | 'SIGTERM' | undefined
  let stops = 0
  let exitCode = 0
  let failure: string | undefined
  let crashes = 0
  let startFailures = 0

  const live = () => slots.filter((slot) => slot.worker !== undefined)
  const finishIfDone = () => {
    if (stopping !== undefined && live().length === 0) ended.resolve({ exitCode, message: failure })
  }
  const stopAll = (signal: 'SIGINT' | 'SIGTERM', now: boolean) => {
    for (const restart of restarts) clearTimeout(restart)
    restarts.clear()
    for (const { worker } of live()) {
      const message: StopMessage = { petstoreSim: 'stop', signal, now }
      // A worker whose channel closes meanwhile (it is exiting: its own start failed too) fails the send with EPIPE,
      // which without a callback is an 'error' event on the Worker, and unhandled it ended the primary with a stack
      // trace instead of the fleet's one line. Its exit is handled as any exit; a kill makes sure it comes.
      if (worker!.isConnected()) {
        worker!.send(message, undefined, undefined, (error) => {
          if (error !== null) worker!.process.kill('SIGKILL')
        })
      } else worker!.process.kill('SIGKILL')
    }
    finishIfDone()
  }
  const giveUp = (message: string, code: number) => {
    failure = message
    exitCode = Math.max(exitCode, code)
    stopping = 'SIGTERM'
    ready.reject(new WorkerStartError(message, code))
    stopAll('SIGTERM', true)
  }

  const fork = (index: number) => {
    // A worker listens through the primary's handle for its address and port as given (`--port 0` included: cluster
    // keeps one handle per address, so every worker shares its port). Only when no worker holds that handle any more
    // is a restarted worker told the port, so that the fleet keeps it rather than getting a new one.
    const keepPort = port !== undefined && !slots.some((slot) => slot.listening)
    const env = { [workerEnvironment.slot]: String(index), ...(keepPort ? { [workerEnvironment.port]: String(port) } : {}) }
    const worker = cluster.fork(env)
    const slot = slots[index]!
    Object.assign(slot, { worker, listening: false })
    let startFailure: { message: string; exitCode: number } | undefined
    worker.on('message', (message: WorkerMessage) => {
      if (message.petstoreSim === 'start-failed') startFailure = message
      if (message.petstoreSim !== 'listening') return
      Object.assign(slot, { listening: true, listeningSince: Date.now() })
      port ??= Number(new URL(message.url).port)
      if (index === 0) first = message
      if (up) {
        startFailures = 0
        options.warn(`worker ${index + 1} is back (pid ${worker.process.pid})`)
      } else if (slots.every((each) => each.listening)) {
        up = true
        ready.resolve(first!)
      }
    })
    worker.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      // A worker's exit can reach the primary before its last message (its start failure, sent just before it exits):
      // its IPC channel ends after every message is delivered, so the exit is handled then (bounded, should it not end).
      if (!worker.isConnected()) return exited(code, signal)
      let handled = false
      const once = () => {
        if (handled) return
        handled = true
        clearTimeout(bound)
        exited(code, signal)
      }
      const bound = setTimeout(once, 1000)
      worker.once('disconnect', once)
    })
    const exited = (code: number | null, signal: NodeJS.Signals | null) => {
      slot.worker = undefined
      const listened = slot.listening
      slot.listening = false
      if (stopping !== undefined) {
        // Workers stopped because the fleet gave up do not change its code: the failure's is the one that tells.
        if (failure === undefined) exitCode = Math.max(exitCode, code ?? (signal === 'SIGINT' ? 130 : 143))
        return finishIfDone()
      }
      const how = code === null ? `signal ${signal}` : `code ${code}`
      if (!up)
        return giveUp(startFailure?.message ?? `worker ${index + 1} exited with ${how} before listening`, startFailure?.exitCode ?? 1)
      if (listened && Date.now() - slot.listeningSince >= policy.stableMs) crashes = 0
      if (!listened && ++startFailures >= policy.maxStartFailures) {
        return giveUp(
          `${startFailure?.message ?? `worker ${index + 1} exited with ${how} before listening`} (${startFailures} restarts in a row failed)`,
          startFailure?.exitCode ?? 1,
        )
      }
      const delay = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** crashes++)
      options.warn(`worker ${index + 1} (pid ${worker.process.pid}) exited with ${how}; restarting it in ${delay} ms`)
      const restart = setTimeout(() => {
        restarts.delete(restart)
        fork(index)
      }, delay)
      restarts.add(restart)
    }
  }

  for (let index = 0; index < options.count; index++) fork(index)
  return {
    ready: ready.promise,
    ended: ended.promise,
    stop(signal) {
      stops++
      stopping ??= signal
      stopAll(signal, stops > 1)
    },
  }
}

/** A promise and its settling functions (`Promise.withResolvers`, which TypeScript's ES2023 library does not declare). */
function settlable<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: Error) => void
  const promise = new Promise<T>((resolveIt, rejectIt) => {
    resolve = resolveIt
    reject = rejectIt
  })
  return { promise, resolve, reject }
}
