import type { IncomingMessage } from 'node:http'
import { redactUrl } from '../core/journal/journal-redaction.ts'
import type { JournalRecordForLog } from '../core/http/plain-http.ts'

/** How the server logs: one human line per request, one JSON object per line, or nothing. */
export type LogFormat = 'pretty' | 'json' | 'silent'
export const logFormats: readonly LogFormat[] = ['pretty', 'json', 'silent']

/** How a log line ranks: `error` for a 5xx or no answer at all (a fault's reset or hang), `warn` for a 4xx. */
export type LogLevel = 'info' | 'warn' | 'error'

/** One answered request, as logged. Never holds an API key nor a credential-named query value. */
export interface RequestLogRecord {
  readonly level: LogLevel
  readonly method: string
  readonly path: string
  readonly status: number
  /** The operation (`listPets`…) for the API's requests, `-` for the rest. */
  readonly operation: string
  /** The Error body's `code` of an error answer (`pet_not_found`), else undefined. */
  readonly code?: string | undefined
  /** Milliseconds, to a tenth: the timer's own digits beyond that are noise. */
  readonly durationMs: number
  /** The caller's plan, `anonymous`, or `-` for requests outside the API. */
  readonly plan: string
  /** The key's fingerprint, `anonymous`, or `-`. */
  readonly caller: string
  /**
   * The page's `Origin` of a request refused for it (`origin_not_allowed`). The page itself sees only "Failed to
   * fetch" (the refusal has no CORS grant), so the log is where the origin and the flag that allows it are named.
   */
  readonly origin?: string | undefined
  /**
   * The Error's message of a refused provider state (`invalid_provider_state`), naming the phrases accepted: Pact's
   * verifier shows only `Invalid status code: 400`, so the log is where the team reads why (issue 36).
   */
  readonly message?: string | undefined
  /** Set when `Prefer: code=` forced the answer: the simulator did not decide it (nothing changed, nothing counted). */
  readonly forced?: true | undefined
  /** The id of the fault rule (`f1`) that shaped the answer: `GET /__sim/faults` lists it, the banner of a restored state too. */
  readonly fault?: string | undefined
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
        write(
          `${record.method} ${record.path} ${record.status}${record.code === undefined ? '' : ` ${record.code}`} ${record.durationMs.toFixed(1)}ms ${record.plan} ${record.caller}${record.forced === true ? ' (forced)' : ''}${record.fault === undefined ? '' : ` (fault: ${record.fault})`}${record.origin === undefined ? '' : ` from a page on ${record.origin}: allow it with --cors-origin ${record.origin}`}${record.message === undefined ? '' : ` refused: ${record.message}`}`,
        )
  }
}

/** The logger a server's `log` option names, or undefined for `silent`: silent logging costs nothing per request, no record is built. */
export function loggerFor(format: LogFormat | RequestLogger): RequestLogger | undefined {
  if (typeof format === 'function') return format
  return format === 'silent' ? undefined : createRequestLogger(format, (line) => process.stdout.write(`${line}\n`))
}

/**
 * Logs one answered request. The path, plan and caller are the journal's
 * when the API answered (the path as resolved, the key as a fingerprint),
 * otherwise the request's target and `-`; either with the one redaction
 * rule applied (credential-named query values, user info) and `scrub`
 * replacing any key in force by its label.
 */
export function logAnswer(
  log: RequestLogger,
  incoming: IncomingMessage,
  answer: { readonly status: number; readonly body?: string | undefined; readonly journalEntry?: JournalRecordForLog | undefined },
  started: number,
  scrub: (text: string) => string = (text) => text,
): void {
  const entry = answer.journalEntry
  const { status } = answer
  const error = status >= 400 ? errorOf(answer.body) : undefined
  const code = error?.code
  log({
    level: status === 0 || status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info',
    method: incoming.method ?? '-',
    path: scrub(redactUrl(entry?.path ?? (incoming.url ?? '-').slice(0, 2048))),
    status,
    operation: entry?.operation ?? '-',
    code,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    plan: entry?.plan ?? '-',
    caller: entry?.caller ?? '-',
    ...(code === 'origin_not_allowed' ? { origin: printable(incoming.headers.origin) } : {}),
    ...(code === 'invalid_provider_state' && error?.message !== undefined ? { message: oneLine(scrub(error.message)) } : {}),
    ...(entry?.forced === true ? { forced: true } : {}),
    ...(entry?.fault === undefined ? {} : { fault: entry.fault }),
  })
}

/** A header as one printable token for a log line: at most 200 characters, anything but visible ASCII as `?`. */
function printable(value: string | undefined): string {
  return (value ?? '-').slice(0, 200).replace(/[^\x21-\x7e]/g, '?')
}

/**
 * A message as one log line: at most 2,000 characters, control characters and line separators as `?` (the state's
 * name in it is the client's text; JSON escapes C0 but not C1, U+2028 or U+2029).
 */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return text.slice(0, 2000).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?')
}

/** The `code` and `message` of an Error body; only error answers are read, so a success costs nothing here. */
function errorOf(body: string | undefined): { code?: string | undefined; message?: string | undefined } | undefined {
  if (body === undefined) return undefined
  try {
    const { code, message } = JSON.parse(body) as { code?: unknown; message?: unknown }
    return {
      code: typeof code === 'string' ? code : undefined,
      message: typeof message === 'string' ? message : undefined,
    }
  } catch {
    return undefined
  }
}
