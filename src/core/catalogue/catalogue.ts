import type { PetStatus } from '../model/pet-types.ts'

/**
 * The categories the seeded catalogue uses. The spec only shows category
 * identifiers; these names are the simulator's, for realistic data.
 */
export const petCategories = [
  { id: 1, name: 'Dogs', kind: 'dog' },
  { id: 2, name: 'Cats', kind: 'cat' },
  { id: 3, name: 'Birds', kind: 'bird' },
  { id: 4, name: 'Fish', kind: 'fish' },
  { id: 5, name: 'Reptiles', kind: 'snake' },
  { id: 6, name: 'Rabbits', kind: 'rabbit' },
  { id: 7, name: 'Horses', kind: 'horse' },
  { id: 8, name: 'Small pets', kind: 'rodent' },
] as const

/** How often each status appears in the seeded catalogue, in percent. */
export const statusWeights: ReadonlyArray<{ readonly value: PetStatus; readonly weight: number }> = [
  { value: 'available', weight: 60 },
  { value: 'pending', weight: 15 },
  { value: 'sold', weight: 25 },
]
