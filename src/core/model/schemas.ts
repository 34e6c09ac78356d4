// zod/mini: the same checks as zod's classic API in a fraction of the browser weight (`npm run size`;
// test/bench/HISTORY.md, "Figures moved out of source comments"), which leaves room for faker within the 60 kB budget.
import type * as z from 'zod/mini'
import { codePointLength, controlCharacter, maxNameLength, statusMessage } from './new-pet-check.ts'
import { petStatuses, type NewPet, type Pet, type PetStatus } from './pet-types.ts'
import type { StandardSchemaV1 } from './standard-schema.ts'
import { loadZod } from './zod-module.ts'

/**
 * Builds once, on the first call. zod schemas are built lazily because
 * building them was most of what importing the package cost apart from msw
 * (a CPU profile of test/bench/cold-start.ts, 2026-11-23), and a test file
 * that never validates a body need not pay for it. The value kept is the
 * same for every simulator and never changes: no state is shared.
 */
export function lazily<T>(build: () => T): () => T {
  let value: { readonly built: T } | undefined
  return () => {
    value ??= { built: build() }
    return value.built
  }
}

/** The zod schemas of the API's bodies, built on first use. */
export const petSchemas = lazily(() => {
  const z = loadZod()
  /** The spec's PetStatus enumeration. Matching is exact: `Available` is not a status. */
  const PetStatusSchema = z.enum(petStatuses, {
    error: (issue) => statusMessage(issue.input),
  })

  const PetNameSchema = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).check(
    z.refine((name) => name.trim().length > 0, 'must not be empty'),
    z.refine((name) => !controlCharacter.test(name), 'must not contain control characters'),
    z.refine((name) => codePointLength(name) <= maxNameLength, `must be at most ${maxNameLength} characters`),
  )

  /**
   * Category identifiers are positive int64 values in the spec; the simulator
   * accepts those in JavaScript's safe-integer range and rejects larger ones
   * instead of silently rounding them.
   */
  const CategoryIdSchema = z.number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer') }).check(
    z.refine(Number.isInteger, 'must be an integer'),
    z.refine((value) => Number.isSafeInteger(value), 'is outside the supported integer range (±9007199254740991)'),
    z.refine((value) => value >= 1, 'must be at least 1'),
  )

  /** The createPet request body. Unknown fields (including `id`) are dropped. */
  const NewPetSchema = z.object({
    name: PetNameSchema,
    categoryId: CategoryIdSchema,
    status: z.optional(PetStatusSchema),
  })

  /** A pet as the spec describes it: a NewPet with an `id`. */
  const PetSchema = z.extend(NewPetSchema, {
    id: z
      .int({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer') })
      .check(z.minimum(1, 'must be at least 1')),
  })

  const PetsSchema = z.array(PetSchema)

  /** The spec's Error body. */
  const ErrorBodySchema = z.strictObject({
    code: z.string(),
    message: z.string(),
    status: z.int().check(z.minimum(400), z.maximum(599)),
  })
  return { PetStatusSchema, PetNameSchema, CategoryIdSchema, NewPetSchema, PetSchema, PetsSchema, ErrorBodySchema }
})

type PetSchemas = ReturnType<typeof petSchemas>

/**
 * zod's English messages, given to each parse rather than configured
 * globally (zod/mini loads no locale of its own, and a global setting would
 * be module-level state shared with every other user of the bundle). Made
 * when a parse first reports an issue: zod is loaded on first use.
 */
const englishMessages = lazily(() => loadZod().englishLocale().localeError)
export const english: z.core.ParseContext<z.core.$ZodIssue> = { error: (issue) => englishMessages()(issue) }

/**
 * Describes every problem zod found, one per field, in a single sentence:
 * `name: is required; categoryId: must be an integer`.
 */
export function describeIssues(error: z.core.$ZodError): string {
  const byField = new Map<string, string>()
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body'
    if (!byField.has(field)) byField.set(field, issue.message)
  }
  return [...byField].map(([field, message]) => `${field}: ${message}`).join('; ')
}

/**
 * The schemas as the package exports them: Standard Schemas of the API's
 * types, so that the package's type declarations do not depend on zod (which
 * is bundled, once). Each is built on its first use: reading `~standard`
 * builds the zod schemas. The checks below fail to compile if the zod
 * schemas and the declared types (`pet-types.ts`) ever disagree.
 */
export const publicSchemas = {
  PetStatusSchema: onFirstUse<PetStatus>(() => petSchemas().PetStatusSchema),
  NewPetSchema: onFirstUse<NewPet>(() => petSchemas().NewPetSchema),
  PetSchema: onFirstUse<Omit<Pet, 'status'> & { status?: PetStatus | undefined }>(() => petSchemas().PetSchema),
  PetsSchema: onFirstUse<Array<Omit<Pet, 'status'> & { status?: PetStatus | undefined }>>(() => petSchemas().PetsSchema),
  ErrorBodySchema: onFirstUse<{ code: string; message: string; status: number }>(() => petSchemas().ErrorBodySchema),
}

/** A Standard Schema whose zod schema is built when it is first used. */
function onFirstUse<Output>(schema: () => StandardSchemaV1<unknown, unknown>): StandardSchemaV1<unknown, Output> {
  return Object.freeze({
    get '~standard'() {
      return schema()['~standard']
    },
  }) as StandardSchemaV1<unknown, Output>
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<Condition extends true> = Condition
/** Exported so that the compiler checks it (an unused local type would be flagged); it has no other use. @public */
export type SchemaAgreement = [
  Holds<Same<z.infer<PetSchemas['PetStatusSchema']>, PetStatus>>,
  Holds<Same<z.infer<PetSchemas['NewPetSchema']>, { name: string; categoryId: number; status?: PetStatus | undefined }>>,
  Holds<
    Same<z.infer<PetSchemas['PetSchema']> & { status: PetStatus }, { name: string; categoryId: number; status: PetStatus; id: number }>
  >,
]
