import { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { ConnectionGuard } from '../../src/node/connection-guard.ts'

// The pipelining guard on its own (the server's tests cover it over real sockets: test/node/node-lifecycle.test.ts):
// a connection's requests one at a time, a cap on those waiting, the drain, and one `close` listener per connection.

class FakeSocket extends EventEmitter {
  destroyed = false
  destroy() {
    this.destroyed = true
    this.emit('close')
  }
}

class FakeResponse extends EventEmitter {
  headersSent = false
  writableEnded = false
  readonly headers = new Map<string, string>()
  setHeader(name: string, value: string) {
    this.headers.set(name, value)
  }
  removeHeader(name: string) {
    this.headers.delete(name)
  }
  /** The answer has left for the socket: Node emits `close` on the response. */
  finish() {
    this.headersSent = this.writableEnded = true
    this.emit('close')
  }
}

function request(socket: FakeSocket, complete = true) {
  const incoming = { socket, complete } as unknown as IncomingMessage
  const outgoing = new FakeResponse()
  return { incoming, outgoing, response: outgoing as unknown as ServerResponse }
}

function recorder() {
  const served: IncomingMessage[] = []
  const refused: IncomingMessage[] = []
  return {
    served,
    refused,
    serve: (incoming: IncomingMessage) => void served.push(incoming),
    refuse: (incoming: IncomingMessage) => void refused.push(incoming),
  }
}

describe('the connection guard', () => {
  it('serves a connection one request at a time, in order, the next once the answer before it has left', () => {
    const guard = new ConnectionGuard({ maxPipelinedRequests: 8 })
    const socket = new FakeSocket()
    const { served, serve, refuse } = recorder()
    const [a, b, c] = [request(socket), request(socket), request(socket)]
    for (const each of [a, b, c]) guard.handle(each.incoming, each.response, serve, refuse)
    expect(served).toEqual([a.incoming])
    a.outgoing.finish()
    expect(served).toEqual([a.incoming, b.incoming])
    b.outgoing.finish()
    expect(served).toEqual([a.incoming, b.incoming, c.incoming])
  })

  it('serves other connections meanwhile', () => {
    const guard = new ConnectionGuard({ maxPipelinedRequests: 8 })
    const { served, serve, refuse } = recorder()
    const first = request(new FakeSocket())
    const other = request(new FakeSocket())
    guard.handle(first.incoming, first.response, serve, refuse)
    guard.handle(other.incoming, other.response, serve, refuse)
    expect(served).toEqual([first.incoming, other.incoming])
  })

  it('closes a connection with more than maxPipelinedRequests waiting, serving none of them', () => {
    const guard = new ConnectionGuard({ maxPipelinedRequests: 2 })
    const socket = new FakeSocket()
    const { served, serve, refuse } = recorder()
    const sent = Array.from({ length: 4 }, () => request(socket))
    for (const each of sent) guard.handle(each.incoming, each.response, serve, refuse)
    expect(socket.destroyed).toBe(true)
    sent[0]!.outgoing.finish()
    expect(served).toEqual([sent[0]!.incoming])
  })

  it('on a drain, marks the answer under way Connection: close and refuses the requests whose turn comes later', () => {
    const guard = new ConnectionGuard({ maxPipelinedRequests: 8 })
    const socket = new FakeSocket()
    const { served, refused, serve, refuse } = recorder()
    const a = request(socket)
    guard.handle(a.incoming, a.response, serve, refuse)
    guard.drain()
    expect(guard.draining).toBe(true)
    expect(a.outgoing.headers.get('Connection')).toBe('close')
    // A request behind it during the drain: the answer before it stays open, so that this one gets its 503.
    const b = request(socket)
    guard.handle(b.incoming, b.response, serve, refuse)
    expect(a.outgoing.headers.has('Connection')).toBe(false)
    a.outgoing.finish()
    expect(served).toEqual([a.incoming])
    expect(refused).toEqual([b.incoming])
    expect(b.outgoing.headers.get('Connection')).toBe('close')
  })

  it('says whether a client error can still be answered, and which request is still receiving its body', () => {
    const guard = new ConnectionGuard({ maxPipelinedRequests: 8 })
    const socket = new FakeSocket()
    const { serve, refuse } = recorder()
    expect(guard.canAnswerClientError(socket as never)).toBe(true)
    const uploading = request(socket, false)
    guard.handle(uploading.incoming, uploading.response, serve, refuse)
    expect(guard.receiving(socket as never)).toBe(uploading.incoming)
    expect(guard.canAnswerClientError(socket as never)).toBe(true)
    uploading.outgoing.headersSent = true
    expect(guard.canAnswerClientError(socket as never)).toBe(false)
  })

  it('adds one close listener per connection, not one per request (the A/B of issue 38: 750 bytes a request)', () => {
    const guard = new ConnectionGuard({ maxPipelinedRequests: 8 })
    const socket = new FakeSocket()
    const { served, serve, refuse } = recorder()
    for (let index = 0; index < 100; index++) {
      const each = request(socket)
      guard.handle(each.incoming, each.response, serve, refuse)
      each.outgoing.finish()
    }
    expect(served).toHaveLength(100)
    expect(socket.listenerCount('close')).toBe(1)
  })
})
