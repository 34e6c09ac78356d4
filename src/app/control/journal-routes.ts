import { ApiError } from '../../core/http/api-error.ts'
import { JsonText } from '../../core/http/json-text.ts'
import { jsonResponse, type PlainRequest, type PlainResponse } from '../../core/http/plain-http.ts'
import { defaults } from '../../core/defaults.ts'
import { journalFilterNames, parseJournalFilter, type JournalFilter } from '../../core/journal/journal-filter.ts'
import { requestParameters } from '../../core/journal/journal-request-query.ts'
import { harEntry, harFrame } from '../../core/journal/journal-har.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import type { ControlRoute } from './control-route.ts'
import { streamedJson } from '../json-stream.ts'
import { anyObject, arrayOf, integer, journalEntrySchema, journalFilterQuery, object, ok, string } from './control-doc.ts'

/** The default and the longest wait of `GET /__sim/requests/wait`. */
const waitTimeouts = { defaultMs: 5000, maxMs: 60_000 } as const

/**
 * The journal entries of one piece of a streamed HAR: 64 KiB of their JSON (at least one entry), so that a client
 * that does not read holds its transport's buffer and about this much, whatever the journal's size.
 */
const harPieceBytes = 64 * 1024

/**
 * The journal and contract coverage over HTTP, the same semantics as
 * in-process (`simulator.journal`, `simulator.coverage()`), for test
 * runners in any language:
 *
 * - `GET /__sim/requests?operation=&method=&path=&status=&key=&since=&until=&limit=` and the filters on what a request
 *   carried (`body={"name":"Rex"}`, `body.tags[0]=`, `header.x-id=`, `header.x-id:contains=`, `header.x-id:present=`,
 *   `query.limit=`): `{ "requests": [entries] }`,
 *   a page of at most `defaults.journalPageBytes`; when more matched, `"next"` and a `Link: <…>; rel="next"` header
 *   give the page after it (`journal.page`);
 * - `GET /__sim/requests/count?…`: `{ "count": n }`;
 * - `GET /__sim/requests/wait?…&timeoutMs=`: `{ "request": entry }`, the first match (already recorded, or
 *   within `timeoutMs`), or 404 `request_not_seen` listing the nearest entries;
 * - `DELETE /__sim/requests`: empties the journal (nothing else);
 * - `GET /__sim/requests.har?…`: the entries as a HAR 1.2 file, written a page at a time while the client takes it;
 * - `GET /__sim/coverage`, `DELETE /__sim/coverage`: contract coverage, and starting it over.
 *
 * An unknown filter, a repeated one or a bad value (an operation the route table does not have, a method that is
 * not one, a path outside the base path) is a 400 `invalid_query_parameter`. At most `defaults.maxPendingWaits`
 * waits are pending at once (one more is 503 `too_many_waits`); a wait whose client goes away ends at once.
 */
export function journalRoutes(simulator: SimulatorCore): ControlRoute[] {
  const { journal, basePath } = simulator
  /** The waits pending now: each holds a connection and a listener until it ends. */
  let pendingWaits = 0
  return [
    {
      method: 'GET',
      path: '/requests',
      name: 'requests',
      doc: {
        summary: 'The journal: a page of the entries that match the filters',
        query: journalFilterQuery,
        responses: ok(
          'A page, with `next` (and a Link header) when more matched',
          object({ requests: arrayOf(journalEntrySchema), next: string }, ['requests']),
        ),
      },
      resolve: (request) => journalPage(simulator, request),
    },
    {
      method: 'DELETE',
      path: '/requests',
      name: 'clearRequests',
      doc: { summary: 'Empties the journal', responses: ok('Emptied', object({ requests: { type: 'array', maxItems: 0 } })) },
      resolve() {
        journal.clear()
        return jsonResponse({ requests: [] }, 200)
      },
    },
    {
      method: 'GET',
      path: '/requests/count',
      name: 'countRequests',
      doc: {
        summary: 'How many entries match the filters',
        query: journalFilterQuery,
        responses: ok('The count', object({ count: integer })),
      },
      resolve: (request) => jsonResponse({ count: journal.count(parseJournalFilter(request.query, basePath).filter) }, 200),
    },
    {
      method: 'GET',
      path: '/requests/wait',
      name: 'waitForRequest',
      doc: {
        summary: 'The first entry that matches, recorded already or within timeoutMs',
        query: [
          ...journalFilterQuery,
          { name: 'timeoutMs', description: 'How long to wait, 0 to 60000 ms (default 5000)', schema: integer },
        ],
        responses: ok('The entry', object({ request: journalEntrySchema })),
      },
      async resolve(request) {
        const { filter, extra } = parseJournalFilter(request.query, basePath, ['timeoutMs'])
        const timeoutMs = extra.timeoutMs === undefined ? waitTimeouts.defaultMs : Number(extra.timeoutMs)
        if (!/^\d{1,6}$/.test(extra.timeoutMs ?? '0') || timeoutMs > waitTimeouts.maxMs) {
          throw new ApiError('invalid_query_parameter', `timeoutMs must be a whole number of ms from 0 to ${waitTimeouts.maxMs}`)
        }
        // Only a wait that would wait takes a place: one already met is answered whatever the count.
        if (pendingWaits >= defaults.maxPendingWaits && journal.count(filter) === 0) {
          throw new ApiError('too_many_waits', `At most ${defaults.maxPendingWaits} waits are pending at once; retry in a moment`, {
            'Retry-After': '1',
          })
        }
        pendingWaits++
        try {
          return jsonResponse({ request: await journal.waitFor(filter, { timeoutMs, signal: request.signal }) }, 200)
        } catch (error) {
          // A client that went away reads no answer; the error it gets is only logged.
          throw new ApiError('request_not_seen', (error as Error).message)
        } finally {
          pendingWaits--
        }
      },
    },
    {
      method: 'GET',
      path: '/requests.har',
      name: 'requestsHar',
      doc: {
        summary: 'The matching entries as a HAR 1.2 file, streamed',
        query: journalFilterQuery,
        responses: ok('The HAR log', object({ log: object({ version: string, creator: anyObject, entries: arrayOf(anyObject) }) })),
      },
      resolve: (request) => harStream(simulator, parseJournalFilter(request.query, basePath).filter, request.method === 'HEAD'),
    },
    {
      method: 'GET',
      path: '/coverage',
      name: 'coverage',
      doc: { summary: 'Contract coverage of the journaled requests', responses: ok('The coverage', anyObject) },
      resolve: () => jsonResponse(simulator.coverage(), 200),
    },
    {
      method: 'DELETE',
      path: '/coverage',
      name: 'resetCoverage',
      doc: { summary: 'Starts contract coverage over', responses: ok('The coverage, empty', anyObject) },
      resolve() {
        simulator.resetCoverage()
        return jsonResponse(simulator.coverage(), 200)
      },
    },
  ]
}

/**
 * One page of `GET /__sim/requests`: `{"requests":[…]}`, with `"next"` (and
 * a `Link` header) when more matched. The whole body, envelope included,
 * is at most `defaults.journalPageBytes` (but for a single entry larger than
 * that, possible only with a raised body cap).
 */
function journalPage(simulator: SimulatorCore, request: PlainRequest): PlainResponse {
  const { filter } = parseJournalFilter(request.query, simulator.basePath)
  // The envelope with the longest `next` this filter can have: the page's entries get what is left.
  const longest = nextLink(request.path, { ...filter, since: Number.MAX_SAFE_INTEGER, until: Number.MAX_SAFE_INTEGER })
  const envelope = '{"requests":,"next":}'.length + JSON.stringify(longest).length
  const page = simulator.journal.page(filter, { maxBytes: Math.max(0, defaults.journalPageBytes - envelope) })
  if (page.next === undefined) return jsonResponse(new JsonText(`{"requests":${page.json}}`), 200)
  const next = nextLink(request.path, page.next)
  return jsonResponse(new JsonText(`{"requests":${page.json},"next":${JSON.stringify(next)}}`), 200, { Link: `<${next}>; rel="next"` })
}

/** The path and query of the page a filter reads: the filter's parameters in their documented order, then its body, header and query filters. */
function nextLink(path: string, filter: JournalFilter): string {
  const query = new URLSearchParams()
  for (const name of journalFilterNames) {
    const value = filter[name]
    if (value !== undefined) query.set(name, String(value))
  }
  for (const [name, value] of requestParameters(filter)) query.append(name, value)
  return `${path}?${query}`
}

/**
 * `GET /__sim/requests.har`: the HAR log's head, then the entries a page
 * at a time (`journal.page`, so views are built for one piece only and
 * evicted entries are skipped, never held), then its tail; the text is
 * `JSON.stringify(journal.toHar(filter))` of the entries that matched when
 * it was asked for, less any evicted while it was written.
 */
function harStream(simulator: SimulatorCore, filter: JournalFilter, headersOnly: boolean): PlainResponse {
  const { head, tail } = harFrame()
  // A HEAD's body is never sent (Node drops what is written): nothing is read for it.
  let cursor: JournalFilter | undefined = headersOnly ? undefined : filter
  let first = true
  let ended = false
  return streamedJson(
    () => {
      if (ended || headersOnly) return undefined
      const page = cursor === undefined ? undefined : simulator.journal.page(cursor, { maxBytes: harPieceBytes })
      if (page === undefined || page.entries.length === 0) {
        ended = true
        return first ? `${head}${tail}` : tail
      }
      cursor = page.next
      let text = ''
      for (const entry of page.entries) {
        text += `${first ? head : ','}${JSON.stringify(harEntry(entry, simulator.baseOrigin))}`
        first = false
      }
      return text
    },
    { 'Content-Disposition': 'attachment; filename="petstore-sim.har"' },
  )
}
