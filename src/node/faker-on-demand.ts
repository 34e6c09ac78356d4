// The Node build's `core/catalogue/faker-module.ts` (rolldown.config.ts swaps them): faker's `SimpleFaker`, loaded
// from dist/lib/faker.cjs the first time a simulator is given `generatePet`, synchronously (`require`), as
// `createSimulator` is. Importing petstore-sim in Node then costs nothing for faker beyond its generator, which the
// seeded catalogue uses. faker.cjs is the same pinned faker, bundled by the same build: the pets are the same. The
// build puts this module in dist/lib/chunks, hence `../`.
import { createRequire } from 'node:module'
import type { FakerModule } from '../core/catalogue/faker-module.ts'

export function loadFaker(): FakerModule {
  // Node caches the module: every simulator after the first gets it at once.
  return createRequire(import.meta.url)('../faker.cjs') as FakerModule
}
