import { maxLimit } from '../core/operations/request-parsing.ts'
import { maxNameLength } from '../core/model/new-pet-check.ts'
import { defaults } from '../core/defaults.ts'
import {
  expectErrorBody,
  expectErrorShape,
  expectHeader,
  expectJsonContentType,
  expectPet,
  expectPets,
  expectStatus,
  isJsonInteger,
  Mismatch,
  stringifyJson,
} from './expectations.ts'
import type { Exchange } from './exchange.ts'
import type { Probe, ProbeContext } from './probe.ts'

/**
 * With `--writes`: a pet created, then fetched and listed; a body lacking a
 * required field refused and not stored. The pets it creates are named
 * `verify-<run id>` (15 characters: the spec shows no name constraint, and a
 * provider may well cap names short), so they can be found and cleaned up
 * (the spec has no delete). It runs right after the auth probe, so that the
 * read checks have a pet to look at on an empty catalogue. A second pet gets a
 * name of 255 characters (the simulator's most, longer than most providers'
 * caps): a provider may refuse it with 400 (advisory: the spec shows no name
 * constraint), but one that answers 201 must carry the name as sent, as a
 * pact's createPet does; a provider cutting names fails there.
 */

/** `verify-<run id>-` and digits up to 255 characters: where a provider cut it shows in the report. */
export function longPetName(runId: string): string {
  const prefix = `verify-${runId}-`
  return prefix + '0123456789'.repeat(26).slice(0, maxNameLength - prefix.length)
}

/**
 * How long the listing check gives a lagging replica: three retries, 250 ms, 500 ms and 1 s later (1.75 s in all),
 * each one request of the announced budget. The spec says nothing of consistency; a second's lag is common.
 */
export const listingRetryDelaysMs = [250, 500, 1000] as const

/** A categoryId the target already uses: the spec shows nothing of categories, and a provider may refuse unknown ones. */
function listedCategory(exchanges: readonly Exchange[]): { categoryId: number | bigint; petId: unknown } | undefined {
  for (const exchange of [...exchanges].reverse()) {
    if (exchange.request.method !== 'GET' || exchange.status !== 200 || !Array.isArray(exchange.json)) continue
    const pet = (exchange.json as unknown[]).find(
      (item): item is Record<string, unknown> =>
        typeof item === 'object' && item !== null && isJsonInteger((item as Record<string, unknown>).categoryId),
    )
    if (pet !== undefined) return { categoryId: pet.categoryId as number | bigint, petId: pet.id }
  }
  return undefined
}

const createProbe: Probe = {
  checks: [
    'createPet.created',
    'createPet.default-status',
    'createPet.location',
    'createPet.fetchable',
    'createPet.listed',
    'createPet.long-name',
    'createPet.long-name-accepted',
    'createPet.missing-fields',
    'errors.body-400',
  ],
  needs: 'writes',
  budget: () => 6 + listingRetryDelaysMs.length,
  async run(context) {
    const category = listedCategory(context.exchanges())
    const newPet = { name: `verify-${context.runId}`, categoryId: category?.categoryId ?? 1 }
    const note =
      category === undefined
        ? 'categoryId 1 sent: the target listed no pet to take a categoryId from (a target that checks categories may refuse it)'
        : undefined
    const created = await context.send({ method: 'POST', path: '/pets', json: newPet })
    let pet: Record<string, unknown> | undefined
    context.judge(
      'createPet.created',
      () => {
        expectStatus(created, 201)
        expectJsonContentType(created)
        pet = expectPet(created.json, created)
        for (const [field, value] of Object.entries(newPet)) {
          if (pet[field] !== value)
            throw new Mismatch(`${field} ${stringifyJson(value)}, as sent`, `${field} ${stringifyJson(pet[field])}`, created)
        }
      },
      note,
    )
    if (pet === undefined) {
      const reason = 'createPet did not answer 201 with a pet'
      for (const id of ['createPet.default-status', 'createPet.location', 'createPet.fetchable', 'createPet.listed'] as const) {
        context.skip(id, reason)
      }
    } else {
      const { id, status } = pet
      context.judge('createPet.default-status', () => {
        if (status !== defaults.defaultStatus)
          throw new Mismatch(`status "${defaults.defaultStatus}"`, `status ${stringifyJson(status)}`, created)
      })
      context.judge('createPet.location', () => {
        const location = expectHeader(created, 'Location')
        const expected = `${context.basePath}/pets/${String(id)}`
        if (!URL.canParse(location, created.request.url) || new URL(location, created.request.url).pathname !== expected)
          throw new Mismatch(`Location: ${expected}`, `Location: ${location}`, created)
      })
      const fetched = await context.send({ method: 'GET', path: `/pets/${String(id)}` })
      context.judge('createPet.fetchable', () => {
        expectStatus(fetched, 200)
        const got = expectPet(fetched.json, fetched)
        if (got.id !== id || got.name !== newPet.name)
          throw new Mismatch(`pet ${String(id)} named ${newPet.name}`, stringifyJson(got), fetched)
      })
      const query: Record<string, string> = { limit: String(maxLimit) }
      if (typeof status === 'string') query.status = status
      const inPage = (exchange: Exchange) =>
        exchange.status === 200 && Array.isArray(exchange.json) ? (exchange.json as Record<string, unknown>[]) : undefined
      let listed = await context.send({ method: 'GET', path: '/pets', query })
      // Not listed yet, and the page has room for it: a replica may lag the write. A few bounded retries.
      for (const [index, milliseconds] of listingRetryDelaysMs.entries()) {
        const page = inPage(listed)
        if (page === undefined || page.length >= maxLimit || page.some((item) => item.id === id)) break
        listed = await context.send({
          method: 'GET',
          path: '/pets',
          query,
          delay: {
            milliseconds,
            reason: `the created pet ${String(id)} to show in GET /pets (a replica may lag; retry ${index + 1} of ${listingRetryDelaysMs.length})`,
          },
        })
      }
      const pets = inPage(listed)
      if (pets !== undefined && pets.length === maxLimit && !pets.some((item) => item.id === id)) {
        context.skip('createPet.listed', `the first ${maxLimit} pets listed do not include it, and the spec gives no way to page further`)
      } else {
        context.judge('createPet.listed', () => {
          expectStatus(listed, 200)
          if (!expectPets(listed).some((item) => item.id === id)) throw new Mismatch(`pet ${String(id)} in the list`, 'not listed', listed)
        })
      }
    }
    await longNameChecks(context, newPet.categoryId)
    const lacking = { name: `${newPet.name}x` }
    const refused = await context.send({ method: 'POST', path: '/pets', json: lacking })
    context.judge('createPet.missing-fields', () => {
      expectStatus(refused, 400)
      expectErrorShape(refused)
    })
    context.judge('errors.body-400', () => {
      expectStatus(refused, 400)
      expectErrorBody(refused)
    })
    const after = await context.send({ method: 'GET', path: '/pets', query: { limit: String(maxLimit) } })
    context.judge('createPet.missing-fields', () => {
      expectStatus(after, 200)
      const stored = expectPets(after).find((item) => item.name === lacking.name)
      if (stored !== undefined) throw new Mismatch('nothing stored from the refused body', `pet ${String(stored.id)} listed`, after)
    })
  },
}

/** The long name: refused with a 400 Error (advisory), or a 201 that carries it whole (hard). */
async function longNameChecks(context: ProbeContext, categoryId: number | bigint): Promise<void> {
  const name = longPetName(context.runId)
  const created = await context.send({ method: 'POST', path: '/pets', json: { name, categoryId } })
  if (created.status === 400) {
    context.skip('createPet.long-name', 'the target refused the name with 400: see createPet.long-name-accepted')
  } else {
    context.judge('createPet.long-name', () => {
      expectStatus(created, 201)
      const pet = expectPet(created.json, created)
      if (pet.name !== name) {
        const got =
          typeof pet.name === 'string' && name.startsWith(pet.name)
            ? `the name cut to its first ${pet.name.length} characters`
            : `name ${stringifyJson(pet.name).slice(0, 80)}`
        throw new Mismatch(`the name as sent, all ${name.length} characters`, got, created)
      }
    })
  }
  context.judge('createPet.long-name-accepted', () => expectStatus(created, 201))
}

export const writeProbes: readonly Probe[] = [createProbe]
