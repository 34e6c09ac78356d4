import { ApiError } from '../../core/http/api-error.ts'
import type { PlainResponse, StreamSink } from '../../core/http/plain-http.ts'
import type { RecordedRequest } from '../../core/journal/request-journal.ts'
import { createKeyScrubber } from '../../core/journal/journal-redaction.ts'
import { toSummary } from '../../core/journal/journal-views.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import type { SimulatorEvent } from '../../core/simulator/simulator-events.ts'
import { unrefTimer } from '../json-stream.ts'

/** How the dashboard's event streams batch, bound and keep alive what they send. */
export interface EventStreamOptions {
  /** At most one write per stream in this many ms: requests and changes in between go out together. Default 100. */
  readonly flushMs?: number
  /** A comment line this often, so that proxies and browsers keep an idle stream open. Default 15 000. */
  readonly heartbeatMs?: number
  /** Requests kept per batch; past it the oldest are left out and counted as `skipped`. Default 200. */
  readonly maxBatch?: number
  /** A client that takes nothing for this long (its buffer stays full) is dropped; it reconnects. Default 10 000. */
  readonly stallMs?: number
  /** Journal entries sent when a stream opens. Default 100. */
  readonly initialRequests?: number
  /** Streams open at once; one more is refused with 503 `too_many_streams`. Default {@link maxEventStreams}. */
  readonly maxStreams?: number
}

/**
 * Event streams open at once, by default: a dashboard is one stream, and ten
 * open cost the API little (`npm run bench`; test/bench/HISTORY.md, "Figures
 * moved out of source comments"); past 32 a client is more likely a leak
 * (tabs reopened in a loop) than a person.
 */
export const maxEventStreams = 32

/** The event streams of one control plane: each `GET /__sim/events` gets one. */
export interface EventStreams {
  /** A new stream's response (`text/event-stream`). */
  respond(): PlainResponse
  /** Ends every open stream (a server's drain): the clients see the end, and reconnect to whatever comes next. */
  closeAll(): void
  /** Streams open now. */
  readonly size: number
}

/**
 * `GET /__sim/events`: server-sent events (the WHATWG HTML event-stream
 * format) of one simulator.
 *
 * - on opening: `retry: 1000`, an `event: state` with `simulator.state()`,
 *   and an `event: requests` with the summaries of the last journal entries;
 * - then, at most once per `flushMs`: `event: reset` after a reset, `event:
 *   requests` (`{"requests": [entries], "skipped": n}`) with the requests
 *   answered since the last write, and `event: state` when anything changed;
 * - `: ping` comments between.
 *
 * The API is not slowed: the simulator's listener only keeps a reference to
 * each journal entry in a bounded ring (the newest `maxBatch`); entries are
 * serialised once per batch, off the request's turn. A client that does not
 * read keeps nothing growing: its batches wait in the ring, and after
 * `stallMs` it is dropped.
 */
export function createEventStreams(simulator: SimulatorCore, options: EventStreamOptions = {}): EventStreams {
  const scrub = createKeyScrubber(() => simulator.keys)
  const flushMs = options.flushMs ?? 100
  const heartbeatMs = options.heartbeatMs ?? 15_000
  const maxBatch = options.maxBatch ?? 200
  const stallMs = options.stallMs ?? 10_000
  const initialRequests = options.initialRequests ?? 100
  const maxStreams = options.maxStreams ?? maxEventStreams
  const open = new Set<Subscriber>()

  // One listener and one ring for every stream (issue #20: a listener, a ring and a serialisation per stream cost
  // the API per dashboard). Positions count requests since the hub started; each stream remembers how far it got.
  const ring: Array<RecordedRequest | undefined> = new Array<RecordedRequest | undefined>(maxBatch)
  let received = 0
  /** Bumped by a reset: a stream that has not seen it gets `event: reset`. */
  let resets = 0
  /** Where the journal starts over after the last reset. */
  let resetAt = 0
  /** Bumped by every event: a stream behind it gets `event: state`. */
  let version = 0
  let flushTimer: ReturnType<typeof setTimeout> | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let unsubscribe: (() => void) | undefined

  const headers = (): Record<string, string> => ({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // nginx buffers responses unless told not to; a stream must arrive as it is written.
    'X-Accel-Buffering': 'no',
  })

  /** What a stream that got as far as `from` is sent now; streams at the same point share one string. */
  function chunkFor(from: Position, state: () => string): string {
    let chunk = ''
    if (from.resets !== resets) chunk += 'event: reset\ndata: {}\n\n'
    const since = from.resets === resets ? from.received : Math.max(from.received, resetAt)
    const fresh = received - since
    if (fresh > 0) {
      const count = Math.min(fresh, maxBatch)
      const entries = []
      for (let index = count; index > 0; index--) entries.push(toSummary(ring[(received - index) % maxBatch]!, scrub))
      chunk += `event: requests\ndata: ${JSON.stringify({ requests: entries, skipped: fresh - count })}\n\n`
    }
    if (from.version !== version) chunk += `event: state\ndata: ${state()}\n\n`
    return chunk
  }

  const flush = () => {
    flushTimer = undefined
    let stateText: string | undefined
    const state = () => (stateText ??= JSON.stringify(simulator.state()))
    const chunks = new Map<string, string>()
    let behind = false
    const now = Date.now()
    for (const subscriber of [...open]) {
      const { position } = subscriber
      if (position.received === received && position.resets === resets && position.version === version) continue
      if (!subscriber.sink.hasRoom) {
        // The client has not taken the last batches: wait (the ring keeps only the newest), or give up on it.
        subscriber.stalledSince ??= now
        if (now - subscriber.stalledSince >= stallMs) subscriber.drop()
        else behind = true
        continue
      }
      subscriber.stalledSince = undefined
      const at = `${position.received}/${position.resets}/${position.version}`
      let chunk = chunks.get(at)
      if (chunk === undefined) {
        try {
          chunk = chunkFor(position, state)
        } catch {
          // A timer has no one to answer: a throw here (a bad clock option, say) would end the process. The streams
          // end instead; the pages reconnect, and a reconnection's answer is the Error response.
          for (const each of [...open]) each.end()
          return
        }
        chunks.set(at, chunk)
      }
      subscriber.position = { received, resets, version }
      if (chunk !== '') subscriber.sink.write(chunk)
    }
    if (behind) schedule()
  }
  function schedule(): void {
    flushTimer ??= setTimeout(flush, flushMs)
  }
  const listener = (event: SimulatorEvent) => {
    if (event.type === 'request') {
      ring[received % maxBatch] = event.entry
      received++
    } else if (event.type === 'reset') {
      // What came before the reset is gone from the journal too.
      ring.fill(undefined)
      resets++
      resetAt = received
    }
    version++
    schedule()
  }

  /** What a stream opens with, read when the request is answered: a throw is that request's Error response. */
  function opening(): string {
    const state = JSON.stringify(simulator.state())
    // Summaries, as every later batch sends (the page fetches an exchange when one is opened): whole entries were
    // megabytes per stream, held for a client that did not read (issue #20; test/bench/HISTORY.md, "Figures moved
    // out of source comments").
    const requests = JSON.stringify({ requests: simulator.journal.latestSummaries(initialRequests), skipped: 0 })
    return `retry: 1000\n\nevent: state\ndata: ${state}\n\nevent: requests\ndata: ${requests}\n\n`
  }

  function start(sink: StreamSink, first: string): () => void {
    const subscriber: Subscriber = { sink, position: { received, resets, version }, stalledSince: undefined, end, drop }
    if (open.size === 0) {
      unsubscribe = simulator.events.subscribe(listener)
      heartbeat = setInterval(() => {
        for (const each of open) if (each.sink.hasRoom) each.sink.write(': ping\n\n')
      }, heartbeatMs)
      unrefTimer(heartbeat)
    }
    open.add(subscriber)
    let closed = false
    function close(): void {
      if (closed) return
      closed = true
      open.delete(subscriber)
      if (open.size > 0) return
      unsubscribe?.()
      unsubscribe = undefined
      clearInterval(heartbeat)
      if (flushTimer !== undefined) clearTimeout(flushTimer)
      flushTimer = undefined
    }
    function end(): void {
      if (closed) return
      close()
      sink.end()
    }
    // A stalled client is cut off, not ended: an ended answer waits, with what was written, for a reader that never
    // comes, and its slot is free for another such client (issue #20).
    function drop(): void {
      if (closed) return
      close()
      if (sink.abort === undefined) sink.end()
      else sink.abort()
    }

    sink.write(first)
    return close
  }

  return {
    respond() {
      if (open.size >= maxStreams) {
        throw new ApiError('too_many_streams', `At most ${maxStreams} event streams are open at once; close a dashboard, or retry later`, {
          'Retry-After': '5',
        })
      }
      const first = opening()
      return { status: 200, headers: headers(), body: undefined, stream: { open: (sink) => start(sink, first) } }
    },
    closeAll() {
      for (const subscriber of [...open]) subscriber.end()
    },
    get size() {
      return open.size
    },
  }
}

/** How far a stream got: requests received, resets and changes seen. */
interface Position {
  readonly received: number
  readonly resets: number
  readonly version: number
}

interface Subscriber {
  readonly sink: StreamSink
  position: Position
  stalledSince: number | undefined
  readonly end: () => void
  readonly drop: () => void
}
