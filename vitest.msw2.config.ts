// The suites that prove petstore-sim on msw 2, the older half of its peer
// range: the in-process scenarios, the simulator's own tests and the Vitest
// recipe, each under msw 2's setupServer, plus the setupWorker page in
// Chromium (test/msw2/browser-worker.msw2-test.ts). They run twice, on the
// newest msw 2 and on the oldest the peer range claims, both installed next
// to msw 3 under npm aliases (package.json: msw-2-latest, msw-2-oldest).
// Every `msw` import, in the tests and in the simulator, resolves to that
// msw 2; `msw/node` to its setupServer behind a shim that only renames msw
// 3's `onUnhandledFrame` option (test/msw2/setup-server.ts). The
// @mswjs/http-middleware recipe (test/msw2/http-middleware.msw2-test.ts) runs
// only here: that package calls msw 2's `handleRequest`, which msw 3 lacks. Its
// own `require('msw')` is beyond these aliases (Node resolves it, not Vite):
// test/msw2/http-middleware-msw.ts redirects it with a Node resolve hook.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const msw2Packages = ['msw-2-latest', 'msw-2-oldest'] as const

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  test: {
    projects: msw2Packages.map((mswPackage) => ({
      resolve: {
        alias: [
          { find: /^msw$/, replacement: mswPackage },
          { find: /^msw\/node$/, replacement: here('./test/msw2/setup-server.ts') },
          { find: /^msw-2-under-test\/node$/, replacement: `${mswPackage}/node` },
        ],
      },
      test: {
        name: mswPackage,
        include: [
          'test/matrix/api-scenarios.test.ts',
          'test/simulator/simulator.test.ts',
          'test/recipes/vitest-node.test.ts',
          'test/msw2/*.msw2-test.ts',
        ],
        env: { PETSTORE_SIM_MSW_PACKAGE: mswPackage, PETSTORE_SIM_TEST_TARGETS: 'msw setupServer' },
      },
    })),
  },
})
