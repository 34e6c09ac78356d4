import type { CheckId } from './check-catalogue.ts'
import type { Exchange } from './exchange.ts'
import { expectExactJsonMediaType, Mismatch } from './expectations.ts'
import type { Probe } from './probe.ts'

/**
 * Findings over every answer of the run, sending nothing: run last, after
 * the writes and the 429, so they see them all.
 */

/** The statuses the spec gives an Error body to (429's body is not shown). */
const errorStatuses = new Set([400, 401, 404])

const errorMediaTypeProbe: Probe = {
  checks: ['errors.media-type'],
  budget: () => 0,
  async run(context) {
    const errors = context.exchanges().filter((exchange) => errorStatuses.has(exchange.status))
    if (errors.length === 0) {
      context.skip('errors.media-type', 'no 400, 401 or 404 was received')
      return
    }
    for (const exchange of errors) context.judge('errors.media-type', () => expectExactJsonMediaType(exchange))
  },
}

/**
 * The checks whose evidence is listed pets: on an empty catalogue they pass on nothing (every pet of none has the
 * status asked for) or are skipped, so the finding names them.
 */
const checksOnListedPets: readonly CheckId[] = [
  'listPets.items',
  'listPets.status-filter',
  'listPets.status-complete',
  'limit.default',
  'limit.honoured',
  'limit.minimum',
  'limit.maximum',
  'limit.with-status',
  'getPet.found',
  'getPet.deprecation',
  'getPet.deprecation-format',
]

/** A 200 to the run's key for GET /pets: a listing of the catalogue. */
function isListing(exchange: Exchange): boolean {
  return (
    exchange.request.method === 'GET' &&
    exchange.request.auth === 'key' &&
    /\/pets$/.test(new URL(exchange.request.url).pathname) &&
    exchange.status === 200 &&
    Array.isArray(exchange.json)
  )
}

const notEmptyProbe: Probe = {
  checks: ['listPets.not-empty'],
  budget: () => 0,
  async run(context) {
    const listings = context.exchanges().filter(isListing)
    if (listings.length === 0) {
      context.skip('listPets.not-empty', 'no GET /pets was answered 200 with a list')
      return
    }
    context.judge('listPets.not-empty', () => {
      if (listings.some((exchange) => (exchange.json as unknown[]).length > 0)) return
      const created = context.exchanges().some((exchange) => exchange.request.method === 'POST' && exchange.status === 201)
      throw new Mismatch(
        created ? 'the pet the run created, listed' : 'at least one pet listed',
        `every GET /pets of the run (${listings.length}) listed none${created ? ', even after the run created a pet' : ''}: ` +
          `that hid ${checksOnListedPets.join(', ')}${created ? '' : ' (--writes creates a pet first)'}`,
        listings.at(-1),
      )
    })
  },
}

/** In the order they run, after every other probe. */
export const wholeRunProbes: readonly Probe[] = [errorMediaTypeProbe, notEmptyProbe]
