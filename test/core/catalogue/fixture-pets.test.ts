import { describe, expect, it } from 'vitest'
import { parseFixturePets } from '../../../src/core/catalogue/fixture-pets.ts'
import { maxPetId } from '../../../src/core/model/pet-types.ts'

// Pets given as data (`--fixtures`, a scenario's `fixtures`; docs/state-and-scenarios.md): each checked, ids given
// after the highest so far, the first bad entry named by index.

describe('pet fixtures', () => {
  it('give an entry without an id the one after the highest so far, and the default status', () => {
    expect(
      parseFixturePets(
        [
          { name: 'Rex', categoryId: 1 },
          { id: 10, name: 'Tom', categoryId: 2, status: 'sold' },
          { name: 'Kit', categoryId: 3 },
          { id: 4, name: 'Bo', categoryId: 1 },
        ],
        'pending',
      ),
    ).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'pending' },
      { id: 10, name: 'Tom', categoryId: 2, status: 'sold' },
      { id: 11, name: 'Kit', categoryId: 3, status: 'pending' },
      { id: 4, name: 'Bo', categoryId: 1, status: 'pending' },
    ])
    expect(parseFixturePets([{ name: 'Rex', categoryId: 1 }])[0]?.status).toBe('available')
  })

  it.each([
    [{ pets: [] }, 'Pet fixtures must be a JSON array of pets'],
    ['[]', 'Pet fixtures must be a JSON array of pets'],
    [
      [{ id: 0, name: 'Rex', categoryId: 1 }],
      'Pet fixture #0 ({"id":0,"name":"Rex","categoryId":1}) is invalid: id: must be a positive integer',
    ],
    [
      [{ id: 1.5, name: 'Rex', categoryId: 1 }],
      'Pet fixture #0 ({"id":1.5,"name":"Rex","categoryId":1}) is invalid: id: must be a positive integer',
    ],
    [[{ name: 'Rex', categoryId: 1, colour: 'red' }], 'Pet fixture #0 ({"name":"Rex","categoryId":1,"colour":"red"}) is invalid:'],
    [[{ id: maxPetId + 1, name: 'Rex', categoryId: 1 }], `Pet fixture #0 has the id ${maxPetId + 1}: ids go up to ${maxPetId} (2^53 - 2)`],
    [
      [
        { id: maxPetId, name: 'Rex', categoryId: 1 },
        { name: 'Tom', categoryId: 1 },
      ],
      `Pet fixture #1 has the id ${maxPetId + 1}: ids go up to ${maxPetId}`,
    ],
    [
      [
        { id: 2, name: 'Rex', categoryId: 1 },
        { name: 'Tom', categoryId: 1 },
        { id: 3, name: 'Kit', categoryId: 1 },
      ],
      'Pet fixture #2 repeats the id 3',
    ],
  ])('refuse %j: %s', (data, message) => {
    expect(() => parseFixturePets(data)).toThrow(TypeError)
    expect(() => parseFixturePets(data)).toThrow(message)
  })

  it('take the highest id a pet may have', () => {
    expect(parseFixturePets([{ id: maxPetId, name: 'Rex', categoryId: 1 }])[0]?.id).toBe(maxPetId)
  })
})
