// Makes @mswjs/http-middleware's own `require('msw')` load the msw 2 under
// test. Import it before anything that loads @mswjs/http-middleware.
//
// In a user's project on msw 2, `msw` *is* msw 2 and nothing is needed. Here
// `msw` is msw 3 and msw 2 is installed under npm aliases (package.json), and
// vitest.msw2.config.ts's `resolve.alias` cannot reach that require: the
// package is CommonJS in node_modules, so Vitest hands it to Node, whose
// require never sees Vite's aliases (tried: without this hook, and with
// `server.deps.inline: ['@mswjs/http-middleware']`, its middleware still got
// msw 3 and answered `TypeError: (0 , msw_1.handleRequest) is not a
// function`). A resolve hook of Node's own (module.registerHooks, Node >=
// 22.15, synchronous, applies to require) redirects exactly that specifier
// from exactly that package; every other module resolves as before.
import { registerHooks } from 'node:module'

const mswPackage = process.env.PETSTORE_SIM_MSW_PACKAGE
if (mswPackage === undefined || !/^msw-2-(latest|oldest)$/.test(mswPackage))
  throw new Error(`PETSTORE_SIM_MSW_PACKAGE must name the msw 2 under test, got ${mswPackage}`)

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'msw' && context.parentURL?.includes('/node_modules/@mswjs/http-middleware/') === true)
      return nextResolve(mswPackage, context)
    return nextResolve(specifier, context)
  },
})
