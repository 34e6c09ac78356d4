import { describe, expect, it } from 'vitest'
import { plain, setUpPipeline as setup } from '../../support/plain-pipeline.ts'

// What a fault rule matches and what it refuses to be (docs/error-states.md, the rule's fields): `method` and `path`
// instead of or narrowing `operation`, a path as in the OpenAPI document or a concrete one, HEAD as its GET; a status
// the operations it matches document; a delay range drawn whole.

const pro = { Authorization: 'Bearer demo-pro-key' }

function fired() {
  const { simulator } = setup()
  const status = async (method: string, target: string) =>
    (await Promise.resolve(simulator.pipeline.respond(plain(method, target, pro)))).status
  return { simulator, status }
}

describe('a fault rule matches', () => {
  it('a concrete path only there, and a templated one on every pet', async () => {
    const { simulator, status } = fired()
    simulator.faults.add({ method: 'GET', path: '/pets/2', status: 503 })
    expect(await status('GET', '/v1/pets/2')).toBe(503)
    expect(await status('GET', '/v1/pets/2/')).toBe(503)
    expect(await status('GET', '/v1/pets/3')).toBe(200)
    simulator.faults.clear()
    simulator.faults.add({ path: '/pets/{petId}', status: 503 })
    expect(await status('GET', '/v1/pets/3')).toBe(503)
    expect(await status('GET', '/v1/pets')).toBe(200)
  })

  it('HEAD as its GET (a HEAD rule, HEAD only), and no other method', async () => {
    const { simulator, status } = fired()
    simulator.faults.add({ method: 'GET', path: '/pets', status: 503 })
    expect(await status('HEAD', '/v1/pets')).toBe(503)
    simulator.faults.clear()
    simulator.faults.add({ method: 'HEAD', path: '/pets', status: 503 })
    expect(await status('HEAD', '/v1/pets')).toBe(503)
    expect(await status('GET', '/v1/pets')).toBe(200)
    simulator.faults.clear()
    simulator.faults.add({ method: 'POST', status: 503 })
    expect(await status('GET', '/v1/pets')).toBe(200)
  })

  it('draws a delay range whole, from min to max (the same seed, the same delays)', () => {
    const { simulator } = fired()
    simulator.faults.add({ operation: 'listPets', delay: { min: 10, max: 12 } })
    const delays = new Set<number>()
    for (let index = 0; index < 200; index++)
      delays.add(simulator.faults.fire(simulator.pipeline.table.routes[0]!, 'GET', '/v1/pets', undefined)!.delayMs)
    expect([...delays].sort()).toEqual([10, 11, 12])
  })
})

describe('a fault rule is refused (RangeError, the message the API gives in its 400)', () => {
  it.each([
    [{ operation: 'deletePet', status: 503 }, /^Invalid fault rule: no operation deletePet \(use one of listPets, createPet, getPet/],
    [{ method: 'PUT', path: '/pets', status: 503 }, /^Invalid fault rule: it matches no operation of the API$/],
    [{ path: '/owners', status: 503 }, /^Invalid fault rule: it matches no operation of the API$/],
    [
      { operation: 'getPet', status: 201 },
      /^Invalid fault rule: getPet never answers 201; use one of its documented statuses \([\d, ]+\) or 500, 502, 503, 504$/,
    ],
  ])('%j', (rule, message) => {
    const { simulator } = fired()
    expect(() => simulator.faults.add(rule as never)).toThrow(RangeError)
    expect(() => simulator.faults.add(rule as never)).toThrow(message)
    expect(simulator.faults.list()).toEqual([])
  })
})
