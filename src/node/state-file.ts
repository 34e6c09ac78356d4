import { closeSync, lstatSync, readlinkSync, statSync, unlinkSync, type Stats } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { SimulatorCore } from '../core/simulator/simulator-core.ts'
import { defaults } from '../core/defaults.ts'
import { createTemporaryFileSync, writeAtomically } from './atomic-write.ts'
import { readInputFile, unreadableReason } from './input-file.ts'
import { openSandboxStateFiles, type SandboxStateFiles } from './sandbox-state-files.ts'
import type { SandboxDirectory } from '../app/control/sandbox-routes.ts'

/** Where a simulator's state lives between runs (`--state`, `startServer({ state })`). */
export interface StateFileOptions {
  /** The JSON file: read at start when it exists, written on close and every `intervalMs` when something changed. */
  readonly path: string
  /** How often a changed state is written. Default 5 s; 0 writes on close only. */
  readonly intervalMs?: number | undefined
  /**
   * Told when a periodic write fails: once per distinct cause, not at every retry (every later write tries again).
   * Default: a line on stderr.
   */
  readonly onError?: ((error: Error) => void) | undefined
  /** Told when a write succeeds after failed ones, with the message of the last failure. Default: a line on stderr. */
  readonly onRecovered?: ((message: string) => void) | undefined
}

/** A state file in use. */
export interface StateFile {
  readonly path: string
  /** Whether the file existed and its state was restored at start. */
  readonly loaded: boolean
  /**
   * What start-up found at `path`: a state, restored; an empty file (0 bytes: made ahead, by `touch` or a volume), a
   * fresh start; or nothing yet, a fresh start too. The file is written at the first save either way.
   */
  readonly found: 'state' | 'empty' | 'nothing'
  /** Of the pets restored, how many were created by the runs before (their ids follow the seeded catalogue's). */
  readonly createdPets: number
  /** Writes the state now (atomically), changed or not; rejects with a {@link StateFileError} when it cannot. */
  save(): Promise<void>
  /** Stops the periodic writes and writes the state one last time; rejects with a {@link StateFileError} when it cannot. */
  close(): Promise<void>
  /** Stops the periodic writes without writing (a server that failed to start). */
  discard(): void
}

/**
 * A state file that cannot be read, restored or written. At start, start-up stops and the file is left as it is; at a
 * save, `reported` says the same cause was reported already (a retry that failed alike).
 */
export class StateFileError extends Error {
  readonly reported: boolean
  constructor(message: string, options: { cause?: unknown; reported?: boolean } = {}) {
    super(message, { cause: options.cause })
    this.name = 'StateFileError'
    this.reported = options.reported ?? false
  }
}

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
export function openStateFile(simulator: SimulatorCore, options: StateFileOptions, sandboxes?: SandboxDirectory): StateFile {
  const { path } = options
  const intervalMs = options.intervalMs ?? defaults.stateIntervalMs
  const onError = options.onError ?? ((error) => process.stderr.write(`petstore-sim: ${error.message}\n`))
  const onRecovered =
    options.onRecovered ?? ((message) => process.stderr.write(`petstore-sim: --state: ${path} is saved again (${message})\n`))
  // Where the bytes go: a symbolic link at `path` is followed once, here, so that the link stays a link.
  // Read first: a file that is there but is no regular file (a FIFO, a device) is refused as unreadable.
  const seededNextId = simulator.store.nextId
  const found = load(simulator, path)
  const loaded = found === 'state'
  const createdPets = loaded ? petsFrom(simulator.store, seededNextId) : 0
  const target = checkStatePath(path)
  // Every sandbox too, each in a file of its own beside this one (docs/sharing.md).
  let sandboxFiles: SandboxStateFiles | undefined
  try {
    sandboxFiles = sandboxes === undefined ? undefined : openSandboxStateFiles(sandboxes, path)
  } catch (error) {
    throw new StateFileError(`--state: ${(error as Error).message}; it was left as it is`, { cause: error })
  }
  let dirty = false
  const unsubscribe = simulator.events.subscribe(() => {
    dirty = true
  })
  let writing: Promise<void> = Promise.resolve()
  let busy = false
  let closed = false
  // The cause of the last failed write, until one succeeds: a cause is reported once, however many retries fail.
  let failure: string | undefined

  const write = async (): Promise<void> => {
    busy = true
    dirty = false
    try {
      await writeAtomically(target, simulator.snapshot())
      await sandboxFiles?.save()
    } catch (error) {
      dirty = true
      const cause = describeWriteError(error)
      const fresh = cause !== failure
      failure = cause
      throw new StateFileError(`--state: cannot write ${path} (${cause})`, { cause: error, reported: !fresh })
    } finally {
      busy = false
    }
    if (failure !== undefined) {
      const last = failure
      failure = undefined
      onRecovered(`the last failure was: ${last}`)
    }
  }
  const save = (): Promise<void> => {
    // One write at a time, in order: the last one started holds the newest state. Chained on the settling of the one
    // before, not on its success: a rejected chain skipped every later write, so one failure stopped saving for good.
    writing = writing.then(write, write)
    return writing
  }
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          // A write still going on (a large state, a short interval) is not queued behind: the next tick sees `dirty`.
          if ((!dirty && sandboxFiles?.dirty() !== true) || busy) return
          save().catch((error: StateFileError) => {
            if (!error.reported) onError(error)
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
    found,
    createdPets,
    save,
    discard: stop,
    async close() {
      if (closed) return writing
      stop()
      // The last write reports for itself, failed periodic ones or not: its rejection is the caller's to tell.
      return save()
    },
  }
}

/**
 * Refuses, at start, a state path whose file could never be written, as it refuses one it cannot read: its folder is
 * missing (`--state nodir/x.json` started silently, failed at every save and crashed at exit), is not a folder, or
 * takes no new file (a folder, a device or a pipe at the path itself is refused by `load`, before). A symbolic link is followed (to the end of its
 * chain, also when nothing is there yet): the file it points to is read and replaced, and the link stays. Returns the path writes go to.
 */
function checkStatePath(path: string): string {
  const refuse = (problem: string): never => {
    throw new StateFileError(`--state: ${path} ${problem}`)
  }
  const target = followLinks(path, refuse)
  const directory = dirname(target)
  const folder = statOrUndefined(directory, statSync)
  if (folder === undefined) refuse(`cannot be written: the folder ${directory} does not exist`)
  if (folder?.isDirectory() !== true) refuse(`cannot be written: ${directory} is not a folder`)
  try {
    const probe = createTemporaryFileSync(target)
    closeSync(probe.descriptor)
    unlinkSync(probe.path)
  } catch (error) {
    refuse(`cannot be written: no file can be created in ${directory} (${describeWriteError(error)})`)
  }
  return target
}

/** Longest chain of symbolic links followed, as Linux's own limit (ELOOP past 40). */
const maxLinkHops = 40

/** Where a chain of symbolic links at `path` ends, whether or not a file is there yet (a link made ahead of the first save). */
function followLinks(path: string, refuse: (problem: string) => never): string {
  let current = path
  for (let hops = 0; statOrUndefined(current, lstatSync)?.isSymbolicLink() === true; hops++) {
    if (hops === maxLinkHops) refuse(`is a chain of more than ${maxLinkHops} symbolic links`)
    current = resolve(dirname(current), readlinkSync(current))
  }
  return current
}

function statOrUndefined(path: string, stat: typeof statSync): Stats | undefined {
  try {
    return stat(path)
  } catch (error) {
    // Nothing there: no such entry, or a file where a folder of the path should be (the folder check names that).
    const { code } = error as NodeJS.ErrnoException
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw new StateFileError(`--state: cannot use ${path} (${describeWriteError(error)})`)
  }
}

/** The cause of a failed write as a person reads it: the system's code and words (`ENOSPC: no space left on device`). */
function describeWriteError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  if (code === undefined) return message
  // Node's messages repeat the path after the code's words: `ENOENT: no such file or directory, open '/x/.y.tmp'`.
  return message.replace(/, \w+(?: '.*')?$/, '')
}

function load(simulator: SimulatorCore, path: string): StateFile['found'] {
  let text: string
  try {
    // A regular file within the cap only: a FIFO hung start-up, /dev/zero read until memory ran out.
    text = readInputFile(path, defaults.maxStateFileBytes)
  } catch (error) {
    // Nothing there yet (ENOTDIR: a file where a folder of the path should be, which checkStatePath names).
    const { code } = error as NodeJS.ErrnoException
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'nothing'
    throw new StateFileError(`--state: cannot read ${path} (${unreadableReason(error)})`)
  }
  // 0 bytes: a file made ahead (`touch`, an orchestrator's empty volume file), as json-server and Mockoon take it. A
  // file with anything in it is a state or refused: a truncated one is never taken for a fresh start.
  if (text.length === 0) return 'empty'
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
  return 'state'
}

/**
 * How many pets have an id from `firstId` on (the pets kept beyond the seeded ones): counted, not taken from how far
 * the next id moved, which a provider state putting a pet near 2^53 moves by some 2^53 at once.
 */
function petsFrom(store: SimulatorCore['store'], firstId: number): number {
  const read = store.reader()
  let count = 0
  for (let page = read(4096); page.length > 0; page = read(4096)) count += page.filter((pet) => pet.id >= firstId).length
  return count
}
