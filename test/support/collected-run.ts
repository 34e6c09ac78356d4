import { spawn, type SpawnOptions } from 'node:child_process'

/** What a finished process printed, and its exit code (null when a signal ended it, the timeout's included). */
export interface CollectedRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end, collecting what it prints; bound it with `options.timeout`, as every test must. */
export function collectRun(command: string, args: readonly string[], options: SpawnOptions & { timeout: number }): Promise<CollectedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
