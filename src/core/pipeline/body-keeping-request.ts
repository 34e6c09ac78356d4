import type { PlainRequest, TransportFacts } from '../http/plain-http.ts'

/** Where a request's body is kept once something has read it, for the journal. */
export interface BodySink {
  bytes?: Uint8Array
}

/**
 * A request whose body, once read, is also kept in `sink`. A class: one is
 * made for every POST, and its methods are shared on the prototype instead
 * of made as closures each time.
 */
export class BodyKeepingRequest implements PlainRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly transport: TransportFacts
  readonly #request: PlainRequest
  readonly #sink: BodySink

  constructor(request: PlainRequest, sink: BodySink) {
    this.method = request.method
    this.path = request.path
    this.query = request.query
    this.transport = request.transport
    this.#request = request
    this.#sink = sink
  }

  /** Read only when asked: the Node lane finds Host in its raw headers. */
  get authority(): string | undefined {
    return this.#request.authority
  }

  header(name: string): string | undefined {
    return this.#request.header(name)
  }

  headerList(): readonly string[] {
    return this.#request.headerList?.() ?? []
  }

  readBody(): Promise<Uint8Array> {
    const sink = this.#sink
    return this.#request.readBody().then((bytes) => {
      sink.bytes = bytes
      return bytes
    })
  }
}
