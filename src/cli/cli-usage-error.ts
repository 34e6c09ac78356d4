/** Exit code for bad flags, unreadable files and a port that cannot be bound. */
export const usageExitCode = 2

/** A command line, environment or input file the CLI cannot run with: its message is printed, the exit code is {@link usageExitCode}. */
export class UsageError extends Error {}

/** Prints the one line of a failed start on stderr and sets the exit code (the usage error's by default). */
export function failWith(message: string, exitCode = usageExitCode): void {
  process.stderr.write(`petstore-sim: ${message}\n`)
  process.exitCode = exitCode
}
