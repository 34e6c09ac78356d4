// What `faker.cjs` holds (rolldown.config.ts): the part of the pinned faker that `node/faker-on-demand.ts` loads, and
// nothing else (no locale), as CommonJS so that Node can `require` it synchronously on every supported version.
export { generateMersenne53Randomizer, SimpleFaker } from '@faker-js/faker'
