// The Node build's `core/model/zod-module.ts` (rolldown.config.ts swaps them): the part of zod/mini the package uses,
// loaded from dist/lib/zod.cjs the first time a schema is built, synchronously (`require`), as schemas are built. A
// simulator that never validates a body, a fixture, a fault rule, a scenario or a snapshot never loads it.
import type { Zod } from '../core/model/zod-module.ts'
import { loadBundled } from './load-bundled.ts'

export function loadZod(): Zod {
  return loadBundled<Zod>((require) => require('../zod.cjs'), 'zod.cjs', 'zod')
}
