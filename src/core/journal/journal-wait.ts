import type { CompiledFilter, FilterableEntry, JournalFilter } from './journal-filter.ts'
import { secretLabel } from './journal-redaction.ts'
import { cut, shownRequestFilter } from './journal-request-filter.ts'

/** How many near misses a failed wait lists. */
const nearestCount = 3

/** The filters that bound a window of sequence numbers rather than describe a request. */
const windowFields = new Set(['since', 'until'])

/**
 * The message of a wait that timed out: the filter, and the entries that
 * came nearest to it (most criteria met, then most recent) with the
 * criteria each missed, as WireMock lists near misses for a request it
 * could not match.
 *
 * @example
 * // No request matched {"operation":"createPet","status":"201"} within 500 ms. Nearest of 2:
 * //   #2 POST /v1/pets -> 401 createPet anonymous (differs in status)
 * // or, for a body filter: (differs in body.name: sent "Rexx")
 */
export function nearestEntries(
  filter: JournalFilter,
  timeoutMs: number,
  tests: CompiledFilter,
  entries: readonly FilterableEntry[],
  describeEntry: (entry: FilterableEntry) => string,
  scrub: (text: string) => string = (text) => text,
): string {
  // The key as the journal names it (a demo key's name, otherwise its fingerprint): the message is logged and shown.
  const wanted = JSON.stringify(
    Object.fromEntries(
      Object.entries(filter)
        .filter(([name, value]) => value !== undefined && name !== 'limit')
        .map(([name, value]) => [name, name === 'key' && typeof value === 'string' ? shownKey(value) : shownRequestFilter(name, value)]),
    ),
  )
  const head = `No request matched ${wanted} within ${timeoutMs} ms.`
  // `since` and `until` are a window, not a likeness: entries outside it are not near misses.
  const window = tests.filter((test) => windowFields.has(test.field))
  const candidates = window.length === 0 ? entries : entries.filter((entry) => window.every((test) => test.test(entry)))
  if (candidates.length === 0) return `${head} No request was recorded${filter.since === undefined ? '' : ` since #${filter.since}`}.`
  const scored = candidates.map((entry, index) => {
    const missed = tests.filter((test) => !windowFields.has(test.field) && !test.test(entry))
    return { entry, index, missed }
  })
  scored.sort((a, b) => a.missed.length - b.missed.length || b.index - a.index)
  // What was sent instead is rendered for the entries listed only, not for every one held.
  const lines = scored.slice(0, nearestCount).map(({ entry, missed }) => {
    // What the entry sent instead, for the body, header and query filters: `body.name: sent "Rexx"`. Scrubbed before
    // it is cut: a key cut in two would not be found, and its first characters would be shown.
    const differences = missed.map((test) => (test.sent === undefined ? test.field : `${test.field}: sent ${cut(scrub(test.sent(entry)))}`))
    return `  ${describeEntry(entry)}${differences.length === 0 ? '' : ` (differs in ${differences.join(', ')})`}`
  })
  return `${head} Nearest of ${candidates.length}:\n${lines.join('\n')}`
}

function shownKey(key: string): string {
  return key === 'anonymous' || key.startsWith('key#') ? key : secretLabel(key)
}
