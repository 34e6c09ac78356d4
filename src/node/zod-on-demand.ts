// The Node build's `core/api/zod-module.ts` (rolldown.config.ts swaps them): the part of zod/mini the package uses,
// loaded from dist/lib/zod.cjs the first time a schema is built, synchronously (`require`), as schemas are built. A
// simulator that never validates a body, a fixture, a fault rule, a scenario or a snapshot never loads it. The build
// puts this module in dist/lib/chunks, hence `../`.
import { createRequire } from 'node:module'
import type { Zod } from '../core/api/zod-module.ts'

export function loadZod(): Zod {
  // Node caches the module: every schema after the first gets it at once.
  return createRequire(import.meta.url)('../zod.cjs') as Zod
}
