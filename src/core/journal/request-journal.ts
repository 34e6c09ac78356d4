import { systemClock, type Clock } from '../time/clock.ts'
import { defaults } from '../defaults.ts'
import type { AnswerKind, CoverageTally } from './contract-coverage.ts'
import { utf8Length } from '../http/json-text.ts'
import { captureExchange } from './journal-exchange.ts'
import { JournalRecord } from './journal-record.ts'
import { compileFilter, matches, type CompiledFilter, type FilterableEntry, type JournalFilter } from './journal-filter.ts'
import type { Har } from './journal-har.ts'
import { toHar } from './har-module.ts'
import { jsonFootprint } from '../http/bounded-json.ts'
import {
  filterable as filterableView,
  parseRequestBody,
  summaryLine,
  toEntry as entryView,
  toSummary as summaryView,
} from './journal-views.ts'
import { nearestEntries } from './journal-wait.ts'
import type { JournalEntry, JournalSummary, RecordedRequest, RecordInput } from './journal-types.ts'

export type { JournalEntry, JournalSummary, RecordedRequest, RecordInput }

/**
 * The most recent requests with their whole exchange, oldest first, bounded
 * by a count and by bytes (oldest evicted first), with queries that behave
 * the same in-process and over HTTP.
 *
 * @example
 * const posted = await simulator.journal.waitFor({ operation: 'createPet' }, { timeoutMs: 2000 })
 * expect(JSON.parse(posted.request.body!.text)).toMatchObject({ name: 'Rex' })
 */
export interface RequestJournal {
  /**
   * @internal Records an answered request (the pipeline) and returns it with its sequence number: `sequence` when
   * given (the fleet's, from a shared store, in increasing order), else the next of the journal's own. `hold: false`
   * (a fleet's request answered before the journal was last cleared, read after): counted in the coverage and the
   * pact only, as it was in the instance that answered it; not held, not in `counts()`, no wait sees it.
   */
  record(input: RecordInput, sequence?: number, hold?: boolean): RecordedRequest
  entries(): JournalEntry[]
  /** The most recent `count` entries, oldest first, without copying the rest. */
  latest(count: number): JournalEntry[]
  /** The summaries of the most recent `count` entries, oldest first: no body is read (what the dashboard's table shows). */
  latestSummaries(count: number): JournalSummary[]
  /** The entries a filter takes, oldest first. An unknown filter or a bad value throws a `RangeError`. */
  find(filter?: JournalFilter): JournalEntry[]
  /**
   * The entries a filter takes, a page at a time, oldest first: whole
   * entries while their JSON fits in `maxBytes` (never fewer than one), and
   * the filter of the next page. Following `next` until it is undefined
   * reads every entry that matched when the first page was read (less any
   * evicted in between): `next` is this filter from the entry after the
   * page's last, `until` the last match (so new requests do not move it),
   * without `limit` (the window it chose is kept by `since` and `until`).
   *
   * @example
   * for (let page = journal.page({ operation: 'createPet' }); ; page = journal.page(page.next)) {
   *   check(page.entries)
   *   if (page.next === undefined) break
   * }
   */
  page(filter?: JournalFilter, options?: JournalPageOptions): JournalPage
  /** How many entries the filter takes (`limit` aside). */
  count(filter?: JournalFilter): number
  /**
   * The first entry the filter takes, already in the journal (from
   * `filter.since` on) or recorded within `timeoutMs` (default 5000). On
   * timeout, rejects with an error that lists the nearest entries: what was
   * sent instead. When `signal` aborts first, it stops waiting (holding
   * nothing) and rejects with the signal's reason.
   */
  waitFor(filter?: JournalFilter, options?: JournalWaitOptions): Promise<JournalEntry>
  /** The entries as a HAR 1.2 log, for browsers' developer tools. */
  toHar(filter?: JournalFilter): Har
  /** Requests recorded since the last `clear()`, by status class: kept in full, not only those the journal still holds. */
  counts(): RequestCounts
  /** How much the journal holds against its bounds. */
  usage(): JournalUsage
  /** Empties the journal and starts its sequence over; coverage is kept. */
  clear(): void
}

export interface JournalWaitOptions {
  /** How long to wait for a match, in ms. Default 5000. */
  readonly timeoutMs?: number
  /** Stops the wait when aborted (an HTTP wait's client went away): the promise rejects with its reason. */
  readonly signal?: AbortSignal | undefined
}

export interface JournalPageOptions {
  /** The most bytes (UTF-8) of the page's JSON array; an entry larger than it is a page on its own. Default 1 MiB. */
  readonly maxBytes?: number
}

/** One page of the journal (`journal.page`, `GET /__sim/requests`). */
export interface JournalPage {
  /** The page's entries, oldest first. */
  readonly entries: readonly JournalEntry[]
  /** `entries` as a JSON array, the text measured against `maxBytes`: what `GET /__sim/requests` sends, serialised once. */
  readonly json: string
  /** The filter that reads the next page; undefined when this page holds the last entry the filter took. */
  readonly next: JournalFilter | undefined
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

/** The journal against its bounds: entries and estimated bytes held, and how many were evicted. */
export interface JournalUsage {
  readonly entries: number
  readonly capacity: number
  readonly bytes: number
  readonly maxBytes: number
  readonly bodyCapBytes: number
  readonly evicted: number
}

export interface RequestJournalOptions {
  /** How many requests are kept. Default 1000. */
  capacity?: number
  /** The most bytes (estimated) the kept exchanges may hold; the oldest are evicted past it. Default 16 MiB. */
  maxBytes?: number
  /** The most bytes kept of each body; the rest is cut, marked `truncated`. Default 64 KiB. */
  bodyCapBytes?: number
  /** Called with every recorded request (the simulator's events); keep it cheap, it runs in the request's turn. */
  onRecord?: (entry: RecordedRequest, input: RecordInput) => void
  /** Counts every answer for contract coverage. */
  coverage?: CoverageTally
  /** The wall clock of `wallAt`. Default: the system's. */
  wallClock?: Clock
  /** The origin of HAR URLs for requests that named no host. */
  origin?: string
  /** The API's base path (`/v1`, `''` at the root): a `path` filter outside it is refused. Default `defaults.basePath`. */
  basePath?: string
  /** Replaces secrets in what the views show (the simulator's: its keys by their labels). Default: none. */
  scrub?: (text: string) => string
}

export function createRequestJournal(options: RequestJournalOptions = {}): RequestJournal {
  const capacity = options.capacity ?? defaults.journalSize
  const maxBytes = options.maxBytes ?? defaults.journalMaxBytes
  const bodyCap = options.bodyCapBytes ?? defaults.journalBodyCapBytes
  for (const [name, value] of Object.entries({ capacity, maxBytes, bodyCapBytes: bodyCap })) {
    if (!(Number.isSafeInteger(value) && value >= 0)) throw new RangeError(`The journal's ${name} must be a whole number of 0 or more`)
  }
  const { onRecord, coverage } = options
  const scrub = options.scrub ?? ((text: string) => text)
  const toEntry = (recorded: RecordedRequest) => entryView(recorded, scrub)
  const toSummary = (recorded: RecordedRequest) => summaryView(recorded, scrub)
  const wallClock = options.wallClock ?? systemClock
  const basePath = options.basePath ?? defaults.basePath
  /**
   * The held entries, frozen, oldest first from `head`: a bounded queue. The slots before `head` are spent, dropped in
   * one go when they are half the array. A queue of the entries themselves beat a ring of their bytes (issue 38's A/B,
   * see HISTORY.md): the copy cost what the collections it saved cost, and an entry read kept its exchange.
   */
  let items: RecordedRequest[] = []
  let head = 0
  let bytes = 0
  let evicted = 0
  let sequence = 0
  /** Index 0 for status 0 (no answer), 1..5 for 1xx..5xx: one increment per request. */
  let byClass = [0, 0, 0, 0, 0, 0]
  const waiters = new Set<(view: FilterableEntry, entry: RecordedRequest) => void>()
  /**
   * The request bodies parsed so far, each at most once (issue 45: a body filter parsed every held body per query and
   * per wait, slow on a full journal: test/bench/HISTORY.md, "Figures moved out of source comments"), charged to the
   * byte budget while their entry is held.
   */
  const parsedBodies = new WeakMap<RecordedRequest, { readonly json: { readonly value: unknown } | undefined; readonly bytes: number }>()
  const isHeld = (recorded: RecordedRequest) => items.length > head && recorded.sequence >= items[head]!.sequence
  const readJson = (recorded: RecordedRequest) => {
    const known = parsedBodies.get(recorded)
    if (known !== undefined) return known.json
    const json = parseRequestBody(recorded)
    const held = json !== undefined && isHeld(recorded)
    parsedBodies.set(recorded, { json, bytes: held ? jsonFootprint(json.value) : 0 })
    if (held) {
      bytes += parsedBodies.get(recorded)!.bytes
      while (bytes > maxBytes && items.length > head) evictOldest()
    }
    return json
  }
  const filterable = (recorded: RecordedRequest) => filterableView(recorded, scrub, readJson)

  const evictOldest = () => {
    bytes -= items[head]!.exchange!.bytes + (parsedBodies.get(items[head]!)?.bytes ?? 0)
    items[head] = undefined as unknown as RecordedRequest
    head++
    evicted++
    if (head >= 1024 && head * 2 >= items.length) {
      items = items.slice(head)
      head = 0
    }
  }
  /** The held entries from the `count`-th newest on (all of them by default), oldest first. */
  const held = (count = items.length - head) => items.slice(Math.max(head, items.length - count))
  const select = (filter: JournalFilter | undefined): RecordedRequest[] => {
    const tests = compileFilter(filter, basePath)
    const taken = tests.length === 0 ? held() : held().filter((entry) => matches(tests, filterable(entry)))
    const limit = filter?.limit
    return limit === undefined || taken.length <= limit ? taken : taken.slice(taken.length - limit)
  }

  const journal: RequestJournal = {
    record(input, given, hold = true) {
      if (hold) sequence = given ?? sequence + 1
      const exchange = capacity > 0 && maxBytes > 0 ? captureExchange(input.exchange, bodyCap) : undefined
      const entry: RecordedRequest = new JournalRecord(input, hold ? sequence : (given ?? 0), wallClock.now(), exchange)
      if (entry.refused !== true) coverage?.count(entry.operation, entry.status, answerKind(entry))
      if (onRecord !== undefined) onRecord(entry, input)
      if (!hold) return entry
      byClass[Math.min(5, Math.floor(entry.status / 100))]!++
      if (exchange !== undefined) {
        items.push(entry)
        bytes += exchange.bytes
        while (items.length - head > capacity || bytes > maxBytes) evictOldest()
      }
      if (waiters.size > 0) {
        // One view for every wait: the new entry's body is parsed once, however many waits look at it.
        const view = filterable(entry)
        for (const waiter of [...waiters]) waiter(view, entry)
      }
      return entry
    },
    entries: () => held().map(toEntry),
    latest(count) {
      if (count <= 0) return []
      return held(count).map(toEntry)
    },
    latestSummaries(count) {
      if (count <= 0) return []
      return held(count).map(toSummary)
    },
    find: (filter) => select(filter).map(toEntry),
    page(filter, pageOptions = {}) {
      const pageBytes = pageOptions.maxBytes ?? defaults.journalPageBytes
      if (!(Number.isSafeInteger(pageBytes) && pageBytes >= 0)) throw new RangeError('maxBytes must be a whole number of 0 or more')
      const taken = select(filter)
      // Views are built one at a time, and only for the page: a whole journal's views decode every body.
      const entries: JournalEntry[] = []
      let json = '['
      let bytes = 2
      for (const recorded of taken) {
        const entry = toEntry(recorded)
        const text = JSON.stringify(entry)
        const size = utf8Length(text) + (entries.length === 0 ? 0 : 1)
        if (entries.length > 0 && bytes + size > pageBytes) break
        json += entries.length === 0 ? text : `,${text}`
        bytes += size
        entries.push(entry)
      }
      const last = entries.at(-1)
      if (last === undefined || entries.length === taken.length) return { entries, json: `${json}]`, next: undefined }
      const { limit: _limit, ...rest } = filter ?? {}
      return { entries, json: `${json}]`, next: { ...rest, since: last.sequence + 1, until: taken.at(-1)!.sequence } }
    },
    count: (filter) => select(filter === undefined ? undefined : { ...filter, limit: undefined }).length,
    waitFor(filter = {}, waitOptions = {}) {
      const timeoutMs = waitOptions.timeoutMs ?? 5000
      if (!(Number.isFinite(timeoutMs) && timeoutMs >= 0)) return Promise.reject(new RangeError('timeoutMs must be a number of 0 or more'))
      let tests: CompiledFilter
      try {
        tests = compileFilter({ ...filter, limit: undefined }, basePath)
      } catch (error) {
        return Promise.reject(error)
      }
      const already = held().find((entry) => matches(tests, filterable(entry)))
      if (already !== undefined) return Promise.resolve(toEntry(already))
      const { signal } = waitOptions
      if (signal?.aborted === true) return Promise.reject(signal.reason)
      return new Promise((resolve, reject) => {
        const stop = () => {
          waiters.delete(waiter)
          clearTimeout(timer)
          signal?.removeEventListener('abort', abandon)
        }
        const waiter = (view: FilterableEntry, entry: RecordedRequest) => {
          if (!matches(tests, view)) return
          stop()
          resolve(toEntry(entry))
        }
        const abandon = () => {
          stop()
          reject(signal!.reason)
        }
        const timer = setTimeout(() => {
          stop()
          reject(new Error(scrub(timedOutMessage(filter, timeoutMs, tests, () => held().map(filterable), scrub))))
        }, timeoutMs)
        waiters.add(waiter)
        signal?.addEventListener('abort', abandon, { once: true })
      })
    },
    toHar: (filter) => toHar(select(filter).map(toEntry), options.origin),
    counts() {
      const [none = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0] = byClass
      return { total: sequence, byStatusClass: { '1xx': c1, '2xx': c2, '3xx': c3, '4xx': c4, '5xx': c5, none } }
    },
    usage: () => ({ entries: items.length - head, capacity, bytes, maxBytes, bodyCapBytes: bodyCap, evicted }),
    clear() {
      items = []
      head = bytes = evicted = sequence = 0
      byClass = [0, 0, 0, 0, 0, 0]
    },
  }
  return journal
}

/**
 * A timed-out wait's message, which never throws: it runs in a timer's callback, where a throw ends the process
 * (issue 45: a body nested 30,000 deep did). Should listing the near misses fail, the message says only what was asked.
 */
function timedOutMessage(
  filter: JournalFilter,
  timeoutMs: number,
  tests: CompiledFilter,
  held: () => readonly FilterableEntry[],
  scrub: (text: string) => string,
): string {
  try {
    return nearestEntries(filter, timeoutMs, tests, held(), (entry) => summaryLine(entry, scrub), scrub)
  } catch {
    return `No request matched the filter within ${timeoutMs} ms (its near misses could not be listed).`
  }
}

function answerKind(entry: RecordedRequest): AnswerKind {
  return entry.forced === true ? 'forced' : entry.fault !== undefined ? 'fault' : 'behaviour'
}
