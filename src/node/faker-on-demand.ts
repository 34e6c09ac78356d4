// The Node build's `core/catalogue/faker-module.ts` (rolldown.config.ts swaps them): faker's `SimpleFaker`, loaded
// from dist/lib/faker.cjs the first time a simulator is given `generatePet`, synchronously (`require`), as
// `createSimulator` is. Importing petstore-sim in Node then costs nothing for faker beyond its generator, which the
// seeded catalogue uses. faker.cjs is the same pinned faker, bundled by the same build: the pets are the same.
import type { FakerModule } from '../core/catalogue/faker-module.ts'
import { loadBundled } from './load-bundled.ts'

export function loadFaker(): FakerModule {
  return loadBundled<FakerModule>((require) => require('../faker.cjs'), 'faker.cjs', "faker's SimpleFaker")
}
