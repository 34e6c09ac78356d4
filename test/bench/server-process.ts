import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * The API URL a starting server prints (`listening on http://…`), read the
 * moment the line arrives (event-driven, not on a polling tick); the process
 * is killed if it does not come within `timeoutMs`.
 */
export async function listeningUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  let out = ''
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), timeoutMs)
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
  }).catch((error: unknown) => {
    child.kill('SIGKILL')
    throw error
  })
}

/** The routes every load run measures, the same in `npm run bench`'s tables and the shared store's. */
export const workloads = {
  list: { label: 'GET /v1/pets?limit=20', method: 'GET', path: '/pets?limit=20' },
  create: { label: 'POST /v1/pets', method: 'POST', path: '/pets' },
  get: { label: 'GET /v1/pets/1 (getPet)', method: 'GET', path: '/pets/1' },
} as const
export type Workload = keyof typeof workloads

/**
 * The simulator's flags for a load run: `key` unlimited, no ban, no store cap (the POST runs create hundreds of
 * thousands of pets: past --max-pets' default they would be 507s, which are cheaper than a create).
 */
export function loadRunFlags(key: string): string[] {
  return [
    '--port',
    '0',
    '--log',
    'silent',
    '--ban-after',
    'off',
    '--max-pets',
    '100000000',
    '--key',
    `${key}=enterprise:1000000000/1000000000`,
  ]
}

/** A process's utime + stime so far, in clock ticks (USER_HZ, 100 a second on Linux), from `/proc`. */
export function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return Number(fields[11]) + Number(fields[12]) // utime + stime, after the command name
}
