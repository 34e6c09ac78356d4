// Under vitest.msw2.config.ts, `msw-2-under-test` is whichever msw 2 a run
// tests (msw-2-latest or msw-2-oldest, npm aliases of msw). For the type
// checker it is the latest; both have the same API for what the shims use.
declare module 'msw-2-under-test/node' {
  export * from 'msw-2-latest/node'
}
declare module 'msw-2-under-test/browser' {
  export * from 'msw-2-latest/browser'
}
