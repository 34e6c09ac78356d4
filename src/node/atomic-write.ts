import { randomBytes } from 'node:crypto'
import { close, closeSync, constants, fsync, write, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { rename, unlink } from 'node:fs/promises'
import { promisify } from 'node:util'
import { basename, dirname, join } from 'node:path'
import type { StateSnapshot } from '../core/state/state-snapshot.ts'

/**
 * Who may read a file written here. `private` (0600): the state files, which only the simulator reads back and which
 * hold client addresses and key fingerprints. `shared` (0666 less the umask, 0644 by default, as `writeFileSync`
 * gives `--coverage`): the artefacts other tools read (`--pact`, `--ready-file`), often as another uid, such as a CI
 * runner reading a folder the container wrote (issue 49: the pact was 0600 and unreadable there).
 */
export type FileAccess = 'private' | 'shared'

const creationModes: Readonly<Record<FileAccess, number>> = { private: 0o600, shared: 0o666 }

/** Attempts at a fresh temporary name before giving up (each name is random: a clash means something planted it). */
const temporaryNameAttempts = 8

/**
 * A new temporary file next to `path` (same folder, so the rename stays on one file system), opened write-only with
 * `O_CREAT | O_EXCL | O_NOFOLLOW`: created here or not at all, so nothing planted at its name is followed or
 * overwritten (a symbolic link at the old fixed name `.<name>.<pid>.tmp` had its target overwritten). The name is
 * random; one that exists is skipped for another.
 */
export function createTemporaryFileSync(path: string, access: FileAccess = 'private'): { path: string; descriptor: number } {
  for (let attempt = 1; ; attempt++) {
    const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
    try {
      return { path: temporary, descriptor: openSync(temporary, exclusiveWriteFlags, creationModes[access]) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === temporaryNameAttempts) throw error
    }
  }
}

const exclusiveWriteFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0)

/** Pets serialised per write: about 650 KB of JSON, a few milliseconds of work between two turns of the event loop. */
const petsPerChunk = 10_000

/**
 * Writes a snapshot to `path` whole or not at all: temporary file, fsync,
 * rename, then fsync of the directory (best effort). The pets are written in
 * chunks, with the event loop free between them, so that requests are not
 * held up for the whole serialisation (a large catalogue in one
 * `JSON.stringify` held them up for long: test/bench/HISTORY.md, "Figures
 * moved out of source comments"). The snapshot was taken at once before: its
 * pets are a copy of the list, and pets are frozen, so the file is one
 * consistent state.
 */
export async function writeAtomically(path: string, snapshot: StateSnapshot): Promise<void> {
  await writeWhole(path, async (descriptor) => {
    const { pets } = snapshot.catalogue
    // The document with an empty pet list, split where the pets go.
    const [head, tail] = JSON.stringify({ ...snapshot, catalogue: { ...snapshot.catalogue, pets: [] } }).split('"pets":[]')
    await writeText(descriptor, `${head}"pets":[`)
    for (let start = 0; start < pets.length; start += petsPerChunk) {
      const chunk = JSON.stringify(pets.slice(start, start + petsPerChunk)).slice(1, -1)
      await writeText(descriptor, start === 0 ? chunk : `,${chunk}`)
    }
    await writeText(descriptor, `]${tail}`)
  })
}

/** Writes `text` to `path` as a snapshot is written: whole or not at all, never through a symbolic link (`--pact`). */
export async function writeTextAtomically(path: string, text: string, access: FileAccess): Promise<void> {
  await writeWhole(path, (descriptor) => writeText(descriptor, text), access)
}

/**
 * `writeTextAtomically` at once, for a small file written where no event loop turn may pass (`--ready-file`, written
 * between the server listening and the start-up line): the same temporary file, fsync, rename and folder fsync.
 */
export function writeTextAtomicallySync(path: string, text: string, access: FileAccess): void {
  const { path: temporary, descriptor } = createTemporaryFileSync(path, access)
  try {
    const bytes = Buffer.from(text)
    for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written)
    fsyncSync(descriptor)
    closeSync(descriptor)
  } catch (error) {
    try {
      closeSync(descriptor)
    } catch {
      // Already closed, or never usable: the temporary file goes either way.
    }
    unlinkQuietly(temporary)
    throw error
  }
  try {
    renameSync(temporary, path)
  } catch (error) {
    unlinkQuietly(temporary)
    throw error
  }
  syncDirectory(path)
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch {
    // Nothing left to remove.
  }
}

/** A temporary file next to `path` (`O_EXCL | O_NOFOLLOW`), filled by `fill`, fsynced, renamed over `path`, the folder fsynced. */
async function writeWhole(path: string, fill: (descriptor: number) => Promise<void>, access: FileAccess = 'private'): Promise<void> {
  const { path: temporary, descriptor } = createTemporaryFileSync(path, access)
  try {
    await fill(descriptor)
    await promisify(fsync)(descriptor)
  } catch (error) {
    await promisify(close)(descriptor).catch(() => {})
    await unlink(temporary).catch(() => {})
    throw error
  }
  await promisify(close)(descriptor)
  try {
    await rename(temporary, path)
  } catch (error) {
    await unlink(temporary).catch(() => {})
    throw error
  }
  syncDirectory(path)
}

/** Writes all of `text` (a write may take only part of it: a full disk mid-way, a pipe), the event loop free meanwhile. */
async function writeText(descriptor: number, text: string): Promise<void> {
  let bytes = Buffer.from(text)
  while (bytes.length > 0) {
    const { bytesWritten } = await writeBytes(descriptor, bytes)
    bytes = bytes.subarray(bytesWritten)
  }
}

const writeBytes = promisify((descriptor: number, bytes: Buffer, done: (error: Error | null, result: { bytesWritten: number }) => void) =>
  write(descriptor, bytes, (error, bytesWritten) => done(error, { bytesWritten })),
)

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
