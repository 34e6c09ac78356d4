import type { IncomingMessage, ServerResponse } from 'node:http'
import { normalizePath } from '../core/http/path-normalisation.ts'
import type { PlainRequest, TransportFacts } from '../core/http/plain-http.ts'
import type { BodyBudget } from './body-budget.ts'
import { readBody } from './request-body.ts'

/**
 * A Node `IncomingMessage` seen as a {@link PlainRequest}: the direct lane.
 * No Fetch `Request` is built. Headers are read from `rawHeaders`, repeated
 * ones joined with `, ` as Fetch joins them (Node's `headers` object keeps
 * only the first `Authorization`, so two of them would pass on Node and fail
 * on Fetch); the path's dot segments are resolved as the URL parser resolves
 * them; the body is read on demand, counted while it streams.
 */
class IncomingRequestView implements PlainRequest {
  readonly method: string
  readonly path: string
  readonly query: string
  readonly transport: TransportFacts
  readonly #incoming: IncomingMessage
  readonly #bodyLimit: number
  readonly #budget: BodyBudget | undefined
  readonly #beforeRead: (() => void) | undefined
  readonly #outgoing: ServerResponse | undefined
  #body: Promise<Uint8Array> | undefined
  #signal: AbortSignal | undefined

  constructor(
    incoming: IncomingMessage,
    bodyLimit: number,
    transport: TransportFacts,
    budget: BodyBudget | undefined,
    beforeRead: (() => void) | undefined,
    outgoing: ServerResponse | undefined,
  ) {
    const target = originForm(incoming.url ?? '')
    const queryStart = target.indexOf('?')
    this.method = incoming.method ?? 'GET'
    this.path = normalizePath(queryStart === -1 ? target : target.slice(0, queryStart))
    this.query = queryStart === -1 ? '' : target.slice(queryStart + 1)
    this.transport = transport
    this.#incoming = incoming
    this.#bodyLimit = bodyLimit
    this.#budget = budget
    this.#beforeRead = beforeRead
    this.#outgoing = outgoing
  }

  /** Made when first asked for (an answer that waits asks; most never do), from the response's `close`. */
  get signal(): AbortSignal | undefined {
    if (this.#signal === undefined && this.#outgoing !== undefined) this.#signal = clientGoneSignal(this.#outgoing)
    return this.#signal
  }

  get authority(): string | undefined {
    return this.header('host')
  }

  header(name: string): string | undefined {
    return readRawHeader(this.#incoming.rawHeaders, name)
  }

  /** For the journal: Node's own list, not copied. */
  headerList(): readonly string[] {
    return this.#incoming.rawHeaders
  }

  readBody(): Promise<Uint8Array> {
    this.#body ??= readBody(this.#incoming, this.#bodyLimit, this.#budget, this.#beforeRead)
    return this.#body
  }
}

/**
 * The target in origin form (`/v1/pets?limit=1`): an absolute-form target
 * (`http://host/v1/pets`, what a client sends a proxy) is read as its path and
 * query, as RFC 9112 §3.2.2 says a server must accept it.
 */
export function originForm(target: string): string {
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target)
  if (absolute === null) return target
  const rest = target.slice(absolute[0].length)
  return rest.startsWith('/') ? rest : `/${rest}`
}

/**
 * The direct lane's view of a Node request; with `outgoing`, its `signal` says when the client has gone. `clientAddress`:
 * the socket's peer unless a trusted proxy says otherwise (`forwarded-address.ts`).
 */
export function fromIncomingMessage(
  incoming: IncomingMessage,
  bodyLimit: number,
  budget?: BodyBudget,
  beforeRead?: () => void,
  outgoing?: ServerResponse,
  clientAddress: string | undefined = incoming.socket.remoteAddress,
): PlainRequest {
  return new IncomingRequestView(incoming, bodyLimit, { clientAddress }, budget, beforeRead, outgoing)
}

/**
 * A signal aborted when a response's connection closes before the response is finished: its client went away.
 * A response emits `close` once, when it is done or its connection is: the listener goes with it.
 */
export function clientGoneSignal(outgoing: ServerResponse): AbortSignal {
  const controller = new AbortController()
  if (outgoing.closed && !outgoing.writableFinished) controller.abort()
  else
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) controller.abort()
    })
  return controller.signal
}

/** A header's value from Node's raw name/value list, by lower-case name; repeated fields joined with `, `. */
export function readRawHeader(raw: readonly string[], name: string): string | undefined {
  let value: string | undefined
  for (let index = 0; index < raw.length; index += 2) {
    const candidate = raw[index]!
    if (candidate.length === name.length && candidate.toLowerCase() === name) {
      value = value === undefined ? raw[index + 1]! : `${value}, ${raw[index + 1]!}`
    }
  }
  return value
}
