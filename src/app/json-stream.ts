import type { PlainResponse, ResponseStream, StreamSink } from '../core/http/plain-http.ts'
import { defaults } from '../core/defaults.ts'

/**
 * How a streamed answer paces itself. The sink says whether it has room but
 * gives no signal when room comes back (`StreamSink`, shared with the event
 * stream), so a writer without room looks again after a wait that doubles
 * from 1 ms up to `maxWaitMs`, and starts over at 1 ms once the client takes.
 */
interface Pacing {
  /** The most characters written in one turn before yielding to other work (the API's requests). */
  readonly burstChars: number
  readonly maxWaitMs: number
  /** A client that takes nothing for this long is cut off: the answer is broken off, never ended as if whole. */
  readonly stallMs: number
}

const pacing: Pacing = { burstChars: 256 * 1024, maxWaitMs: 50, stallMs: defaults.sendTimeoutMs }

/**
 * A JSON answer written a piece at a time, while the client takes it (issue
 * #20: answers built whole and held for clients that did not read grew RSS
 * manyfold; test/bench/HISTORY.md, "Figures moved out of source comments").
 * `next` returns the next piece of the text, or undefined after the last; it
 * is called only when the transport has room, so what a slow or absent reader
 * costs is the transport's buffer and one piece. A throw from `next` breaks
 * the answer off (the status is sent).
 */
export function streamedJson(
  next: () => string | undefined,
  headers: Record<string, string> = {},
  lifetime: StreamLifetime = {},
): PlainResponse {
  headers['Content-Type'] = 'application/json'
  return { status: 200, headers, body: undefined, stream: pacedStream(next, pacing, lifetime) }
}

/** Told when the lane opens the stream, and once when it is over (written whole, broken off, or the client gone). */
export interface StreamLifetime {
  readonly opened?: () => void
  readonly over?: () => void
}

function pacedStream(next: () => string | undefined, { burstChars, maxWaitMs, stallMs }: Pacing, lifetime: StreamLifetime): ResponseStream {
  return {
    open(sink: StreamSink) {
      lifetime.opened?.()
      let closed = false
      let timer: ReturnType<typeof setTimeout> | undefined
      const finish = () => {
        if (closed) return
        closed = true
        if (timer !== undefined) clearTimeout(timer)
        lifetime.over?.()
      }
      let waitMs = 1
      let stalledSince: number | undefined
      const stop = (how: 'end' | 'abort') => {
        finish()
        if (how === 'end') sink.end()
        else if (sink.abort !== undefined) sink.abort()
        else sink.end()
      }
      const pump = () => {
        timer = undefined
        if (closed) return
        let written = 0
        while (sink.hasRoom && written < burstChars) {
          let piece: string | undefined
          try {
            piece = next()
          } catch {
            stop('abort')
            return
          }
          if (piece === undefined) {
            stop('end')
            return
          }
          sink.write(piece)
          written += piece.length
        }
        const now = Date.now()
        if (written > 0) {
          stalledSince = undefined
          waitMs = 1
        } else {
          stalledSince ??= now
          if (now - stalledSince >= stallMs) {
            stop('abort')
            return
          }
          waitMs = Math.min(waitMs * 2, maxWaitMs)
        }
        timer = setTimeout(pump, written >= burstChars ? 0 : waitMs)
        unrefTimer(timer)
      }
      // Not in the caller's turn: the lane has just written the headers, and the first pieces may take a while.
      timer = setTimeout(pump, 0)
      unrefTimer(timer)
      return finish
    },
  }
}

/** Node's timers hold the process open unless unref'd; browsers' timers are numbers, with nothing to unref. */
export function unrefTimer(timer: unknown): void {
  const unref = (timer as { unref?: () => void } | null)?.unref
  if (typeof unref === 'function') unref.call(timer)
}
