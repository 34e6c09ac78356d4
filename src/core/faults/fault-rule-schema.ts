// The fault rule model's one schema, built on first use (zod schemas are built lazily: see `lazily`), and the plain
// type it is checked equal to.
import type * as z from 'zod/mini'
import { lazily } from '../model/schemas.ts'
import { loadZod } from '../model/zod-module.ts'
import { transportFaults } from '../http/fault-kinds.ts'
import type { FaultRuleInput } from './fault-rule-input.ts'

/**
 * One fault rule, as given in-process, over HTTP (`POST /__sim/faults`) and
 * in `--faults` files (`--fault` has a short text form, {@link parseFaultText}).
 * It matches API requests by operation, or by method and path, and
 * optionally by key; it fires every time, the next `times` times, or with a
 * `probability`; and it answers a `status`, or does a transport `fault`, after
 * an optional `delay`.
 */
export const faultRuleSchema = lazily(() => {
  const z = loadZod()
  const DelaySchema = z.union([
    z.int().check(z.minimum(0), z.maximum(600_000)),
    z
      .strictObject({ min: z.int().check(z.minimum(0), z.maximum(600_000)), max: z.int().check(z.minimum(0), z.maximum(600_000)) })
      .check(z.refine((range) => range.min <= range.max, 'min must not be above max')),
  ])
  return z
    .strictObject({
      /** `listPets`, `createPet`, `getPet`, `listOrders`. */
      operation: z.optional(z.string()),
      /** `GET`, `POST`… (with or without `path`). */
      method: z.optional(z.string()),
      /** A path under the base path, as in the OpenAPI document (`/pets/{petId}`) or a concrete one (`/pets/5`). */
      path: z.optional(z.string().check(z.startsWith('/'))),
      /** An API key (or its fingerprint, `key#…`): the rule fires for that key's requests only. */
      key: z.optional(z.string().check(z.minLength(1))),
      /** A documented status of the operation (as `Prefer: code=` forces it), or 500, 502, 503, 504. */
      status: z.optional(z.int().check(z.minimum(100), z.maximum(599))),
      fault: z.optional(z.enum(transportFaults)),
      /** Milliseconds, or `{ min, max }` drawn from the seeded generator. */
      delay: z.optional(DelaySchema),
      /** Fire for the next N matching requests only, then the rule is spent (and removed). */
      times: z.optional(z.int().check(z.minimum(1))),
      /** Fire for this share of matching requests (0 < p <= 1), drawn from the seeded generator. */
      probability: z.optional(z.number().check(z.gt(0), z.lte(1))),
      /** With `fault: "hang"`: how long before the connection is dropped. Default 30 s. */
      hangMs: z.optional(z.int().check(z.minimum(1), z.maximum(600_000))),
    })
    .check(
      z.refine(
        (rule) => rule.status !== undefined || rule.fault !== undefined || rule.delay !== undefined,
        'a rule needs a status, a fault or a delay',
      ),
      z.refine((rule) => !(rule.status !== undefined && rule.fault !== undefined), 'a rule answers a status or does a fault, not both'),
      z.refine((rule) => rule.hangMs === undefined || rule.fault === 'hang', 'hangMs goes with fault "hang"'),
    )
})

// Fails to compile if the schema and the declared type disagree (the type keeps the package's declarations free of zod).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const schemaMatchesType: Same<z.input<ReturnType<typeof faultRuleSchema>>, FaultRuleInput> = true
void schemaMatchesType
