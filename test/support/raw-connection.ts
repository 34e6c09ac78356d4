import { connect, type Socket } from 'node:net'

/** One HTTP/1.1 response read off a raw connection. */
export interface RawResponse {
  readonly status: number
  /** Header names in lower case; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * A raw TCP connection to a test server on 127.0.0.1, for what `fetch`
 * cannot do: keep one socket across requests, send half a request, pipeline,
 * or stay silent. Responses are parsed by `Content-Length` (the simulator
 * always sends one).
 */
export interface RawConnection {
  readonly socket: Socket
  send(bytes: string | Buffer): void
  /** The next whole response; rejects if the connection closes first or `ms` pass. */
  next(ms?: number): Promise<RawResponse>
  /** Resolves (with the ms waited) once the server has closed the connection, or rejects after `ms`. */
  closed(ms?: number): Promise<number>
  /** Everything received so far that no `next()` has taken. */
  pending(): string
  destroy(): void
}

export async function openRawConnection(port: number, localAddress?: string): Promise<RawConnection> {
  const socket = connect({ port, host: '127.0.0.1', localAddress })
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve).once('error', reject)
  })
  let buffer = Buffer.alloc(0)
  let ended = false
  const waiters = new Set<() => void>()
  const wake = () => {
    for (const waiter of [...waiters]) waiter()
  }
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    wake()
  })
  const onEnd = () => {
    ended = true
    wake()
  }
  socket.on('end', onEnd).on('close', onEnd).on('error', onEnd)

  const take = (): RawResponse | undefined => {
    const headEnd = buffer.indexOf('\r\n\r\n')
    if (headEnd === -1) return undefined
    const head = buffer.subarray(0, headEnd).toString('latin1').split('\r\n')
    const headers: Record<string, string> = {}
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    const length = Number(headers['content-length'] ?? 0)
    if (buffer.length < headEnd + 4 + length) return undefined
    const body = buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8')
    buffer = buffer.subarray(headEnd + 4 + length)
    return { status: Number(head[0]!.slice(9, 12)), headers, body }
  }

  const waitFor = <T>(check: () => T | undefined, ms: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const attempt = () => {
        const result = check()
        if (result !== undefined) {
          finish()
          resolve(result)
        } else if (ended) {
          finish()
          reject(new Error(`connection closed before ${what}; received ${JSON.stringify(buffer.toString('latin1').slice(0, 200))}`))
        }
      }
      const timer = setTimeout(() => {
        finish()
        reject(new Error(`no ${what} within ${ms} ms; received ${JSON.stringify(buffer.toString('latin1').slice(0, 200))}`))
      }, ms)
      const finish = () => {
        clearTimeout(timer)
        waiters.delete(attempt)
      }
      waiters.add(attempt)
      attempt()
    })

  return {
    socket,
    send: (bytes) => {
      socket.write(bytes)
    },
    next: (ms = 2000) => waitFor(take, ms, 'response'),
    closed: (ms = 2000) => {
      const started = performance.now()
      return waitFor(() => (ended ? performance.now() - started : undefined), ms, 'close')
    },
    pending: () => buffer.toString('latin1'),
    destroy: () => socket.destroy(),
  }
}

/** A GET with the given headers, as raw HTTP/1.1. */
export function rawGet(path: string, headers: Record<string, string> = {}): string {
  const lines = [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)]
  return `${lines.join('\r\n')}\r\n\r\n`
}
