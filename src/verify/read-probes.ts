import { petStatuses } from '../core/model/pet-types.ts'
import { defaultLimit, maxLimit, minLimit } from '../core/operations/request-parsing.ts'
import {
  expectErrorBody,
  expectErrorShape,
  expectJsonContentType,
  expectPets,
  expectStatus,
  Mismatch,
  stringifyJson,
} from './expectations.ts'
import { getPetProbe } from './get-pet-probes.ts'
import type { Probe } from './probe.ts'

/**
 * The checks that only read: authentication, the Error body, listPets and
 * its limit and filter, and (in `get-pet-probes.ts`) getPet and its
 * deprecation. Each probe sends the few requests its checks need and
 * nothing else.
 */

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
  checks: ['listPets.status-filter', 'listPets.status-complete', 'limit.with-status', 'listPets.status-invalid'],
  budget: () => petStatuses.length + 3,
  async run(context) {
    // The whole catalogue when it fits in a page: then every pet of a status it shows must be in that status's listing.
    // First, so that a pet added meanwhile (a lagging replica) can only show up in the filtered listings, never be missed.
    const all = await context.send({ method: 'GET', path: '/pets', query: { limit: String(maxLimit) } })
    const everyPet = all.status === 200 && Array.isArray(all.json) ? (all.json as Record<string, unknown>[]) : undefined
    const fitsInAPage = everyPet !== undefined && everyPet.length < maxLimit
    let fullest: { status: string; count: number } | undefined
    for (const status of petStatuses) {
      const filtered = await context.send({ method: 'GET', path: '/pets', query: { status, limit: String(maxLimit) } })
      context.judge('listPets.status-filter', () => {
        expectStatus(filtered, 200)
        const other = expectPets(filtered).find((pet) => pet.status !== status)
        if (other !== undefined) {
          throw new Mismatch(
            `only pets with status ${status}`,
            `pet ${String(other.id)} with status ${stringifyJson(other.status)}`,
            filtered,
          )
        }
      })
      const count = filtered.status === 200 && Array.isArray(filtered.json) ? filtered.json.length : 0
      if (count > (fullest?.count ?? 0)) fullest = { status, count }
      if (!fitsInAPage) continue
      context.judge('listPets.status-complete', () => {
        expectStatus(filtered, 200)
        const listed = new Set(expectPets(filtered).map((pet) => String(pet.id)))
        const missing = everyPet.filter((pet) => pet.status === status && !listed.has(String(pet.id)))
        if (missing.length > 0) {
          throw new Mismatch(
            `every pet with status ${status} that GET /pets?limit=${maxLimit} listed (${everyPet.filter((pet) => pet.status === status).length})`,
            `${missing.length} missing: ${missing
              .slice(0, 5)
              .map((pet) => `pet ${String(pet.id)}`)
              .join(', ')}${missing.length > 5 ? ', …' : ''}`,
            filtered,
          )
        }
      })
    }
    if (!fitsInAPage) {
      context.skip(
        'listPets.status-complete',
        everyPet === undefined
          ? `GET /pets?limit=${maxLimit} answered ${all.status}, not a list`
          : `the catalogue does not fit in a page of ${maxLimit} and the spec shows no way to page further; with --writes, createPet.listed checks the pet the run created`,
      )
    }
    // limit next to status: fewer than that status has, so a limit dropped for the default (20) or for all shows.
    if (fullest === undefined || fullest.count < 2) {
      context.skip('limit.with-status', 'no status lists two pets or more, so a limit below its count cannot be asked for')
    } else {
      const limit = fullest.count >= 3 ? 2 : 1
      const limited = await context.send({ method: 'GET', path: '/pets', query: { status: fullest.status, limit: String(limit) } })
      context.judge('limit.with-status', () => {
        expectStatus(limited, 200)
        const pets = expectPets(limited)
        if (pets.length !== limit) {
          throw new Mismatch(
            `${limit} pet${limit === 1 ? '' : 's'} for status=${fullest.status}&limit=${limit} (status=${fullest.status} lists ${fullest.count})`,
            `${pets.length} pets`,
            limited,
          )
        }
      })
      context.judge('listPets.status-filter', () => {
        const other = expectPets(limited).find((pet) => pet.status !== fullest.status)
        if (other !== undefined)
          throw new Mismatch(
            `only pets with status ${fullest.status}`,
            `pet ${String(other.id)} with status ${stringifyJson(other.status)}`,
            limited,
          )
      })
    }
    const invalid = await context.send({ method: 'GET', path: '/pets', query: { status: 'no-such-status' } })
    context.judge('listPets.status-invalid', () => {
      expectStatus(invalid, 400)
      expectErrorBody(invalid)
    })
  },
}

/** In the order they run. The runner sends the auth probe's first, then the writes (with `--writes`), then the rest. */
export const readProbes: readonly Probe[] = [authProbe, listProbe, statusFilterProbe, getPetProbe]
