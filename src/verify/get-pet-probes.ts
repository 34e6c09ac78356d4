import { getPetDeprecation } from '../core/operations/deprecation.ts'
import { maxLimit } from '../core/operations/request-parsing.ts'
import {
  expectErrorBody,
  expectErrorShape,
  expectHeader,
  expectJsonContentType,
  expectPet,
  expectPets,
  expectStatus,
  Mismatch,
  stringifyJson,
} from './expectations.ts'
import type { Exchange } from './exchange.ts'
import type { Probe } from './probe.ts'

/**
 * The read checks of getPet (`read-probes.ts` runs it with the others): a pet found as listed, an absent id's 404, and
 * the deprecation the spec states (removed on 5 December 2030, replaced by GET /pets with the status filter), in
 * what it requires and in the headers' common forms.
 */

/** An id no pet has: the largest safe integer (valid int64, so the answer must be 404, not 400). */
const absentPetId = Number.MAX_SAFE_INTEGER

/**
 * The earliest and latest instants that are "5 December 2030" somewhere (UTC+14 to UTC-12): a Sunset on that day in
 * any time zone states the spec's removal date.
 */
const removalDay = { from: Date.UTC(2030, 11, 4, 10), to: Date.UTC(2030, 11, 6, 12) }

export const getPetProbe: Probe = {
  checks: ['getPet.found', 'getPet.deprecation', 'getPet.deprecation-format', 'getPet.not-found', 'errors.body-404'],
  budget: () => 4,
  async run(context) {
    const absent = await context.send({ method: 'GET', path: `/pets/${absentPetId}` })
    context.judge('getPet.not-found', () => {
      expectStatus(absent, 404)
      expectErrorShape(absent)
    })
    context.judge('errors.body-404', () => {
      expectStatus(absent, 404)
      expectErrorBody(absent)
    })
    const first = await context.send({ method: 'GET', path: '/pets', query: { limit: '1' } })
    const listed = first.status === 200 && Array.isArray(first.json) ? (first.json[0] as unknown) : undefined
    if (listed === undefined) {
      const reason = `GET /pets?limit=1 listed no pet to fetch (status ${first.status})`
      for (const id of ['getPet.found', 'getPet.deprecation', 'getPet.deprecation-format'] as const) context.skip(id, reason)
      return
    }
    const pet = expectPet(listed, first, 'the listed pet')
    const found = await context.send({ method: 'GET', path: `/pets/${String(pet.id)}` })
    context.judge('getPet.found', () => {
      expectStatus(found, 200)
      expectJsonContentType(found)
      const fetched = expectPet(found.json, found)
      if (stringifyJson(sorted(fetched)) !== stringifyJson(sorted(pet))) {
        throw new Mismatch(`the listed pet ${stringifyJson(pet)}`, stringifyJson(fetched), found)
      }
    })
    // What the spec states: deprecated, removed on 5 December 2030, replaced by GET /pets with the status filter.
    // No header is named, so their presence and form are the advisory check's; a Sunset that is there must agree.
    if (context.now() >= getPetDeprecation.sunsetAt) {
      context.skip('getPet.deprecation', "the run's clock is past 5 December 2030, and how a removed endpoint answers is not shown")
    } else {
      const replacement =
        typeof pet.status === 'string'
          ? await context.send({ method: 'GET', path: '/pets', query: { status: pet.status, limit: String(maxLimit) } })
          : undefined
      context.judge('getPet.deprecation', () => {
        if (found.status !== 200) {
          throw new Mismatch('getPet still served (200) before its removal on 5 December 2030', `status ${found.status}`, found)
        }
        const sunset = found.headers.sunset
        const at = sunset === undefined ? Number.NaN : Date.parse(sunset)
        if (!Number.isNaN(at) && (at < removalDay.from || at >= removalDay.to)) {
          throw new Mismatch(
            `Sunset on ${new Date(getPetDeprecation.sunsetAt).toUTCString().slice(0, 16)} (the removal date), or no Sunset`,
            `Sunset: ${sunset}`,
            found,
          )
        }
        if (replacement === undefined) return
        expectStatus(replacement, 200)
        const pets = expectPets(replacement)
        if (pets.length < maxLimit && !pets.some((item) => String(item.id) === String(pet.id))) {
          throw new Mismatch(`pet ${String(pet.id)} in its replacement, GET /pets?status=${String(pet.status)}`, 'not listed', replacement)
        }
      })
    }
    context.judge('getPet.deprecation-format', () => expectDeprecationHeaders(found))
  },
}

/**
 * The headers a deprecated endpoint commonly carries, in the forms their RFCs give: `Deprecation: @<seconds>`
 * (RFC 9745), a `Sunset` HTTP date (RFC 8594), and a `Link` either to the successor (`rel="successor-version"`,
 * RFC 5829: GET /pets) or to a page about the deprecation (`rel="deprecation"`, RFC 9745). Sunset and Link may be absent.
 */
function expectDeprecationHeaders(found: Exchange): void {
  const deprecation = expectHeader(found, 'Deprecation')
  if (!/^@-?\d+$/.test(deprecation.trim()))
    throw new Mismatch('Deprecation: @<unix seconds> (RFC 9745)', `Deprecation: ${deprecation}`, found)
  const sunset = found.headers.sunset
  if (sunset !== undefined && Number.isNaN(Date.parse(sunset)))
    throw new Mismatch('Sunset: an HTTP date (RFC 8594)', `Sunset: ${sunset}`, found)
  const link = found.headers.link
  if (link === undefined) return
  const links = [...link.matchAll(/<([^>]*)>((?:\s*;[^,;]*)*)/g)].map(([, target = '', parameters = '']) => ({
    target,
    relations: (/;\s*rel\s*=\s*"?([^";]*)"?/i.exec(parameters)?.[1] ?? '').toLowerCase().split(/\s+/),
  }))
  const successors = links.filter((item) => item.relations.includes('successor-version'))
  if (successors.length === 0 && !links.some((item) => item.relations.includes('deprecation'))) {
    throw new Mismatch('Link: <…/pets>; rel="successor-version", or a rel="deprecation" page (RFC 9745)', `Link: ${link}`, found)
  }
  for (const { target } of successors) {
    if (!URL.canParse(target, found.request.url) || !new URL(target, found.request.url).pathname.replace(/\/+$/, '').endsWith('/pets')) {
      throw new Mismatch('Link: <…/pets>; rel="successor-version" (GET /pets is the replacement)', `Link: ${link}`, found)
    }
  }
}

function sorted(record: Record<string, unknown>): [string, unknown][] {
  return Object.entries(record).sort(([a], [b]) => a.localeCompare(b))
}
