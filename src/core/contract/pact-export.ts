import { defaults } from '../defaults.ts'
import { ApiError } from '../http/api-error.ts'
import type { JournalEntry } from '../journal/journal-types.ts'
import { pactApiKeyPlaceholder, pactInvalidApiKey, toInteraction, type PactInteraction } from './pact-interaction.ts'

export type { PactInteraction } from './pact-interaction.ts'

/** What `journal.toPact` and `GET /__sim/requests.pact` take. */
export interface PactOptions {
  /** The consumer's name in the pact. Default `animal-store-consumer`. Letters, digits, spaces and `._@-`, 1 to 128. */
  readonly consumer?: string | undefined
  /** The provider's name in the pact. Default `animal-store`. Letters, digits, spaces and `._@-`, 1 to 128. */
  readonly provider?: string | undefined
  /**
   * Also export the answers the spec does not define (the simulator's own 400s for `limit` and `status`, getPet's
   * 410, …), each marked with a comment, and the file's metadata saying so. Default false: a pact holds the spec's
   * promises only, so a provider that follows the spec where it is silent passes it.
   */
  readonly simulatorChoices?: boolean | undefined
}

/** A Pact specification 4.0 file: plain JSON, written with `JSON.stringify`. */
export interface Pact {
  readonly consumer: { readonly name: string }
  readonly provider: { readonly name: string }
  readonly interactions: readonly PactInteraction[]
  readonly metadata: {
    readonly pactSpecification: { readonly version: '4.0' }
    readonly 'petstore-sim': {
      readonly source: 'journal'
      readonly apiKeyPlaceholder: string
      readonly invalidApiKey: string
      /** `left out` by default; `included` when asked: those interactions carry a comment saying they are the simulator's. */
      readonly simulatorChoices: 'left out' | 'included'
      /** How many recorded interactions the file leaves out for being the simulator's choices. */
      readonly simulatorChoicesLeftOut: number
    }
  }
}

/** An entry as an interaction, and its JSON's length: null for one no pact holds. */
type Conversion = { readonly interaction: PactInteraction; readonly simulatorChoice: boolean; readonly size: number } | null

/** Conversions of kept entries (which never change), so that an export after the first only serialises. */
export type PactConversions = WeakMap<JournalEntry, Conversion>

function conversion(entry: JournalEntry, cache: PactConversions | undefined): Conversion {
  const known = cache?.get(entry)
  if (known !== undefined) return known
  const converted = toInteraction(entry)
  const result = converted === undefined ? null : { ...converted, size: JSON.stringify(converted.interaction).length }
  cache?.set(entry, result)
  return result
}

/**
 * Converts what `cache` lacks of `entries`, a few at a time with the event loop free between them (`yieldTurn`),
 * so that a first export of many interactions holds no API request up for long (an interaction of a page of 100
 * pets is not cheap to convert: test/bench/HISTORY.md, "Figures moved out of source comments"). `toPact` with the
 * same cache then only serialises.
 */
export async function convertInChunks(
  entries: readonly JournalEntry[],
  cache: PactConversions,
  yieldTurn: () => Promise<void>,
): Promise<void> {
  const chunk = 20
  for (let start = 0; start < entries.length; start += chunk) {
    for (const entry of entries.slice(start, start + chunk)) conversion(entry, cache)
    if (start + chunk < entries.length) await yieldTurn()
  }
}

/**
 * A pact's party name, as brokers show them in URLs and as a file name may be made of them: a letter or digit, then
 * letters, digits, spaces and `._@-`, 128 at most, no `..` (`../../x/../y` and `a/../../etc/passwd` were accepted).
 */
export function checkPartyName(name: string, role: 'consumer' | 'provider'): string {
  if (/^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,127}$/.test(name) && !name.includes('..')) return name
  throw new RangeError(
    `${role} must be 1 to 128 letters, digits, spaces or ._@- starting with a letter or digit, without "..": got ${JSON.stringify(name)}`,
  )
}

/**
 * The recorded requests (the first of each shape, pact-recorder.ts) as a Pact 4 file of `Synchronous/HTTP`
 * interactions, what the spec promises and what the consumer saw (docs/pact.md). `overflow` is how many shapes the
 * recorder could not keep: the export then fails with `pact_too_large`, as it does past `defaults.pact.maxBytes`.
 */
export function toPact(entries: readonly JournalEntry[], options: PactOptions = {}, overflow = 0, cache?: PactConversions): Pact {
  const consumer = checkPartyName(options.consumer ?? defaults.pact.consumer, 'consumer')
  const provider = checkPartyName(options.provider ?? defaults.pact.provider, 'provider')
  if (overflow > 0) {
    throw new ApiError(
      'pact_too_large',
      `The pact keeps at most ${defaults.pact.maxInteractions} distinct interactions, in ${defaults.pact.maxKeptBytes} bytes: ` +
        `${overflow}${overflow >= defaults.pact.maxInteractions ? ' or more' : ''} more were not kept; ` +
        'clear them between test files (journal.clearPact(), DELETE /__sim/requests.pact)',
    )
  }
  const interactions: PactInteraction[] = []
  const descriptions = new Set<string>()
  let leftOut = 0
  let bytes = 0
  for (const entry of entries) {
    const converted = conversion(entry, cache)
    if (converted === null) continue
    if (converted.simulatorChoice && options.simulatorChoices !== true) {
      leftOut++
      continue
    }
    const { interaction } = converted
    let description = interaction.description
    for (let count = 2; descriptions.has(description); count++) description = `${interaction.description} (${count})`
    descriptions.add(description)
    bytes += converted.size
    if (bytes > defaults.pact.maxBytes) {
      throw new ApiError('pact_too_large', `The pact would be over ${defaults.pact.maxBytes} bytes: export it by operation (a filter)`)
    }
    interactions.push(description === interaction.description ? interaction : { ...interaction, description })
  }
  return {
    consumer: { name: consumer },
    provider: { name: provider },
    interactions,
    metadata: {
      pactSpecification: { version: '4.0' },
      'petstore-sim': {
        source: 'journal',
        apiKeyPlaceholder: pactApiKeyPlaceholder,
        invalidApiKey: pactInvalidApiKey,
        simulatorChoices: options.simulatorChoices === true ? 'included' : 'left out',
        simulatorChoicesLeftOut: leftOut,
      },
    },
  }
}
