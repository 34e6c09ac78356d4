import type { ChildProcess } from 'node:child_process'

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
