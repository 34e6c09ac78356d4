import { maxLimit } from '../core/operations/request-parsing.ts'
import { defaults } from '../core/defaults.ts'
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
 * With `--writes`: a pet created, then fetched and listed; a body lacking a
 * required field refused and not stored. The pets it creates are named
 * `petstore-sim verify <run id>`, so they can be found and cleaned up (the
 * spec has no delete).
 */
const createProbe: Probe = {
  checks: [
    'createPet.created',
    'createPet.default-status',
    'createPet.location',
    'createPet.fetchable',
    'createPet.listed',
    'createPet.missing-fields',
    'errors.body-400',
  ],
  needs: 'writes',
  budget: () => 5,
  async run(context) {
    const newPet = { name: `petstore-sim verify ${context.runId}`, categoryId: 1 }
    const created = await context.send({ method: 'POST', path: '/pets', json: newPet })
    let pet: Record<string, unknown> | undefined
    context.judge('createPet.created', () => {
      expectStatus(created, 201)
      expectJsonContentType(created)
      pet = expectPet(created.json, created)
      for (const [field, value] of Object.entries(newPet)) {
        if (pet[field] !== value)
          throw new Mismatch(`${field} ${JSON.stringify(value)}, as sent`, `${field} ${JSON.stringify(pet[field])}`, created)
      }
    })
    if (pet === undefined) {
      const reason = 'createPet did not answer 201 with a pet'
      for (const id of ['createPet.default-status', 'createPet.location', 'createPet.fetchable', 'createPet.listed'] as const) {
        context.skip(id, reason)
      }
    } else {
      const { id, status } = pet
      context.judge('createPet.default-status', () => {
        if (status !== defaults.defaultStatus)
          throw new Mismatch(`status "${defaults.defaultStatus}"`, `status ${JSON.stringify(status)}`, created)
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
          throw new Mismatch(`pet ${String(id)} named ${newPet.name}`, JSON.stringify(got), fetched)
      })
      const query: Record<string, string> = { limit: String(maxLimit) }
      if (typeof status === 'string') query.status = status
      const listed = await context.send({ method: 'GET', path: '/pets', query })
      const pets = listed.status === 200 && Array.isArray(listed.json) ? (listed.json as Record<string, unknown>[]) : undefined
      if (pets !== undefined && pets.length === maxLimit && !pets.some((item) => item.id === id)) {
        context.skip('createPet.listed', `the first ${maxLimit} pets listed do not include it, and the spec gives no way to page further`)
      } else {
        context.judge('createPet.listed', () => {
          expectStatus(listed, 200)
          if (!expectPets(listed).some((item) => item.id === id)) throw new Mismatch(`pet ${String(id)} in the list`, 'not listed', listed)
        })
      }
    }
    const lacking = { name: `${newPet.name} (lacks categoryId)` }
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

export const writeProbes: readonly Probe[] = [createProbe]
