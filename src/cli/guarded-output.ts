/**
 * The CLI's standard output, for a reader that may go away: CI scripts pipe
 * the banner into `head -1` or `grep -m1`, and the next log line then fails
 * with EPIPE. Node reports that as an 'error' event on `process.stdout`,
 * which, unhandled, ends the process (the server died on its first request
 * after `petstore-sim | head -1`). Here the first failure closes the output:
 * later lines are dropped without being formatted, one line on stderr says
 * so (if stderr is still open), and the server keeps serving.
 */
export interface GuardedOutput {
  /** Writes a line (a newline is added) while the output is open; drops it after. */
  writeLine(line: string): void
  /** False once a write has failed: callers may skip building what they would write. */
  readonly open: boolean
  /**
   * Says that a server is running: from now on (or now, if it is already
   * closed) a closed output is reported on stderr. Before, it is not: `--help
   * | head -1` is a normal use and exits 0 quietly.
   */
  serving(): void
}

export function guardStandardOutput(
  stdout: NodeJS.WriteStream = process.stdout,
  stderr: NodeJS.WriteStream = process.stderr,
): GuardedOutput {
  let open = true
  let serving = false
  let reason: string | undefined
  const note = () => {
    if (stderr.writable) stderr.write(`petstore-sim: standard output closed (${reason}); request logs are dropped, serving goes on\n`)
  }
  // stderr may be gone too (`2>&1 | head`): its own failures are ignored, never fatal.
  stderr.on('error', () => {})
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (!open) return
    open = false
    reason = error.code ?? error.message
    if (serving) note()
  })
  return {
    writeLine(line) {
      if (open) stdout.write(`${line}\n`)
    },
    get open() {
      return open
    },
    serving() {
      serving = true
      if (!open) note()
    },
  }
}
