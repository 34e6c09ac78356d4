import { rmSync } from 'node:fs'
import { writeTextAtomicallySync } from '../node/atomic-write.ts'

/**
 * `--ready-file`: the API's URL written to a file once the server listens, so that a script waits for the file
 * (`until [ -s sim.url ]`, checking that the process still runs) instead of reading the log, whose format `--log`
 * changes. Written whole or not at all (a temporary file renamed over it, made as `--state` makes its own: a fresh name
 * opened `O_EXCL | O_NOFOLLOW`, so a symbolic link planted there or at the file's name is never followed), so a waiting
 * script never reads half a URL; removed at start, so that a file left by an earlier run cannot pass for this one, and again at exit.
 */
export function removeReadyFile(path: string): void {
  try {
    rmSync(path, { force: true })
  } catch (error) {
    throw new Error(`--ready-file: cannot remove ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
}

export function writeReadyFile(path: string, apiUrl: string): void {
  writeTextAtomicallySync(path, `${apiUrl}\n`, 'shared')
}
