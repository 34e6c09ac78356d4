/** How the server logs: one human line per request, one JSON object per line, or nothing. */
export type LogFormat = 'pretty' | 'json' | 'silent'
export const logFormats: readonly LogFormat[] = ['pretty', 'json', 'silent']

/** One answered request, as logged. Never holds an API key. */
export interface RequestLogRecord {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly durationMs: number
  /** The caller's plan, `anonymous`, or `-` for requests outside the API. */
  readonly plan: string
  /** The key's fingerprint, `anonymous`, or `-`. */
  readonly caller: string
}

export type RequestLogger = (record: RequestLogRecord) => void

/**
 * A request logger writing to `write` (stdout by default).
 *
 * @example
 * const log = createRequestLogger('json', (line) => lines.push(line))
 */
export function createRequestLogger(format: LogFormat, write: (line: string) => void): RequestLogger {
  switch (format) {
    case 'silent':
      return () => {}
    case 'json':
      return (record) => write(JSON.stringify({ time: new Date().toISOString(), ...record }))
    case 'pretty':
      return (record) =>
        write(`${record.method} ${record.path} ${record.status} ${record.durationMs.toFixed(1)}ms ${record.plan} ${record.caller}`)
  }
}
