// zod/mini, imported statically: what browsers and workers load (dist/browser), and what the tests run. Every schema is
// built on first use (`lazily`), from `loadZod()`. The Node build of the package replaces this module with
// `node/zod-on-demand.ts` (rolldown.config.ts), which loads the same bundled zod the first time a schema is built:
// zod was a good share of the time of importing the package and creating a simulator (test/bench/cold-start.ts,
// 2026-11-23; the figures: test/bench/HISTORY.md, "Figures moved out of source comments"), and a simulator need not
// validate anything to start.
import * as zod from './zod-api.ts'

/** The part of zod/mini the package uses (`zod-api.ts`). */
export type Zod = typeof zod

/** That part of zod/mini, at the version bundled into the package. */
export function loadZod(): Zod {
  return zod
}
