import * as z from 'zod'

/** The spec's PetStatus enumeration. Matching is exact: `Available` is not a status. */
export const petStatuses = ['available', 'pending', 'sold'] as const
export const PetStatusSchema = z.enum(petStatuses, {
  error: (issue) => `must be one of ${petStatuses.join(', ')} (got ${JSON.stringify(issue.input) ?? 'nothing'})`,
})
export type PetStatus = z.infer<typeof PetStatusSchema>

/** The longest pet name accepted (the spec is silent; see the README). */
export const maxNameLength = 255

export const PetNameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .refine((name) => name.trim().length > 0, 'must not be empty')
  // No control characters (C0, DEL, C1): they have no place in a display name and break logs and terminals.
  .refine((name) => !/[\u0000-\u001f\u007f-\u009f]/.test(name), 'must not contain control characters')
  // Counted in code points, as JSON Schema's maxLength counts them: an emoji is one character.
  .refine((name) => codePointLength(name) <= maxNameLength, `must be at most ${maxNameLength} characters`)

/**
 * Category identifiers are positive int64 values in the spec; the simulator
 * accepts those in JavaScript's safe-integer range and rejects larger ones
 * instead of silently rounding them.
 */
export const CategoryIdSchema = z
  .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer') })
  .refine(Number.isInteger, 'must be an integer')
  .refine((value) => Number.isSafeInteger(value), 'is outside the supported integer range (±9007199254740991)')
  .refine((value) => value >= 1, 'must be at least 1')

/** The createPet request body. Unknown fields (including `id`) are dropped. */
export const NewPetSchema = z.object({
  name: PetNameSchema,
  categoryId: CategoryIdSchema,
  status: PetStatusSchema.optional(),
})
export type NewPet = z.infer<typeof NewPetSchema>

/** A pet as the spec describes it: a NewPet with an `id`. */
export const PetSchema = NewPetSchema.extend({
  id: z.int({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer') }).min(1, 'must be at least 1'),
})

/** A pet as the simulator returns it: `status` is always filled in. */
export type Pet = z.infer<typeof PetSchema> & { status: PetStatus }

export const PetsSchema = z.array(PetSchema)

function codePointLength(text: string): number {
  let length = 0
  for (const _ of text) length++
  return length
}

/** The spec's Error body. */
export const ErrorBodySchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  status: z.int().min(400).max(599),
})

/**
 * Describes every problem zod found, one per field, in a single sentence:
 * `name: is required; categoryId: must be an integer`.
 */
export function describeIssues(error: z.ZodError): string {
  const byField = new Map<string, string>()
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body'
    if (!byField.has(field)) byField.set(field, issue.message)
  }
  return [...byField].map(([field, message]) => `${field}: ${message}`).join('; ')
}
