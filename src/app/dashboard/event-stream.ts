import type { PlainResponse, StreamSink } from '../../core/pipeline/plain-http.ts'
import { toEntry, type RecordedRequest } from '../../core/simulator/request-journal.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import type { SimulatorEvent } from '../../core/simulator/simulator-events.ts'

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
}

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
 *   and an `event: requests` with the last journal entries;
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
  const flushMs = options.flushMs ?? 100
  const heartbeatMs = options.heartbeatMs ?? 15_000
  const maxBatch = options.maxBatch ?? 200
  const stallMs = options.stallMs ?? 10_000
  const initialRequests = options.initialRequests ?? 100
  const open = new Set<() => void>()

  const headers = (): Record<string, string> => ({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // nginx buffers responses unless told not to; a stream must arrive as it is written.
    'X-Accel-Buffering': 'no',
  })

  /** What a stream opens with, read when the request is answered: a throw is that request's Error response. */
  function opening(): string {
    const state = JSON.stringify(simulator.state())
    const requests = JSON.stringify({ requests: simulator.journal.latest(initialRequests), skipped: 0 })
    return `retry: 1000\n\nevent: state\ndata: ${state}\n\nevent: requests\ndata: ${requests}\n\n`
  }

  function start(sink: StreamSink, first: string): () => void {
    const ring: Array<RecordedRequest | undefined> = new Array<RecordedRequest | undefined>(maxBatch)
    let head = 0
    let pending = 0
    let skipped = 0
    let reset = false
    let dirty = false
    let flushTimer: ReturnType<typeof setTimeout> | undefined
    let stalledSince: number | undefined
    let closed = false

    const flush = () => {
      flushTimer = undefined
      if (closed) return
      if (!sink.hasRoom) {
        // The client has not taken the last batches: wait (the ring keeps only the newest), or give up on it.
        stalledSince ??= Date.now()
        if (Date.now() - stalledSince >= stallMs) return end()
        flushTimer = setTimeout(flush, flushMs)
        return
      }
      stalledSince = undefined
      let chunk = ''
      if (reset) chunk += 'event: reset\ndata: {}\n\n'
      if (pending > 0) {
        const count = Math.min(pending, maxBatch)
        const entries = []
        for (let index = count; index > 0; index--) entries.push(toEntry(ring[(head - index + maxBatch) % maxBatch]!))
        ring.fill(undefined)
        chunk += `event: requests\ndata: ${JSON.stringify({ requests: entries, skipped })}\n\n`
      }
      if (dirty) {
        // A timer has no one to answer: a throw here (a bad clock option, say) would end the process. The stream
        // ends instead; the page reconnects, and the reconnection's answer is the Error response.
        try {
          chunk += `event: state\ndata: ${JSON.stringify(simulator.state())}\n\n`
        } catch {
          return end()
        }
      }
      pending = 0
      skipped = 0
      reset = false
      dirty = false
      if (chunk !== '') sink.write(chunk)
    }
    const schedule = () => {
      dirty = true
      flushTimer ??= setTimeout(flush, flushMs)
    }
    const listener = (event: SimulatorEvent) => {
      if (event.type === 'request') {
        ring[head] = event.entry
        head = (head + 1) % maxBatch
        if (pending === maxBatch) skipped++
        else pending++
      } else if (event.type === 'reset') {
        // What came before the reset is gone from the journal too.
        ring.fill(undefined)
        pending = 0
        skipped = 0
        reset = true
      }
      schedule()
    }
    const unsubscribe = simulator.events.subscribe(listener)
    const heartbeat = setInterval(() => {
      if (sink.hasRoom) sink.write(': ping\n\n')
    }, heartbeatMs)
    unrefTimer(heartbeat)

    function close(): void {
      if (closed) return
      closed = true
      unsubscribe()
      clearInterval(heartbeat)
      if (flushTimer !== undefined) clearTimeout(flushTimer)
      open.delete(end)
    }
    function end(): void {
      if (closed) return
      close()
      sink.end()
    }
    open.add(end)

    sink.write(first)
    return close
  }

  return {
    respond() {
      const first = opening()
      return { status: 200, headers: headers(), body: undefined, stream: { open: (sink) => start(sink, first) } }
    },
    closeAll() {
      for (const end of [...open]) end()
    },
    get size() {
      return open.size
    },
  }
}

/** Node's timers hold the process open unless unref'd; browsers' timers are numbers, with nothing to unref. */
function unrefTimer(timer: unknown): void {
  const unref = (timer as { unref?: () => void } | null)?.unref
  if (typeof unref === 'function') unref.call(timer)
}
