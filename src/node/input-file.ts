import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs'

/**
 * A file that is not one the simulator reads: not a regular file (a FIFO, a device, a directory), or over the size
 * cap. Errors of the file system itself (`ENOENT`, `EACCES`…) are thrown as they are, with their `code`.
 */
export class InputFileError extends Error {}

/**
 * The text (UTF-8) of a regular file of at most `maxBytes` bytes. Checked before a byte is read, by `stat` (which
 * does not block on a FIFO, where `open` would wait for a writer) and again on the open file, which is opened
 * non-blocking and read to at most `maxBytes` (a file that grows meanwhile is refused too): `readFileSync` of
 * `/dev/zero` read until memory ran out, and of a FIFO hung start-up.
 */
export function readInputFile(path: string, maxBytes: number): string {
  check(statSync(path), maxBytes)
  const descriptor = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    check(fstatSync(descriptor), maxBytes)
    const chunks: Buffer[] = []
    let length = 0
    for (;;) {
      // One byte past the cap at most: enough to tell a file that grew past it.
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - length))
      const read = readSync(descriptor, chunk, 0, chunk.length, null)
      if (read === 0) break
      length += read
      if (length > maxBytes) throw tooLarge(maxBytes)
      chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read))
    }
    return Buffer.concat(chunks, length).toString('utf8')
  } finally {
    closeSync(descriptor)
  }
}

function check(stats: Stats, maxBytes: number): void {
  if (!stats.isFile()) throw new InputFileError(`not a regular file (${kind(stats)}); only regular files are read`)
  if (stats.size > maxBytes) throw tooLarge(maxBytes, stats.size)
}

function tooLarge(maxBytes: number, size?: number): InputFileError {
  return new InputFileError(`larger than ${maxBytes} bytes${size === undefined ? '' : ` (${size} bytes)`}, the most read`)
}

function kind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  if (stats.isSocket()) return 'a socket'
  return 'not a file'
}

/** The one-line reason a file could not be read: the cap or the kind, or the file system's error code. */
export function unreadableReason(error: unknown): string {
  if (error instanceof InputFileError) return error.message
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message
}
