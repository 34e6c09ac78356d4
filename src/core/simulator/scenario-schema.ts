import * as z from 'zod'
import { PetStatusSchema } from '../api/schemas.ts'

// Apart from scenarios.ts so that the published type declarations (which include scenarios.d.ts) never import zod.

const usageSchema = z.union([z.int().min(0), z.literal('all')])

/** A scenario's definition, checked wherever it comes from (options, a config file). */
export const ScenarioSchema = z.strictObject({
  description: z.string().optional(),
  pets: z.int().min(0).max(1_000_000).optional(),
  seed: z.int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  fixtures: z.unknown().optional(),
  status: PetStatusSchema.optional(),
  clock: z.strictObject({ set: z.union([z.string(), z.int()]).optional(), freeze: z.boolean().optional() }).optional(),
  faults: z.array(z.looseObject({})).optional(),
  keys: z.record(z.string(), z.string()).optional(),
  usage: z.record(z.string(), z.strictObject({ minute: usageSchema.optional(), day: usageSchema.optional() })).optional(),
})
