import type { Socket } from 'node:net'
import { ApiError } from '../core/http/api-error.ts'
import type { PlainResponse } from '../core/http/plain-http.ts'

// Taken as in server.ts (process.getBuiltinModule): an ESM import of node:http loads undici at start-up.
const { STATUS_CODES, maxHeaderSize: httpMaxHeaderSize } = process.getBuiltinModule('node:http')

/**
 * The answer to an error Node's parser or its timeout check reports, or
 * undefined for a plain close: a reset connection, or one that timed out
 * without sending a byte. That one has no request to answer (a browser's
 * preconnect, a port scan), so it is closed as nginx closes it after
 * `client_header_timeout`; Node's own handler wrote it a 408.
 */
export function clientErrorAnswer(
  error: NodeJS.ErrnoException,
  socket: Socket,
  headersTimeout: number,
  requestTimeout: number,
): ApiError | undefined {
  switch (error.code) {
    case 'ECONNRESET':
      return undefined
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      if (socket.bytesRead === 0) return undefined
      return new ApiError(
        'request_timeout',
        `The request did not arrive in time: its headers are due within ${headersTimeout} ms and the whole request within ${requestTimeout} ms`,
      )
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large', `The request's headers are over ${httpMaxHeaderSize} bytes`)
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('payload_too_large', 'The chunk extensions of the request body are too large')
    default:
      return new ApiError('bad_request', `Malformed HTTP request: ${error.code ?? error.message}`)
  }
}

/**
 * The `Origin` of a request Node's parser gave up on, read from the bytes it
 * had buffered (`rawPacket`), when they hold one: a best effort, for CORS.
 */
export function originInRawPacket(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): string | undefined {
  const packet = error.rawPacket?.toString('latin1')
  // The line is found by a literal search and trimmed by hand: a lazy capture before `[ \t]*\r\n` backtracked
  // quadratically on a value of spaces (`x<15,000 spaces>y`; test/bench/HISTORY.md, "Figures moved out of source
  // comments").
  const at = packet === undefined ? -1 : packet.toLowerCase().indexOf('\r\norigin:')
  const end = at === -1 ? -1 : packet!.indexOf('\r\n', at + 2)
  const origin = end === -1 ? undefined : trimSpacesAndTabs(packet!.slice(at + '\r\norigin:'.length, end))
  return origin !== undefined && /^https?:\/\/[\w.-]+(:\d+)?$|^https?:\/\/\[[\da-fA-F:.]+\](:\d+)?$/.test(origin) ? origin : undefined
}

/** A plain response as HTTP/1.1 bytes, for a socket Node's parser gave up on; the connection closes after it. */
export function rawHttpResponse(response: PlainResponse): string {
  const body = response.body ?? ''
  const headers = Object.entries({ ...response.headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  return `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Error'}\r\n${headers}\r\n${body}`
}

/** The text without the spaces and tabs around it (HTTP's optional white space, RFC 9110 §5.6.3). */
function trimSpacesAndTabs(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && (text[start] === ' ' || text[start] === '\t')) start++
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--
  return text.slice(start, end)
}
