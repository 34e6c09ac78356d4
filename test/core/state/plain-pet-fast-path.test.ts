import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { petStatuses } from '../../../src/core/model/pet-types.ts'
import { isPlainPet, parseSnapshot } from '../../../src/core/state/state-snapshot.ts'
import { createSimulatorCore } from '../../../src/core/simulator/simulator-core.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'

// A restore checks plain pets by hand and leaves every other value to the schema (state-snapshot.ts, `isPlainPet`).
// The hand check may send a valid pet to the schema (it is only slower), but it must never take a pet the schema
// refuses, and it must take the pets a simulator writes, or a restore of a million pets takes zod's ten seconds.

const base = JSON.parse(JSON.stringify(createSimulatorCore({ clock: createManualClock('2030-06-15T10:00:30.000Z'), pets: 1 }).snapshot()))
const schemaAccepts = (pet: unknown) => {
  try {
    parseSnapshot({ ...base, catalogue: { nextId: Number.MAX_SAFE_INTEGER, pets: [pet] } })
    return true
  } catch {
    return false
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters a plain name may not hold
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/
const plainPet = fc.record({
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER - 1 }),
  name: fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim() !== '' && !controlCharacter.test(name)),
  categoryId: fc.integer({ min: 1, max: 2 ** 31 }),
  status: fc.constantFrom(...petStatuses),
})

// The schema strips fields it does not know (a pet with a colour is the same pet); these it refuses.
const refusedPet = fc.oneof(
  plainPet.map(({ id: _, ...pet }) => pet),
  plainPet.map(({ status: _, ...pet }) => ({ ...pet, owner: 'x' })),
  plainPet.chain((pet) => fc.constantFrom(0, -1, 1.5, '1', null, 2 ** 53).map((id) => ({ ...pet, id }))),
  plainPet.chain((pet) => fc.constantFrom(0, -3, 2.5, '2', null, 2 ** 53).map((categoryId) => ({ ...pet, categoryId }))),
  plainPet.chain((pet) =>
    fc.constantFrom('', ' ', '\t', 'a\u0000b', 'x\u0085', 'x'.repeat(256), 5, null).map((name) => ({ ...pet, name })),
  ),
  plainPet.chain((pet) => fc.constantFrom('lost', '', 'AVAILABLE', 1, null).map((status) => ({ ...pet, status }))),
  fc.constantFrom(null, undefined, 1, 'pet', [], [1, 'Rex', 1, 'available']),
)

describe("a snapshot's hand check of plain pets", () => {
  it('takes every plain pet a simulator writes', () => {
    fc.assert(fc.property(plainPet, (pet) => isPlainPet(pet) && schemaAccepts(pet)))
  })

  it('never takes a pet the schema refuses', () => {
    fc.assert(
      fc.property(refusedPet, (pet) => {
        expect(schemaAccepts(pet), JSON.stringify(pet)).toBe(false)
        expect(isPlainPet(pet), JSON.stringify(pet)).toBe(false)
      }),
    )
  })

  it('leaves a pet with more fields to the schema, which keeps the four', () => {
    const pet = { id: 4, name: 'Rex', categoryId: 2, status: 'sold', colour: 'red' }
    expect(isPlainPet(pet)).toBe(false)
    expect(parseSnapshot({ ...base, catalogue: { nextId: 5, pets: [pet] } }).catalogue.pets).toEqual([
      { id: 4, name: 'Rex', categoryId: 2, status: 'sold' },
    ])
  })

  it('keeps only the four fields of a pet it takes, frozen', () => {
    const [pet] = parseSnapshot({ ...base, catalogue: { nextId: 5, pets: [{ id: 4, name: 'Rex', categoryId: 2, status: 'sold' }] } })
      .catalogue.pets
    expect(pet).toEqual({ id: 4, name: 'Rex', categoryId: 2, status: 'sold' })
    expect(Object.isFrozen(pet)).toBe(true)
  })
})
