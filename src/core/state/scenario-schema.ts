// zod/mini, as the core's other schemas (browser weight: see core/model/schemas.ts).
import { loadZod } from '../model/zod-module.ts'
import { lazily, petSchemas } from '../model/schemas.ts'

// Apart from scenarios.ts so that the published type declarations (which include scenarios.d.ts) never import zod.

/** A scenario's definition, checked wherever it comes from (options, a config file); built on first use (import cost). */
export const scenarioSchema = lazily(() => {
  const z = loadZod()
  const usageSchema = z.union([z.int().check(z.minimum(0)), z.literal('all')])

  return z.strictObject({
    description: z.optional(z.string()),
    pets: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
    seed: z.optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
    fixtures: z.optional(z.unknown()),
    status: z.optional(petSchemas().PetStatusSchema),
    clock: z.optional(z.strictObject({ set: z.optional(z.union([z.string(), z.int()])), freeze: z.optional(z.boolean()) })),
    faults: z.optional(z.array(z.looseObject({}))),
    keys: z.optional(z.record(z.string(), z.string())),
    usage: z.optional(z.record(z.string(), z.strictObject({ minute: z.optional(usageSchema), day: z.optional(usageSchema) }))),
  })
})
