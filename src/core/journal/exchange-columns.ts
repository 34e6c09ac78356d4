import type { CapturedExchange } from './journal-exchange.ts'
import type { RecordedRequest } from './journal-types.ts'

// The exchange ring's columns (exchange-ring.ts): an entry's numbers and the simulator's own strings, one slot per
// entry, and how a held entry is read back from them and the ring's bytes.

/** What each entry's columns take in memory: 15 numbers and 6 references. */
export const slotBytes = 128

/**
 * What an entry counts against the journal's byte budget besides its bytes in the ring: its columns, and the answer's
 * header object it refers to (an estimate: the object and its short values, some 300 bytes in a heap snapshot).
 */
export const entryOverheadBytes = slotBytes + 384

/** Between header fields: a field's name and value never hold NUL (RFC 9110 §5.5; Node and Fetch refuse them). */
export const separator = '\u0000'

const decoder = new TextDecoder()

/**
 * The columns, one entry per slot. A class with every field set in its constructor: one shape, so that the stores of
 * every record are monomorphic (an object assembled from a list of names made them dictionary lookups).
 */
export class Slots {
  readonly capacity: number
  readonly sequence: Float64Array
  readonly atMs: Float64Array
  readonly wallMs: Float64Array
  readonly durationMs: Float64Array
  readonly requestBodySize: Float64Array
  /** -1 when the body was kept whole. */
  readonly responseBodySize: Float64Array
  readonly start: Uint32Array
  readonly length: Uint32Array
  readonly textBytes: Uint32Array
  readonly requestBodyBytes: Uint32Array
  readonly methodLength: Uint32Array
  readonly pathLength: Uint32Array
  /** -1 when the lane could not list them. */
  readonly rawHeaderCount: Int32Array
  readonly status: Uint16Array
  readonly forced: Uint8Array
  /** The simulator's own strings (route names, key fingerprints, plan labels, rule ids): references cost nothing. */
  readonly operation: string[]
  readonly caller: string[]
  readonly plan: string[]
  readonly fault: (string | undefined)[]
  /** A response body held elsewhere for longer than a request (a kept page of pets): referenced, not copied. */
  readonly heldBody: (string | undefined)[]
  /**
   * The answer's header object, referred to and read when the entry is: the app adds its CORS headers and the Node
   * lane its `Content-Length` after the journal has recorded the answer, and the journal shows the headers as sent.
   * The one object an entry keeps alive (some 150-300 bytes: the object and its number strings).
   */
  readonly responseHeaders: (Readonly<Record<string, string>> | undefined)[]

  constructor(capacity: number) {
    this.capacity = capacity
    this.sequence = new Float64Array(capacity)
    this.atMs = new Float64Array(capacity)
    this.wallMs = new Float64Array(capacity)
    this.durationMs = new Float64Array(capacity)
    this.requestBodySize = new Float64Array(capacity)
    this.responseBodySize = new Float64Array(capacity)
    this.start = new Uint32Array(capacity)
    this.length = new Uint32Array(capacity)
    this.textBytes = new Uint32Array(capacity)
    this.requestBodyBytes = new Uint32Array(capacity)
    this.methodLength = new Uint32Array(capacity)
    this.pathLength = new Uint32Array(capacity)
    this.rawHeaderCount = new Int32Array(capacity)
    this.status = new Uint16Array(capacity)
    this.forced = new Uint8Array(capacity)
    this.operation = new Array<string>(capacity).fill('')
    this.caller = new Array<string>(capacity).fill('')
    this.plan = new Array<string>(capacity).fill('')
    this.fault = new Array<string | undefined>(capacity).fill(undefined)
    this.heldBody = new Array<string | undefined>(capacity).fill(undefined)
    this.responseHeaders = new Array<Readonly<Record<string, string>> | undefined>(capacity).fill(undefined)
  }
}

const columnNames = [
  'sequence',
  'atMs',
  'wallMs',
  'durationMs',
  'requestBodySize',
  'responseBodySize',
  'start',
  'length',
  'textBytes',
  'requestBodyBytes',
  'methodLength',
  'pathLength',
  'rawHeaderCount',
  'status',
  'forced',
  'operation',
  'caller',
  'plan',
  'fault',
  'heldBody',
  'responseHeaders',
] as const satisfies ReadonlyArray<Exclude<keyof Slots, 'capacity'>>

export function copySlot(from: Slots, fromSlot: number, to: Slots, toSlot: number): void {
  for (const name of columnNames) (to[name] as unknown as unknown[])[toSlot] = (from[name] as unknown as unknown[])[fromSlot]
}

/** A held entry as a recorded request; its exchange decoded from the buffer when first read, and only then. */
export function readEntry(slots: Slots, slot: number, buffer: Uint8Array, held: () => boolean): RecordedRequest {
  const start = slots.start[slot]!
  const textBytes = slots.textBytes[slot]!
  const text = decoder.decode(buffer.subarray(start, start + textBytes))
  const methodLength = slots.methodLength[slot]!
  // `method`, the separator, `path`, then each further field after a separator.
  const pathEnd = methodLength + 1 + slots.pathLength[slot]!
  const rawHeaderCount = slots.rawHeaderCount[slot]!
  const requestBodyBytes = slots.requestBodyBytes[slot]!
  const requestBodySize = slots.requestBodySize[slot]!
  const heldBody = slots.heldBody[slot]
  const responseHeaders = slots.responseHeaders[slot] ?? {}
  const responseBodySize = slots.responseBodySize[slot]!
  // The text, the copied response body, the request body.
  const responseStart = start + textBytes
  const bodyEnd = start + slots.length[slot]!
  const responseEnd = bodyEnd - requestBodyBytes
  let exchange: CapturedExchange | undefined
  const decodeExchange = (): CapturedExchange => {
    // The fields after the path, each after a separator: the request's header list, then the answer's names and values.
    const fields = text.length > pathEnd ? text.slice(pathEnd + 1).split(separator) : []
    const headerFields = Math.max(0, rawHeaderCount)
    return {
      rawHeaders: rawHeaderCount === -1 ? undefined : fields.slice(0, headerFields),
      requestBody: requestBodySize === 0 && requestBodyBytes === 0 ? undefined : buffer.slice(responseEnd, bodyEnd),
      requestBodySize,
      responseHeaders,
      responseBody:
        heldBody ?? (responseEnd > responseStart || responseBodySize >= 0 ? buffer.slice(responseStart, responseEnd) : undefined),
      responseBodySize,
    }
  }
  const fault = slots.fault[slot]
  return {
    sequence: slots.sequence[slot]!,
    atMs: slots.atMs[slot]!,
    wallMs: slots.wallMs[slot]!,
    method: text.slice(0, methodLength),
    path: text.slice(methodLength + 1, pathEnd),
    status: slots.status[slot]!,
    operation: slots.operation[slot]!,
    caller: slots.caller[slot]!,
    plan: slots.plan[slot]!,
    durationMs: slots.durationMs[slot]!,
    ...(slots.forced[slot] === 1 ? { forced: true as const } : {}),
    ...(fault === undefined ? {} : { fault }),
    get exchange() {
      if (exchange === undefined && held()) exchange = decodeExchange()
      return exchange
    },
  }
}
