import type { RecordedRequest } from '../journal/request-journal.ts'

/**
 * What a simulator tells its listeners: each request the API answered (as
 * the journal recorded it), and each change of its state made from outside
 * the API (a reset, a clock move, a fault rule added, removed or spent).
 */
export type SimulatorEvent =
  | { readonly type: 'request'; readonly entry: RecordedRequest }
  | { readonly type: 'reset' }
  | { readonly type: 'clock' }
  | { readonly type: 'faults' }

export type SimulatorEventListener = (event: SimulatorEvent) => void

/**
 * A simulator's publish/subscribe, one per simulator (no module-level
 * state). Listeners are called synchronously, in the request's own turn, so
 * they must be cheap: the dashboard's stream only keeps a reference and
 * writes later, in batches.
 *
 * @example
 * const unsubscribe = simulator.events.subscribe((event) => {
 *   if (event.type === 'request') console.log(event.entry.status)
 * })
 */
export interface SimulatorEvents {
  /** Calls `listener` with every event from now on; returns the function that stops it. */
  subscribe(listener: SimulatorEventListener): () => void
  /** How many listeners there are. */
  readonly size: number
  /**
   * @internal Sets the one meter of this simulator (the app's metrics, `GET /__sim/metrics`): called with every recorded
   * request before the listeners, with the entry itself (no event object), and not counted in {@link size}.
   */
  meter(record: ((entry: RecordedRequest) => void) | undefined): void
}

/** The publishing side, for the simulator's own parts. */
export interface SimulatorEventHub extends SimulatorEvents {
  /** Publishes a recorded request; costs one size check when nobody listens. */
  request(entry: RecordedRequest): void
  /** Publishes a state change. */
  changed(type: 'reset' | 'clock' | 'faults'): void
}

export function createSimulatorEvents(): SimulatorEventHub {
  const listeners = new Set<SimulatorEventListener>()
  let meter: ((entry: RecordedRequest) => void) | undefined
  const publish = (event: SimulatorEvent) => {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch {
        // A failing listener must not fail the request that published the event, nor keep the others from it.
      }
    }
  }
  // The per-type change events are made once: publishing a change allocates nothing.
  const changes = { reset: { type: 'reset' }, clock: { type: 'clock' }, faults: { type: 'faults' } } as const
  return {
    subscribe(listener) {
      // A wrapper, so that the same function subscribed twice is two subscriptions, each undone by its own call.
      const entry: SimulatorEventListener = (event) => listener(event)
      listeners.add(entry)
      return () => {
        listeners.delete(entry)
      }
    },
    get size() {
      return listeners.size
    },
    meter(record) {
      meter = record
    },
    request(entry) {
      if (meter !== undefined) {
        try {
          meter(entry)
        } catch {
          // As a listener's: a failing meter must not fail the request.
        }
      }
      // The journal calls this for every request: nothing more than this check when no one listens.
      if (listeners.size === 0) return
      publish({ type: 'request', entry })
    },
    changed(type) {
      if (listeners.size === 0) return
      publish(changes[type])
    },
  }
}
