// `node --import` this file to run the node:test recipe on msw 2: `msw` and `msw/*` resolve to the msw-2-latest alias,
// for the recipe and for petstore-sim alike (as a project with msw 2 installed has it).
import { registerHooks } from 'node:module'

registerHooks({
  resolve: (specifier, context, nextResolve) =>
    nextResolve(/^msw(\/|$)/.test(specifier) ? specifier.replace(/^msw/, 'msw-2-latest') : specifier, context),
})
