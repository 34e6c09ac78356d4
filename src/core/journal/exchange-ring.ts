import { copySlot, entryOverheadBytes, readEntry, Slots, slotBytes } from './exchange-columns.ts'
import type { ExchangeParts } from './journal-exchange.ts'
import { utf8Length } from './journal-exchange.ts'
import type { RecordedRequest } from './journal-types.ts'

/**
 * What the journal holds, copied into bytes: each exchange's method, path,
 * request headers and bodies are encoded into one reused buffer, and its
 * numbers into typed columns, so that holding the last 1,000 exchanges keeps
 * alive no per-request object but the answer's header object (see
 * `Slots.responseHeaders`). Held by reference, every exchange (Node's header
 * list, the body bytes, the answer's header object and text) outlived a
 * scavenge or two at 20,000 requests a second and was promoted, then died in
 * the old generation: at the bench's GET, 2 KB survived each request, and the
 * collector's pauses were 349 ms per 100,000 requests against 93 ms with a
 * journal that kept nothing (`--trace-gc-nvp`, test/bench/HISTORY.md). A
 * copy costs less than a promotion. Entries are decoded only when read.
 *
 * The buffer grows by doubling up to the byte budget, and entries are laid
 * one after the other, starting over at its beginning when the next one does
 * not fit before its end; the oldest entries give way to the new one.
 */
export interface ExchangeRing {
  /**
   * Copies an exchange in (the recorded entry's facts and the parts the pipeline handed over), evicting the oldest
   * as the count and byte budgets require.
   */
  hold(entry: RecordedRequest, parts: ExchangeParts): void
  /** How many entries are held. */
  readonly size: number
  /** Bytes the held entries count against the budget: their copy and `entryOverheadBytes` each. */
  readonly bytes: number
  /** Entries evicted since the last `clear()`. */
  readonly evicted: number
  /** The held entry at `index`, 0 the oldest; its exchange is decoded when first read. */
  entry(index: number): RecordedRequest
  /** The held entries from `index` on, oldest first, as {@link entry} reads them. */
  slice(index: number): RecordedRequest[]
  clear(): void
}

/** A recorded request without its exchange: what the columns hold. */
export type RecordFacts = Omit<RecordedRequest, 'exchange'>

/** The columns' first size; they double as entries come, up to the capacity (1,024 at once took 0.2 ms of a cold start). */
const firstSlots = 64

/** The buffer's first size; it doubles as entries need room, up to the budget. */
const firstBufferBytes = 64 * 1024

const encoder = new TextEncoder()

export function createExchangeRing(capacity: number, maxBytes: number, bodyCap: number): ExchangeRing {
  // The columns count against the budget too: the buffer gets what they leave (at most half of it).
  const maxBuffer = Math.max(0, maxBytes - Math.min(capacity * slotBytes, Math.floor(maxBytes / 2)))
  let buffer = new Uint8Array(Math.min(firstBufferBytes, maxBuffer))
  let slots = new Slots(Math.min(capacity, firstSlots))
  let first = 0
  let size = 0
  let bytes = 0
  /** The held entries' bytes in the buffer (`bytes` without their columns). */
  let bufferBytes = 0
  let evicted = 0
  let writeAt = 0
  /** Where an entry's text and copied body are encoded before they are placed; kept at the largest size needed. */
  let scratch = new Uint8Array(4096)

  const slotOf = (index: number) => (first + index) % slots.capacity
  const evictOldest = () => {
    const slot = first
    bytes -= slots.length[slot]! + entryOverheadBytes
    bufferBytes -= slots.length[slot]!
    slots.operation[slot] = slots.caller[slot] = slots.plan[slot] = ''
    slots.fault[slot] = slots.heldBody[slot] = slots.responseHeaders[slot] = undefined
    first = (first + 1) % slots.capacity
    size--
    evicted++
    if (size === 0) writeAt = 0
  }
  /** The columns at twice their size (up to `capacity`), the held entries first. */
  const growSlots = () => {
    const grown = new Slots(Math.min(capacity, slots.capacity * 2))
    for (let index = 0; index < size; index++) copySlot(slots, slotOf(index), grown, index)
    slots = grown
    first = 0
  }
  /** A bigger buffer, the held entries laid from its start in order. */
  const growBuffer = (needed: number) => {
    let next = Math.max(1, buffer.length * 2)
    while (next < needed) next *= 2
    const grown = new Uint8Array(Math.min(maxBuffer, next))
    let at = 0
    for (let index = 0; index < size; index++) {
      const slot = slotOf(index)
      const start = slots.start[slot]!
      grown.set(buffer.subarray(start, start + slots.length[slot]!), at)
      slots.start[slot] = at
      at += slots.length[slot]!
    }
    buffer = grown
    writeAt = at
  }
  /**
   * Where `reserve` bytes go: after the newest entry, or at the start when they do not fit before the end. The oldest
   * entries in the way are evicted, unless the buffer may still grow: then it grows instead.
   */
  const place = (reserve: number): number => {
    for (;;) {
      const wraps = writeAt + reserve > buffer.length
      const at = wraps ? 0 : writeAt
      const inTheWay =
        size > 0 && ((wraps && slots.start[first]! >= writeAt) || overlaps(slots.start[first]!, slots.length[first]!, at, reserve))
      if (!(inTheWay || reserve > buffer.length) || buffer.length >= maxBuffer) break
      growBuffer(bufferBytes + reserve)
    }
    if (writeAt + reserve > buffer.length) {
      // Starting over: what lies after the newest entry is given up (the oldest entries are there), then the start.
      while (size > 0 && slots.start[first]! >= writeAt) evictOldest()
      writeAt = 0
    }
    while (size > 0 && overlaps(slots.start[first]!, slots.length[first]!, writeAt, reserve)) evictOldest()
    return writeAt
  }

  return {
    hold(facts, parts) {
      // `facts.exchange` (references, for the events) is not what is kept: `parts` are copied.
      const { rawHeaders, requestBody, responseHeaders, responseBody, responseBodyHeld } = parts
      // The request line's parts and the request's header fields, each after a NUL, then the copied response body,
      // written into a scratch buffer (room for 3 bytes of UTF-8 per UTF-16 unit), so that exactly the bytes written are
      // placed (room reserved for the worst case evicted entries that would have stayed). Plain ASCII is copied by hand:
      // joining the fields cost some 500 ns a request and `encodeInto` 100-250 ns a call, against 2 µs for the whole
      // record (Node 24, a 2-core VM). The answer's headers are not copied but referred to, see `Slots.responseHeaders`.
      const requestSize = requestBody?.byteLength ?? 0
      const requestKept = Math.min(requestSize, bodyCap)
      const copiedBody = responseBody !== undefined && responseBodyHeld !== true ? responseBody : undefined
      let textUnits = facts.method.length + 1 + facts.path.length
      if (rawHeaders !== undefined) for (let index = 0; index < rawHeaders.length; index++) textUnits += 1 + rawHeaders[index]!.length
      const bodyRoom = copiedBody === undefined ? 0 : Math.min(bodyCap, 3 * copiedBody.length)
      if (scratch.length < 3 * textUnits + bodyRoom) scratch = new Uint8Array(2 ** Math.ceil(Math.log2(3 * textUnits + bodyRoom)))
      let textBytes = writeUtf8(facts.method, scratch, 0)
      scratch[textBytes++] = 0
      textBytes += writeUtf8(facts.path, scratch, textBytes)
      if (rawHeaders !== undefined) {
        for (let index = 0; index < rawHeaders.length; index++) {
          scratch[textBytes++] = 0 // `separator`, NUL
          textBytes += writeUtf8(rawHeaders[index]!, scratch, textBytes)
        }
      }
      let responseBytes = 0
      let responseSize = -1
      if (copiedBody !== undefined && 3 * copiedBody.length <= bodyCap) responseBytes = writeUtf8(copiedBody, scratch, textBytes)
      else if (copiedBody !== undefined) {
        const written = encoder.encodeInto(copiedBody, scratch.subarray(textBytes, textBytes + bodyRoom))
        responseBytes = written.written
        // Cut at the cap: the size sent is measured only then.
        if (written.read < copiedBody.length) responseSize = utf8Length(copiedBody)
      }
      const length = textBytes + responseBytes + requestKept
      if (capacity === 0 || length + slotBytes > maxBuffer || length + entryOverheadBytes > maxBytes) {
        while (size > 0) evictOldest()
        evicted++
        return
      }
      if (size === capacity) evictOldest()
      if (size === slots.capacity) growSlots()
      const start = place(length)
      buffer.set(textBytes + responseBytes === scratch.length ? scratch : scratch.subarray(0, textBytes + responseBytes), start)
      if (requestKept > 0) {
        buffer.set(requestKept === requestSize ? requestBody! : requestBody!.subarray(0, requestKept), start + textBytes + responseBytes)
      }
      const at = start + length
      const slot = slotOf(size)
      slots.sequence[slot] = facts.sequence
      slots.atMs[slot] = facts.atMs
      slots.wallMs[slot] = facts.wallMs
      slots.durationMs[slot] = facts.durationMs
      slots.requestBodySize[slot] = requestSize
      slots.responseBodySize[slot] = responseSize
      slots.start[slot] = start
      slots.length[slot] = at - start
      slots.textBytes[slot] = textBytes
      slots.requestBodyBytes[slot] = requestKept
      slots.status[slot] = facts.status
      slots.methodLength[slot] = facts.method.length
      slots.pathLength[slot] = facts.path.length
      slots.rawHeaderCount[slot] = rawHeaders === undefined ? -1 : rawHeaders.length
      slots.responseHeaders[slot] = responseHeaders
      slots.forced[slot] = facts.forced === true ? 1 : 0
      slots.operation[slot] = facts.operation
      slots.caller[slot] = facts.caller
      slots.plan[slot] = facts.plan
      slots.fault[slot] = facts.fault
      slots.heldBody[slot] = copiedBody === undefined ? responseBody : undefined
      size++
      writeAt = at
      bytes += at - start + entryOverheadBytes
      bufferBytes += at - start
      while (size > 0 && bytes > maxBytes) evictOldest()
    },
    get size() {
      return size
    },
    get bytes() {
      return bytes
    },
    get evicted() {
      return evicted
    },
    entry(index) {
      const sequence = slots.sequence[slotOf(index)]!
      // Its bytes are overwritten once it is evicted: an exchange read after that is none.
      return readEntry(slots, slotOf(index), buffer, () => size > 0 && sequence >= slots.sequence[first]!)
    },
    slice(index) {
      const entries: RecordedRequest[] = []
      for (let at = index; at < size; at++) entries.push(this.entry(at))
      return entries
    },
    clear() {
      buffer = new Uint8Array(Math.min(firstBufferBytes, maxBuffer))
      slots = new Slots(Math.min(capacity, firstSlots))
      first = size = bytes = bufferBytes = evicted = writeAt = 0
    },
  }
}

/**
 * Writes `text` as UTF-8 into `into` from `at` (the caller leaves room for 3 bytes per UTF-16 unit) and returns the
 * bytes written: short plain ASCII by hand, the rest (from the first other character on) by `encodeInto`.
 */
function writeUtf8(text: string, into: Uint8Array, at: number): number {
  // Past some 48 characters a call of `encodeInto` (SIMD, 100-250 ns a call) costs less than the loop (3-4 ns a character).
  if (text.length > 48) return encoder.encodeInto(text, into.subarray(at)).written
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code >= 0x80) return index + encoder.encodeInto(text.slice(index), into.subarray(at + index)).written
    into[at + index] = code
  }
  return text.length
}

function overlaps(start: number, length: number, at: number, reserve: number): boolean {
  return start < at + reserve && at < start + length
}
