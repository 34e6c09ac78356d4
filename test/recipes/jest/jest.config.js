// The Jest recipe's config (docs/recipes.md): msw and petstore-sim are ES modules, which Jest runs as they are with
// no transform, under NODE_OPTIONS=--experimental-vm-modules. test/recipes/jest.test.ts runs it on msw 3 and msw 2.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  transform: {},
}
