// The Testcontainers recipe of docs/ci.md, written out by test/container/recipes.test.ts and run by it in a vitest of
// its own, as a user's project runs it.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: { include: ['test/container/generated/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
})
