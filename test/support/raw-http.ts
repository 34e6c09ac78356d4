import { connect } from 'node:net'

/** Sends raw bytes to a port on 127.0.0.1 and returns what came back before the server closed or `ms` passed. */
export function rawExchange(port: number, payload: string | Buffer, ms = 1000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    const done = () => {
      socket.destroy()
      resolve(received)
    }
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk))
    socket.on('end', done).on('error', done)
    socket.write(payload)
    setTimeout(done, ms)
  })
}

/** The status and the Error `code` (if any) of a raw HTTP/1.1 answer. */
export function statusAndCode(reply: string): { status: number; code: string | undefined } {
  const status = Number(reply.slice(9, 12))
  const body = reply.slice(reply.indexOf('\r\n\r\n') + 4)
  let code: string | undefined
  try {
    code = (JSON.parse(body) as { code?: string }).code
  } catch {
    code = undefined
  }
  return { status, code }
}
