// The part of faker that `generatePet` hands to users (`SimpleFaker` and its generator), imported statically: what
// browsers and workers load (dist/browser), and what the tests run. The Node build of the package replaces this module
// with `node/faker-on-demand.ts` (rolldown.config.ts), which loads the same pinned faker only when a simulator is
// given `generatePet`: faker's `SimpleFaker` was a good share of the time of importing the package and creating a
// simulator (test/bench/cold-start.ts, 2026-11-23; the figures: test/bench/HISTORY.md, "Figures moved out of source
// comments"), and most simulators never use it.
import { generateMersenne53Randomizer, SimpleFaker } from '@faker-js/faker'

/** What `createPetFaker` needs of faker. */
export interface FakerModule {
  readonly SimpleFaker: typeof SimpleFaker
  readonly generateMersenne53Randomizer: typeof generateMersenne53Randomizer
}

/** faker's `SimpleFaker` and its generator, at the version bundled into the package. */
export function loadFaker(): FakerModule {
  return { SimpleFaker, generateMersenne53Randomizer }
}
