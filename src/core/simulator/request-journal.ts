/** One request the simulator answered, as `GET /__sim/requests` lists it. */
export interface JournalEntry {
  /** 1, 2, 3… in the order requests were answered, never reused before `clear()`. */
  readonly sequence: number
  /** ISO 8601 time on the simulator's clock. */
  readonly at: string
  readonly method: string
  /** Path and query string. */
  readonly path: string
  readonly status: number
  /** `listPets`, `createPet`, `getPet`, or the name of the simulator's own route. */
  readonly operation: string
  /** The key's fingerprint (never the key), or `anonymous`. */
  readonly caller: string
  /** The caller's plan, e.g. `pro`; `anonymous` without a valid key. */
  readonly plan: string
  readonly durationMs: number
  /** Present when the answer was forced with `Prefer: code=`: it changed nothing and counted nothing. */
  readonly forced?: true
  /** The id of the fault rule that shaped the answer, if one did. `status` is 0 when there was no answer (reset, hang). */
  readonly fault?: string
}

/**
 * A request as the journal keeps it: its time as epoch milliseconds, turned
 * into ISO 8601 only when the journal is read (formatting a date on every
 * request cost about 1.4 µs, a third of the pipeline's own time).
 */
export interface RecordedRequest extends Omit<JournalEntry, 'at'> {
  /** Epoch milliseconds on the simulator's clock. */
  readonly atMs: number
}

/**
 * The most recent requests, oldest first, up to a capacity.
 *
 * @example
 * const journal = createRequestJournal({ capacity: 100 })
 * journal.entries().filter((entry) => entry.status === 429)
 */
export interface RequestJournal {
  /** Records an answered request and returns it with its sequence number. */
  record(entry: Omit<RecordedRequest, 'sequence'>): RecordedRequest
  entries(): JournalEntry[]
  /** The most recent `count` entries, oldest first, without copying the rest. */
  latest(count: number): JournalEntry[]
  /** Requests recorded since the last `clear()`, by status class: kept in full, not only those the journal still holds. */
  counts(): RequestCounts
  clear(): void
}

/** How many requests were answered, in all and by status class; `none` for a fault rule's reset or hang (status 0). */
export interface RequestCounts {
  readonly total: number
  readonly byStatusClass: {
    readonly '1xx': number
    readonly '2xx': number
    readonly '3xx': number
    readonly '4xx': number
    readonly '5xx': number
    readonly none: number
  }
}

export interface RequestJournalOptions {
  /** How many requests are kept. Default {@link defaultJournalCapacity}. */
  capacity?: number
  /** Called with every recorded request (the simulator's events); keep it cheap, it runs in the request's turn. */
  onRecord?: (entry: RecordedRequest) => void
}

export const defaultJournalCapacity = 1000

export function createRequestJournal(options: RequestJournalOptions = {}): RequestJournal {
  const capacity = options.capacity ?? defaultJournalCapacity
  const { onRecord } = options
  let ring: RecordedRequest[] = []
  let start = 0
  let sequence = 0
  /** Index 0 for status 0 (no answer), 1..5 for 1xx..5xx: one increment per request. */
  let byClass = [0, 0, 0, 0, 0, 0]
  const ordered = () => [...ring.slice(start), ...ring.slice(0, start)]
  return {
    record(entry) {
      const full = { sequence: ++sequence, ...entry }
      byClass[Math.min(5, Math.floor(full.status / 100))]!++
      if (onRecord !== undefined) onRecord(full)
      if (capacity <= 0) return full
      if (ring.length < capacity) {
        ring.push(full)
      } else {
        ring[start] = full
        start = (start + 1) % capacity
      }
      return full
    },
    entries: () => ordered().map(toEntry),
    latest(count) {
      if (count <= 0) return []
      if (ring.length < capacity) return ring.slice(-count).map(toEntry)
      return ordered().slice(-count).map(toEntry)
    },
    counts() {
      const [none = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0] = byClass
      return { total: sequence, byStatusClass: { '1xx': c1, '2xx': c2, '3xx': c3, '4xx': c4, '5xx': c5, none } }
    },
    clear() {
      ring = []
      start = 0
      sequence = 0
      byClass = [0, 0, 0, 0, 0, 0]
    },
  }
}

/** The journal's public form of a recorded request: its time in ISO 8601, fields in the documented order. */
export function toEntry({ sequence, atMs, ...rest }: RecordedRequest): JournalEntry {
  return { sequence, at: new Date(atMs).toISOString(), ...rest }
}
