import { closeSync, fsyncSync, openSync } from 'node:fs'
import { open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import type { StateSnapshot } from '../core/simulator/state-snapshot.ts'
import { defaults } from '../core/simulator/defaults.ts'
import { readInputFile, unreadableReason } from './input-file.ts'

/** Where a simulator's state lives between runs (`--state`, `startServer({ state })`). */
export interface StateFileOptions {
  /** The JSON file: read at start when it exists, written on close and every `intervalMs` when something changed. */
  readonly path: string
  /** How often a changed state is written. Default 5 s; 0 writes on close only. */
  readonly intervalMs?: number | undefined
  /** Told when a periodic write fails (the next one tries again). Default: a line on stderr. */
  readonly onError?: ((error: Error) => void) | undefined
}

/** A state file in use. */
export interface StateFile {
  readonly path: string
  /** Whether the file existed and its state was restored at start. */
  readonly loaded: boolean
  /** Writes the state now (atomically), changed or not. */
  save(): Promise<void>
  /** Stops the periodic writes and writes the state one last time. */
  close(): Promise<void>
  /** Stops the periodic writes without writing (a server that failed to start). */
  discard(): void
}

/** A state file that cannot be read or restored: start-up stops, and the file is left as it is. */
export class StateFileError extends Error {}

/**
 * Restores the simulator from `path` if the file exists, then keeps the file
 * up to date. Every write is atomic: the JSON goes to a temporary file next
 * to it (same directory, so the same file system), which is flushed to disk
 * (`fsync`) and then renamed over the old file; a rename replaces the old
 * file whole (POSIX `rename(2)`), so a crash or a SIGKILL at any moment
 * leaves either the old file or the new one, never a torn one, and loses at
 * most the changes of one interval.
 *
 * Throws a {@link StateFileError} naming the file and the problem when it
 * exists but cannot be read, is not JSON, or is not a valid snapshot.
 */
export function openStateFile(simulator: SimulatorCore, options: StateFileOptions): StateFile {
  const { path } = options
  const intervalMs = options.intervalMs ?? defaults.stateIntervalMs
  const onError = options.onError ?? ((error) => process.stderr.write(`petstore-sim: ${error.message}\n`))
  const loaded = load(simulator, path)
  let dirty = false
  const unsubscribe = simulator.events.subscribe(() => {
    dirty = true
  })
  let writing: Promise<void> = Promise.resolve()
  let busy = false
  let closed = false

  const save = (): Promise<void> => {
    // One write at a time, in order: the last one started holds the newest state.
    writing = writing.then(async () => {
      busy = true
      dirty = false
      try {
        await writeAtomically(path, simulator.snapshot())
      } finally {
        busy = false
      }
    })
    return writing
  }
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          // A write still going on (a large state, a short interval) is not queued behind: the next tick sees `dirty`.
          if (!dirty || busy) return
          save().catch((error: Error) => {
            dirty = true
            onError(new Error(`--state: cannot write ${path} (${error.message})`))
          })
        }, intervalMs)
      : undefined
  timer?.unref()

  const stop = () => {
    closed = true
    if (timer !== undefined) clearInterval(timer)
    unsubscribe()
  }
  return {
    path,
    loaded,
    save,
    discard: stop,
    async close() {
      if (closed) return writing
      stop()
      // A failed periodic write was reported already; this last one reports for itself.
      await writing.catch(() => {})
      await save()
    },
  }
}

function load(simulator: SimulatorCore, path: string): boolean {
  let text: string
  try {
    // A regular file within the cap only: a FIFO hung start-up, /dev/zero read until memory ran out.
    text = readInputFile(path, defaults.maxStateFileBytes)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw new StateFileError(`--state: cannot read ${path} (${unreadableReason(error)})`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new StateFileError(`--state: ${path} is not valid JSON (${(error as Error).message}); it was left as it is`)
  }
  try {
    simulator.restore(data)
  } catch (error) {
    throw new StateFileError(
      `--state: ${path} is not a state this simulator can restore: ${(error as Error).message}; it was left as it is`,
    )
  }
  return true
}

/** The temporary file a write goes to: next to the target, named for this process so that two never share one. */
function temporaryPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
}

/** Pets serialised per write: about 650 KB of JSON, a few milliseconds of work between two turns of the event loop. */
const petsPerChunk = 10_000

/**
 * Writes a snapshot to `path` whole or not at all: temporary file, fsync,
 * rename, then fsync of the directory (best effort). The pets are written in
 * chunks, with the event loop free between them, so that requests are not
 * held up for the whole serialisation (about 0.5 s for a million pets in one
 * `JSON.stringify`). The snapshot was taken at once before: its pets are a
 * copy of the list, and pets are frozen, so the file is one consistent state.
 */
async function writeAtomically(path: string, snapshot: StateSnapshot): Promise<void> {
  const temporary = temporaryPath(path)
  const file = await open(temporary, 'w', 0o600)
  try {
    const { pets } = snapshot.catalogue
    // The document with an empty pet list, split where the pets go.
    const [head, tail] = JSON.stringify({ ...snapshot, catalogue: { ...snapshot.catalogue, pets: [] } }).split('"pets":[]')
    await file.write(`${head}"pets":[`)
    for (let start = 0; start < pets.length; start += petsPerChunk) {
      const chunk = JSON.stringify(pets.slice(start, start + petsPerChunk)).slice(1, -1)
      await file.write(start === 0 ? chunk : `,${chunk}`)
    }
    await file.write(`]${tail}`)
    await file.sync()
  } catch (error) {
    await file.close()
    await unlink(temporary).catch(() => {})
    throw error
  }
  await file.close()
  await rename(temporary, path)
  syncDirectory(path)
}

/** The rename is durable once the directory is flushed; not every platform can open a directory (Windows), hence best effort. */
function syncDirectory(path: string): void {
  try {
    const directory = openSync(dirname(path), 'r')
    try {
      fsyncSync(directory)
    } finally {
      closeSync(directory)
    }
  } catch {
    // Best effort: the file itself is complete either way.
  }
}
