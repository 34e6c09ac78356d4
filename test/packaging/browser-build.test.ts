// The browser build (exports' `browser` condition, dist/browser) marks faker's load-time tables pure, as the Node build
// does (rolldown.config.ts), so that a setupWorker page carries only the part of faker the simulator uses: that took
// 14 kB gzipped off every page (60.1 → 46.1 kB over msw alone, 2026-11-26). What a user sees must not change: the
// seeded catalogue faker draws, and every faker method `generatePet` may call (`PetFaker`), drawn the same as from the
// sources, which import faker whole.
import { describe, expect, it } from 'vitest'
import { createSimulator, type GeneratePet } from '../../src/index.ts'

const built = (await import(new URL('../../dist/browser/index.js', import.meta.url).href)) as typeof import('../../src/index.ts')

/** The seeded catalogue a simulator of one build or the other starts with, through the public API. */
const catalogue = (create: typeof createSimulator, seed: number, pets: number, generatePet?: GeneratePet) =>
  create({ seed, pets, ...(generatePet === undefined ? {} : { generatePet }) }).store.all()

/** Calls every method of faker that `generatePet` is given (`PetFaker`), so that a table a method needs cannot go missing. */
const everyMethod: GeneratePet = ({ faker, pet }) => {
  const drawn = [
    faker.number.int({ min: 1, max: 9 }),
    faker.number.float({ min: 0, max: 1, fractionDigits: 3 }),
    faker.string.alpha(5),
    faker.string.alphanumeric({ length: 6, casing: 'upper' }),
    faker.string.numeric(4),
    faker.string.uuid(),
    faker.helpers.arrayElement(['a', 'b', 'c']),
    faker.helpers.arrayElements(['a', 'b', 'c', 'd'], 2).join(''),
    faker.helpers.weightedArrayElement([
      { weight: 1, value: 'rare' },
      { weight: 9, value: 'common' },
    ]),
    faker.helpers.maybe(() => 'maybe', { probability: 0.5 }) ?? 'not',
    faker.helpers.fromRegExp('[A-Z]{3}-[0-9]{2}'),
    String(faker.datatype.boolean()),
    faker.date.past({ years: 2 }).toISOString(),
    faker.date.future({ years: 1 }).toISOString(),
    faker.date.between({ from: '2025-01-01', to: '2026-01-01' }).toISOString(),
  ]
  return { ...pet, name: drawn.join(' ').slice(0, 255), categoryId: drawn[0] as number }
}

describe('the browser build (dist/browser)', () => {
  it('draws the same catalogues as faker itself, seed by seed', () => {
    for (const seed of [1, 42, 20301205]) {
      expect(catalogue(built.createSimulator, seed, 500)).toEqual(catalogue(createSimulator, seed, 500))
    }
  })

  it('gives generatePet a faker whose every method draws as faker itself does', () => {
    for (const seed of [3, 11]) {
      expect(catalogue(built.createSimulator, seed, 40, everyMethod)).toEqual(catalogue(createSimulator, seed, 40, everyMethod))
    }
  })

  it('leaves Pact out: its journal.toPact says where to get the pact', () => {
    expect(() => built.createSimulator().journal.toPact()).toThrow(/not in the browser build.*GET \/__sim\/requests\.pact/)
  })
})
