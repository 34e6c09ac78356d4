import { getPetDeprecation } from '../core/operations/deprecation.ts'
import { petStatuses } from '../core/model/pet-types.ts'
import { defaultLimit, maxLimit, minLimit } from '../core/operations/request-parsing.ts'
import {
  expectErrorBody,
  expectErrorShape,
  expectHeader,
  expectJsonContentType,
  expectPet,
  expectPets,
  expectStatus,
  Mismatch,
} from './expectations.ts'
import type { Probe } from './probe.ts'

/**
 * The checks that only read: authentication, the Error body, listPets and
 * its limit and filter, getPet and its deprecation. Each probe sends the
 * few requests its checks need and nothing else.
 */

/** An id no pet has: the largest safe integer (valid int64, so the answer must be 404, not 400). */
const absentPetId = Number.MAX_SAFE_INTEGER

const authProbe: Probe = {
  checks: ['auth.missing-key', 'auth.invalid-key', 'errors.body-401', 'auth.every-operation', 'auth.valid-key'],
  budget: () => 4,
  async run(context) {
    const missing = await context.send({ method: 'GET', path: '/pets', auth: 'none' })
    context.judge('auth.missing-key', () => {
      expectStatus(missing, 401)
      expectErrorShape(missing)
    })
    const invalid = await context.send({
      method: 'GET',
      path: '/pets',
      auth: { token: `petstore-sim-verify-no-such-key-${context.runId}` },
    })
    context.judge('auth.invalid-key', () => {
      expectStatus(invalid, 401)
      expectErrorShape(invalid)
    })
    // The scheme applies to every endpoint: getPet too (createPet's would be a write).
    const getPet = await context.send({ method: 'GET', path: '/pets/1', auth: 'none' })
    context.judge('auth.every-operation', () => {
      expectStatus(getPet, 401)
      expectErrorShape(getPet)
    })
    for (const exchange of [missing, invalid, getPet]) {
      context.judge('errors.body-401', () => {
        expectStatus(exchange, 401)
        expectErrorBody(exchange)
      })
    }
    const valid = await context.send({ method: 'GET', path: '/pets', query: { limit: '1' } })
    context.judge('auth.valid-key', () => {
      expectStatus(valid, 200)
      expectPets(valid)
    })
  },
}

const listProbe: Probe = {
  checks: ['listPets.items', 'limit.default', 'limit.honoured', 'limit.minimum', 'limit.maximum', 'limit.out-of-range'],
  budget: () => 7,
  async run(context) {
    const byDefault = await context.send({ method: 'GET', path: '/pets' })
    context.judge('listPets.items', () => {
      expectStatus(byDefault, 200)
      expectJsonContentType(byDefault)
      expectPets(byDefault)
    })
    // One more than the default tells "20 because of the default" from "20 because that is all there is";
    // a target with no more pets than a limit cannot show that limit at all, and the check says so rather than pass.
    const oneMore = await context.send({ method: 'GET', path: '/pets', query: { limit: String(defaultLimit + 1) } })
    const available = oneMore.status === 200 && Array.isArray(oneMore.json) ? oneMore.json.length : undefined
    const tooFew = (limit: number) =>
      `the target lists only ${available} pet${available === 1 ? '' : 's'}, so a limit of ${limit} cannot be told from listing all (a static mock, an empty staging)`
    if (available !== undefined && available <= defaultLimit) context.skip('limit.default', tooFew(defaultLimit))
    else
      context.judge('limit.default', () => {
        expectStatus(oneMore, 200)
        expectStatus(byDefault, 200)
        const all = expectPets(oneMore).length
        const listed = expectPets(byDefault).length
        const expected = Math.min(defaultLimit, all)
        if (listed !== expected) {
          throw new Mismatch(
            `${expected} pets (limit ${defaultLimit}; limit=${defaultLimit + 1} listed ${all})`,
            `${listed} pets`,
            byDefault,
          )
        }
      })
    const three = await context.send({ method: 'GET', path: '/pets', query: { limit: '3' } })
    if (available !== undefined && available <= 3) context.skip('limit.honoured', tooFew(3))
    else
      context.judge('limit.honoured', () => {
        expectStatus(three, 200)
        const listed = expectPets(three).length
        const expected = Math.min(3, expectPets(oneMore).length)
        if (listed !== expected) throw new Mismatch(`${expected} pets for limit=3`, `${listed} pets`, three)
      })
    const fewest = await context.send({ method: 'GET', path: '/pets', query: { limit: String(minLimit) } })
    context.judge('limit.minimum', () => {
      expectStatus(fewest, 200)
      const listed = expectPets(fewest).length
      const expected = Math.min(minLimit, expectPets(oneMore).length)
      if (listed !== expected) throw new Mismatch(`${expected} pet for limit=${minLimit}`, `${listed} pets`, fewest)
    })
    const most = await context.send({ method: 'GET', path: '/pets', query: { limit: String(maxLimit) } })
    context.judge('limit.maximum', () => {
      expectStatus(most, 200)
      const listed = expectPets(most).length
      const atLeast = Math.min(defaultLimit + 1, expectPets(oneMore).length)
      if (listed > maxLimit || listed < atLeast) {
        throw new Mismatch(`from ${atLeast} to ${maxLimit} pets for limit=${maxLimit}`, `${listed} pets`, most)
      }
    })
    for (const limit of [String(minLimit - 1), String(maxLimit + 1)]) {
      const outside = await context.send({ method: 'GET', path: '/pets', query: { limit } })
      context.judge('limit.out-of-range', () => {
        expectStatus(outside, 400)
        expectErrorBody(outside)
      })
    }
  },
}

const statusFilterProbe: Probe = {
  checks: ['listPets.status-filter', 'listPets.status-invalid'],
  budget: () => petStatuses.length + 1,
  async run(context) {
    for (const status of petStatuses) {
      const filtered = await context.send({ method: 'GET', path: '/pets', query: { status, limit: String(maxLimit) } })
      context.judge('listPets.status-filter', () => {
        expectStatus(filtered, 200)
        const other = expectPets(filtered).find((pet) => pet.status !== status)
        if (other !== undefined) {
          throw new Mismatch(
            `only pets with status ${status}`,
            `pet ${String(other.id)} with status ${JSON.stringify(other.status)}`,
            filtered,
          )
        }
      })
    }
    const invalid = await context.send({ method: 'GET', path: '/pets', query: { status: 'no-such-status' } })
    context.judge('listPets.status-invalid', () => {
      expectStatus(invalid, 400)
      expectErrorBody(invalid)
    })
  },
}

const getPetProbe: Probe = {
  checks: ['getPet.found', 'getPet.deprecation', 'getPet.deprecation-format', 'getPet.not-found', 'errors.body-404'],
  budget: () => 3,
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
      if (JSON.stringify(sorted(fetched)) !== JSON.stringify(sorted(pet))) {
        throw new Mismatch(`the listed pet ${JSON.stringify(pet)}`, JSON.stringify(fetched), found)
      }
    })
    context.judge('getPet.deprecation', () => {
      expectHeader(found, 'Deprecation')
      const sunset = expectHeader(found, 'Sunset')
      const removal = new Date(getPetDeprecation.sunsetAt).toUTCString()
      if (Date.parse(sunset) !== getPetDeprecation.sunsetAt) throw new Mismatch(`Sunset: ${removal}`, `Sunset: ${sunset}`, found)
      const link = expectHeader(found, 'Link')
      if (!/<[^>]*\/pets>/.test(link)) throw new Mismatch('Link: <…/pets>, the successor GET /pets', `Link: ${link}`, found)
    })
    context.judge('getPet.deprecation-format', () => {
      const deprecation = expectHeader(found, 'Deprecation')
      if (!/^@\d+$/.test(deprecation)) throw new Mismatch('Deprecation: @<unix seconds> (RFC 9745)', `Deprecation: ${deprecation}`, found)
      const link = expectHeader(found, 'Link')
      if (!/;\s*rel="?successor-version"?/.test(link)) throw new Mismatch('Link: <…/pets>; rel="successor-version"', `Link: ${link}`, found)
    })
  },
}

function sorted(record: Record<string, unknown>): [string, unknown][] {
  return Object.entries(record).sort(([a], [b]) => a.localeCompare(b))
}

/** In the order they run. */
export const readProbes: readonly Probe[] = [authProbe, listProbe, statusFilterProbe, getPetProbe]
