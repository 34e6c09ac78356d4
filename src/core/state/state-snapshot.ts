import { loadZod } from '../model/zod-module.ts'
import type { ApiKey } from '../access/api-keys.ts'
import { fingerprint } from '../access/fingerprint.ts'
import { keyCallerPrefix, type BucketRecord } from '../access/rate-limiter.ts'
import { petStatuses, type Pet } from '../model/pet-types.ts'
import { describeIssues, english, lazily, petSchemas } from '../model/schemas.ts'
import type { FaultRule } from '../faults/fault-rules.ts'
import { latestInstant, type ClockSetting } from '../time/clock.ts'

/**
 * The highest fault rule `nextId` a snapshot may hold: 2^40, room for a rule a microsecond for 12 days before ids could
 * leave the safe-integer range. A larger one was accepted, and ids past 2^53 - 1 repeat.
 */
export const maxSnapshotFaultRuleId = 2 ** 40

/** The version of the snapshot format; a snapshot of another format is refused, never guessed at. */
export const snapshotFormat = 1

/**
 * A simulator's whole state as plain JSON (`simulator.snapshot()`,
 * `GET /__sim/snapshot`, the `--state` file): the catalogue and the next id,
 * the clock's offset (or the instant it is frozen at), every rate-limit
 * bucket and ban, the fault rules, and the active scenario. The same in every
 * runtime: a snapshot taken under Node restores in a browser.
 */
export interface StateSnapshot {
  readonly format: typeof snapshotFormat
  /** When it was taken, on the simulator's clock (informative; ignored on restore). */
  readonly takenAt?: string | undefined
  /** The active scenario: `reset` returns to its start. */
  readonly scenario: string
  readonly catalogue: { readonly nextId: number; readonly pets: readonly Pet[] }
  /** `offsetMs` is added to real time while the clock runs; `frozenAt` (epoch ms) is where it stands while frozen. */
  readonly clock: ClockSetting
  /**
   * Rate-limit buckets: `caller` is a key's fingerprint (`key#…`, never the
   * token) or `anonymous:<client address>`; `minute` and `day` count minutes
   * and days since the epoch; `bannedUntil` is epoch ms.
   */
  readonly rateLimits: readonly BucketRecord[]
  readonly faults: { readonly nextId: number; readonly rules: readonly FaultRule[] }
}

/**
 * A snapshot to be written a slice of pets at a time (`GET /__sim/snapshot`):
 * `snapshot` is the state with no pets, `pets` gives the catalogue's, as it
 * stood when the reader was made, `count` at a time ([] after the last).
 */
export interface SnapshotReader {
  readonly snapshot: StateSnapshot
  readonly pets: (count: number) => readonly Pet[]
}

// Built on first use, as the API's schemas are (core/model/schemas.ts: import cost).
const snapshotSchemas = lazily(() => {
  const z = loadZod()
  const count = z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))
  // Times within the clock's range (1970 to 9999): a ban until 2^53 - 1 made every `GET /__sim/state` a 500 (its ISO
  // date cannot be written), for the whole run. Minutes and days since the epoch, within the same range.
  const instant = z.int().check(z.minimum(0), z.maximum(latestInstant))
  const minute = z.int().check(z.minimum(0), z.maximum(Math.floor(latestInstant / 60_000)))
  const day = z.int().check(z.minimum(0), z.maximum(Math.floor(latestInstant / 86_400_000)))

  const BucketSchema = z.strictObject({
    caller: z.string().check(z.regex(/^(key#[0-9a-f]+|anonymous:.+)$/, 'must be key#<fingerprint> or anonymous:<address>')),
    minute,
    minuteCount: count,
    day,
    dayCount: count,
    refusedInARow: count,
    bannedUntil: z.optional(instant),
  })

  // Every pet of a catalogue has its status (a created pet was given the default one).
  const SnapshotPetSchema = z.required(petSchemas().PetSchema, { status: true })

  // Rules are checked in full by the fault rules themselves (FaultRules.load); here only their shape.
  const FaultRuleShape = z.looseObject({ id: z.string() })

  // The pets are checked one by one below, by hand where they are plain (zod's array of a million costs a second).
  const SnapshotSchema = z.strictObject({
    format: z.literal(snapshotFormat, { error: `must be ${snapshotFormat} (this version reads format ${snapshotFormat} only)` }),
    takenAt: z.optional(z.string()),
    scenario: z.string().check(z.minLength(1)),
    catalogue: z.strictObject({
      // Up to 2^53 - 1, the id after the highest a pet may have (`maxPetId`). Not "room for `maxPets` more": the store
      // gives out ids up to `maxPetId` (then 507 `store_full`), so that rule refused what the simulator had written
      // itself once pets were created after a restore near the top, and `--state` refused to start.
      nextId: z.int().check(z.minimum(1), z.maximum(Number.MAX_SAFE_INTEGER)),
      pets: z.custom<unknown[]>(Array.isArray, 'must be an array'),
    }),
    // The offset is checked against the time now, by `restore`, before anything changes.
    clock: z.strictObject({ offsetMs: z.int(), frozenAt: z.nullable(instant) }),
    rateLimits: z.array(BucketSchema),
    faults: z.strictObject({ nextId: z.int().check(z.minimum(1), z.maximum(maxSnapshotFaultRuleId)), rules: z.array(FaultRuleShape) }),
  })
  return { SnapshotSchema, SnapshotPetSchema }
})

/**
 * Checks a snapshot's shape, its pets (valid, ids unique and below `nextId`),
 * every number's bounds (ids and `nextId` safe integers, times within the
 * clock's 1970 to 9999) and its buckets;
 * throws a `RangeError` naming the first problem. The clock's offset against
 * the time now and the fault rules are checked by `restore`, before anything changes.
 */
export function parseSnapshot(data: unknown): StateSnapshot {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new RangeError('A snapshot must be a JSON object')
  const parsed = snapshotSchemas().SnapshotSchema.safeParse(data, english)
  if (!parsed.success) throw new RangeError(`Invalid snapshot: ${describeIssues(parsed.error).replace(/^body: /, '')}`)
  const { catalogue } = parsed.data
  const pets: Pet[] = new Array(catalogue.pets.length)
  const ids = new Set<number>()
  catalogue.pets.forEach((entry, index) => {
    if (isPlainPet(entry) && entry.id < catalogue.nextId && !ids.has(entry.id)) {
      ids.add(entry.id)
      pets[index] = Object.freeze({ id: entry.id, name: entry.name, categoryId: entry.categoryId, status: entry.status })
      return
    }
    const pet = snapshotSchemas().SnapshotPetSchema.safeParse(entry, english)
    if (!pet.success) throw new RangeError(`Invalid snapshot: catalogue.pets.${index}: ${describeIssues(pet.error).replace(/^body: /, '')}`)
    const { id } = pet.data
    if (ids.has(id)) throw new RangeError(`Invalid snapshot: catalogue.pets.${index} repeats the id ${id}`)
    if (id >= catalogue.nextId)
      throw new RangeError(`Invalid snapshot: catalogue.pets.${index} has the id ${id}, not below nextId ${catalogue.nextId}`)
    ids.add(id)
    pets[index] = Object.freeze({ id, name: pet.data.name, categoryId: pet.data.categoryId, status: pet.data.status })
  })
  for (const [index, bucket] of parsed.data.rateLimits.entries()) {
    if (bucket.minuteCount > bucket.dayCount && Math.floor(bucket.minute / 1440) === bucket.day) {
      throw new RangeError(`Invalid snapshot: rateLimits.${index}: minuteCount is above dayCount in the same day`)
    }
  }
  return {
    ...parsed.data,
    format: snapshotFormat,
    catalogue: { nextId: catalogue.nextId, pets },
    faults: { nextId: parsed.data.faults.nextId, rules: parsed.data.faults.rules as unknown as FaultRule[] },
  }
}

const statuses: ReadonlySet<unknown> = new Set(petStatuses)
// biome-ignore lint/suspicious/noControlCharactersInRegex: a name with control characters is not plain
const plainName = /^[^\u0000-\u001f\u007f-\u009f]{1,255}$/

/**
 * Whether a value is a pet that the schema certainly accepts as it is: the
 * four fields and nothing else, a name of at most 255 UTF-16 units (so at
 * most 255 code points) without control characters. Checked by hand because
 * zod, a pet at a time, takes seconds over a million (test/bench/HISTORY.md,
 * "Figures moved out of source comments"); anything else goes to the schema,
 * which accepts or names the problem.
 */
export function isPlainPet(value: unknown): value is Pet {
  if (typeof value !== 'object' || value === null) return false
  const pet = value as Record<string, unknown>
  let fields = 0
  for (const _ in pet) fields++
  return (
    fields === 4 &&
    Number.isSafeInteger(pet.id) &&
    (pet.id as number) >= 1 &&
    Number.isSafeInteger(pet.categoryId) &&
    (pet.categoryId as number) >= 1 &&
    statuses.has(pet.status) &&
    typeof pet.name === 'string' &&
    plainName.test(pet.name) &&
    pet.name.trim() !== ''
  )
}

/**
 * A key bucket's caller as a snapshot names it: the key's fingerprint, so that
 * a snapshot (a file, an HTTP answer) never holds a token.
 */
export function toSnapshotBuckets(records: readonly BucketRecord[]): BucketRecord[] {
  return records.map((record) =>
    record.caller.startsWith(keyCallerPrefix) ? { ...record, caller: fingerprint(record.caller.slice(keyCallerPrefix.length)) } : record,
  )
}

/**
 * A snapshot's buckets for the limiter: fingerprints back to the tokens of
 * the keys in force. A bucket of a key no longer in force is dropped: its
 * counts limit nothing.
 */
export function fromSnapshotBuckets(buckets: readonly BucketRecord[], keys: readonly ApiKey[]): BucketRecord[] {
  const tokenOf = new Map(keys.map((key) => [key.fingerprint, key.token]))
  return buckets.flatMap((bucket) => {
    if (!bucket.caller.startsWith('key#')) return [bucket]
    const token = tokenOf.get(bucket.caller)
    return token === undefined ? [] : [{ ...bucket, caller: `${keyCallerPrefix}${token}` }]
  })
}
