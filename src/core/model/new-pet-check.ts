import { previewJson } from '../http/bounded-json.ts'
import { petStatuses, type NewPet } from './pet-types.ts'

/** The longest pet name accepted (the spec is silent; see the README). */
export const maxNameLength = 255

/**
 * A createPet body checked by hand, exactly as `NewPetSchema` checks it: the
 * same fields, the same messages, the first problem of each field in the
 * schema's order, unknown fields dropped. The zod schema stays the schema of
 * record (the published Standard Schema, the types); this is its fast path for
 * every createPet and `store.create`, where zod ran twice a call (in
 * `parseNewPet`, then again in `store.create`) and showed in `npm run bench`'s
 * profile (issue #19; the figures: test/bench/HISTORY.md, "Figures moved out
 * of source comments"). `test/core/model/new-pet-check.test.ts` holds the two
 * equal on a corpus of bodies, valid and not.
 *
 * @returns the pet, or the problems as `describeIssues` words them (`name: is required; categoryId: must be an integer`).
 */
export function checkNewPet(data: object): NewPet | string {
  const { name, categoryId, status } = data as Record<string, unknown>
  let problems = ''
  const problem = (field: string, message: string) => {
    problems += `${problems === '' ? '' : '; '}${field}: ${message}`
  }
  const nameProblem = checkName(name)
  if (nameProblem !== undefined) problem('name', nameProblem)
  const categoryProblem = checkCategoryId(categoryId)
  if (categoryProblem !== undefined) problem('categoryId', categoryProblem)
  if (status !== undefined && !isPetStatus(status)) problem('status', statusMessage(status))
  if (problems !== '') return problems
  return new CheckedNewPet(name as string, categoryId as number, status as NewPet['status'])
}

/**
 * A pet {@link checkNewPet} has checked, frozen: `store.create` takes it as it is, so a createPet is validated once
 * (parsing the request checks it; the store checks only what did not come checked, `simulator.store.create`'s input).
 */
export class CheckedNewPet implements NewPet {
  readonly name: string
  readonly categoryId: number
  declare readonly status?: NewPet['status']
  constructor(name: string, categoryId: number, status: NewPet['status']) {
    this.name = name
    this.categoryId = categoryId
    if (status !== undefined) this.status = status
    Object.freeze(this)
  }
}

/** Whether a value is one of the spec's statuses, exactly (`Available` is not). */
export function isPetStatus(value: unknown): boolean {
  return (petStatuses as readonly unknown[]).includes(value)
}

/**
 * `PetStatusSchema`'s message for a value that is not a status: the value shown as JSON, cut at 100 characters (a
 * status nested 30,000 deep made `JSON.stringify` overflow the stack, and a createPet a 500; issue 45).
 */
export function statusMessage(value: unknown): string {
  return `must be one of ${petStatuses.join(', ')} (got ${value === undefined ? 'nothing' : previewJson(value, 100)})`
}

/** No control characters (C0, DEL, C1) in a name: they have no place in a display name and break logs and terminals. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this check's job
export const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/

function checkName(name: unknown): string | undefined {
  if (typeof name !== 'string') return name === undefined ? 'is required' : 'must be a string'
  if (name.trim().length === 0) return 'must not be empty'
  if (controlCharacter.test(name)) return 'must not contain control characters'
  // Counted in code points, as JSON Schema's maxLength counts them; a name of at most 255 UTF-16 units needs no count.
  if (name.length > maxNameLength && codePointLength(name) > maxNameLength) return `must be at most ${maxNameLength} characters`
  return undefined
}

function checkCategoryId(categoryId: unknown): string | undefined {
  // zod's number refuses NaN and the infinities as it refuses other types.
  if (typeof categoryId !== 'number' || !Number.isFinite(categoryId)) return categoryId === undefined ? 'is required' : 'must be an integer'
  if (!Number.isInteger(categoryId)) return 'must be an integer'
  if (!Number.isSafeInteger(categoryId)) return 'is outside the supported integer range (±9007199254740991)'
  if (categoryId < 1) return 'must be at least 1'
  return undefined
}

/** Code points, as JSON Schema's maxLength counts them: an emoji is one character. */
export function codePointLength(text: string): number {
  let length = 0
  for (const _ of text) length++
  return length
}
