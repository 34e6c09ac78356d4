import type { BucketRecord } from '../../core/access/rate-limiter.ts'
import { ApiError } from '../../core/http/api-error.ts'
import type { RecordInput } from '../../core/journal/journal-types.ts'
import { checkNewPet } from '../../core/model/new-pet-check.ts'
import type { NewPet } from '../../core/model/pet-types.ts'
import type { SharedSandboxEntry } from '../../core/simulator/sandbox-registry.ts'

// The one seam where what is read from the store becomes the instance's: every reply and every value (the world's
// meta hash, its snapshot, its created pets, the buckets, the rules' counts, the journal stream) is decoded and
// checked here before any of it is applied. Another process may write under the namespace: a value this version did
// not write is refused as `503 store_corrupt` naming the key, never a crash, a loop or a 500 (issue 45).

/** Makes the refusal of a value read at `key`: the store's display and the problem named. */
export type Refuse = (key: string, problem: string) => ApiError

/** The `store_corrupt` answer: the same headers as `store_unavailable`'s (the pipeline adds the rate-limit ones). */
export function storeCorrupt(display: string, key: string, problem: string): ApiError {
  return new ApiError(
    'store_corrupt',
    `The shared store at ${display} holds at ${key} what this version did not write (${problem}); nothing was counted or changed: remove it, or reset the world`,
    { 'Retry-After': '1' },
  )
}

export function isStoreCorrupt(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'store_corrupt'
}

/** Runs `apply` on a decoded value; a `RangeError` of the core's own checks (a restore, rules, a clock) is a refusal. */
export function applyChecked<T>(refuse: Refuse, key: string, apply: () => T): T {
  try {
    return apply()
  } catch (error) {
    if (error instanceof ApiError && error.code !== 'internal_error') throw error
    throw refuse(key, error instanceof Error ? error.message : String(error))
  }
}

/** The instants a clock may show (1970 to 9999), as the core's clock allows. */
const maxInstant = 253_402_300_799_999

const isCount = (text: string | undefined) => text !== undefined && /^\d{1,15}$/.test(text)
/** A whole number of ms as JavaScript writes one (the clock moves by whole milliseconds only). */
const isNumber = (text: string | undefined) => text !== undefined && /^-?\d{1,16}$/.test(text)

/** A world's `meta` hash as the publish script writes it. */
export interface WorldMeta {
  readonly version: string
  readonly epoch: string
  readonly life: string
  readonly clockOffsetMs: number
  readonly frozenAt: number | null
  /** The rules' JSON as published ('' for none), and what it holds. */
  readonly faultsText: string
  readonly faults: { readonly nextId: number; readonly rules: readonly unknown[] } | undefined
  readonly journalVersion: string
  readonly pactVersion: string
  readonly coverageVersion: string
  readonly options: string | undefined
}

/** `HGETALL meta`: undefined for an empty hash (a world not written yet, or a store that came back empty). */
export function decodeMeta(reply: unknown, key: string, refuse: Refuse): WorldMeta | undefined {
  const meta = decodeHash(reply, key, refuse)
  if (meta.size === 0) return undefined
  const field = (name: string) => `${key}, field ${name}`
  const text = (name: string, check: (value: string | undefined) => boolean, what: string) => {
    const value = meta.get(name)
    if (!check(value)) throw refuse(field(name), `${JSON.stringify(value ?? null)} is not ${what}`)
    return value ?? ''
  }
  const optionalCount = (value: string | undefined) => value === undefined || value === '' || isCount(value)
  const version = text('version', isCount, 'a version')
  const epoch = text('epoch', (value) => isCount(value) && Number(value) > 0, 'an epoch')
  text('nextId', isCount, 'an id')
  const offset = text('clockOffsetMs', (value) => value === undefined || isNumber(value), 'a number of ms')
  const frozen = text('clockFrozenAt', (value) => value === undefined || value === '' || isNumber(value), 'an instant')
  const faultsText = meta.get('faults') ?? ''
  let faults: WorldMeta['faults']
  if (faultsText !== '') {
    const parsed = parseJson(faultsText, field('faults'), refuse) as { nextId?: unknown; rules?: unknown } | null
    if (typeof parsed !== 'object' || parsed === null || !Number.isSafeInteger(parsed.nextId) || !Array.isArray(parsed.rules)) {
      throw refuse(field('faults'), 'not the fault rules')
    }
    faults = { nextId: parsed.nextId as number, rules: parsed.rules }
  }
  return {
    version,
    epoch,
    life: meta.get('life') ?? '',
    clockOffsetMs: Number(offset || '0'),
    frozenAt: frozen === '' ? null : Number(frozen),
    faultsText,
    faults,
    journalVersion: text('journalVersion', optionalCount, 'a version'),
    pactVersion: text('pactVersion', optionalCount, 'a version'),
    coverageVersion: text('coverageVersion', optionalCount, 'a version'),
    options: meta.get('options'),
  }
}

/** `HGETALL fault-times`: what is left of each rule's `times` across the fleet. */
export function decodeFaultTimes(reply: unknown, key: string, refuse: Refuse): Map<string, number> {
  const left = new Map<string, number>()
  for (const [id, value] of decodeHash(reply, key, refuse)) {
    if (!isCount(value)) throw refuse(`${key}, field ${id}`, `${JSON.stringify(value)} is not a count`)
    left.set(id, Number(value))
  }
  return left
}

/** An epoch's snapshot (`GET …:snapshot`): JSON, which `restore` then checks whole (under {@link applyChecked}). */
export function decodeSnapshot(reply: unknown, key: string, refuse: Refuse): unknown {
  if (reply === null) throw refuse(key, 'the epoch has no snapshot')
  if (typeof reply !== 'string') throw refuse(key, 'not a snapshot')
  return parseJson(reply, key, refuse)
}

/** Created pets (an `LRANGE` of `…:created`, or a script's reply carrying some), each a NewPet's JSON. */
export function decodePets(values: readonly unknown[], key: string, refuse: Refuse): NewPet[] {
  return values.map((value, index) => {
    const parsed = typeof value === 'string' ? parseJson(value, key, refuse) : undefined
    const checked = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? checkNewPet(parsed) : 'not an object'
    if (typeof checked === 'string') throw refuse(key, `pet #${index} of the reply: ${checked}`)
    return checked
  })
}

/** A list read back (`LRANGE`): an array of strings. */
export function decodeList(reply: unknown, key: string, refuse: Refuse): string[] {
  if (!Array.isArray(reply) || !reply.every((value) => typeof value === 'string')) throw refuse(key, 'not a list of values')
  return reply
}

/** The buckets script's reply (caller, m, mc, d, dc, r, b for each) as the limiter's records. */
export function decodeBuckets(reply: unknown, key: string, refuse: Refuse): BucketRecord[] {
  const flat = decodeList(reply, key, refuse)
  const records: BucketRecord[] = []
  for (let index = 0; index + 6 < flat.length; index += 7) {
    const [caller = '', minute, minuteCount, day, dayCount, refused, banned] = flat.slice(index, index + 7)
    const counts = [minute, minuteCount, day, dayCount, refused]
    if (!counts.every(isCount) || !(banned === '' || isCount(banned))) {
      throw refuse(`${key}rl:${caller}`, `${JSON.stringify(counts.concat(banned ?? ''))} are not a bucket's counts`)
    }
    records.push({
      caller,
      minute: Number(minute),
      minuteCount: Number(minuteCount),
      day: Number(day),
      dayCount: Number(dayCount),
      refusedInARow: Number(refused),
      ...(banned === '' || banned === undefined ? {} : { bannedUntil: Number(banned) }),
    })
  }
  return records
}

/** A script's reply: an array whose first `counts` places after its status are whole numbers. */
export function decodeReply(reply: unknown, counts: number, key: string, refuse: Refuse): unknown[] {
  if (!Array.isArray(reply) || typeof reply[0] !== 'string') throw refuse(key, 'a script answered what it never answers')
  if (reply[0] === 'ok') {
    for (let index = 1; index <= counts; index++) {
      if (!Number.isSafeInteger(reply[index]))
        throw refuse(key, `a script's reply holds ${JSON.stringify(reply[index])} where a number goes`)
    }
  }
  return reply
}

/** The sandbox listing script's reply: name, pets, requests, scenario, made at, last used at, for each. */
export function decodeSandboxes(reply: unknown, key: string, refuse: Refuse): SharedSandboxEntry[] {
  if (!Array.isArray(reply) || reply.length % 6 !== 0) throw refuse(key, 'not a list of sandboxes')
  const sandboxes: SharedSandboxEntry[] = []
  for (let index = 0; index < reply.length; index += 6) {
    const [name, pets, requests, scenario, createdAt, lastUsedAt] = reply.slice(index, index + 6) as unknown[]
    const counts = [pets, requests, createdAt, lastUsedAt]
    if (typeof name !== 'string' || typeof scenario !== 'string' || !counts.every((count) => Number.isSafeInteger(count))) {
      throw refuse(`${key} (${JSON.stringify(String(name)).slice(0, 40)})`, 'not a sandbox of this version')
    }
    sandboxes.push({
      name,
      pets: pets as number,
      requests: requests as number,
      scenario,
      createdAt: createdAt as number,
      lastUsedAt: lastUsedAt as number,
    })
  }
  return sandboxes
}

/** One entry of the journal stream, decoded: its payload undefined when the store left it out (the caller's own). */
export interface StreamRecord {
  readonly id: string
  readonly sequence: number
  readonly origin: string
  readonly input: RecordInput | undefined
  /** The world's journal, pact and coverage versions the entry was written in (`<j>/<p>/<c>`, '' for 0). */
  readonly generation: readonly number[]
}

/** The entries of an `XRANGE`/`XREAD` of the stream (`[id, [s, seq, o, origin, p, payload, g, generation, …]]` each). */
export function decodeStreamEntries(reply: unknown, key: string, refuse: Refuse): StreamRecord[] {
  if (!Array.isArray(reply)) throw refuse(key, 'not a stream')
  const flat: unknown[] = []
  for (const entry of reply) {
    const [id, fields] = Array.isArray(entry) ? entry : []
    if (!Array.isArray(fields)) throw refuse(key, 'not a stream entry')
    const field = (name: string) => fields[fields.indexOf(name) + 1]
    flat.push(id, field('s'), field('o'), field('p'), field('g'))
  }
  return decodeStreamRecords(flat, key, refuse)
}

/** Fields per entry in a flattened read: id, sequence, origin, payload, generation. */
const streamFields = 5

/** Stream entries flattened (id, sequence, origin, payload, generation: the record script's reply), every one checked first. */
export function decodeStreamRecords(flat: unknown, key: string, refuse: Refuse): StreamRecord[] {
  if (!Array.isArray(flat)) throw refuse(key, 'not a stream')
  const records: StreamRecord[] = []
  for (let index = 0; index + streamFields - 1 < flat.length; index += streamFields) {
    const [id, sequence, origin, payload, generation] = flat.slice(index, index + streamFields) as unknown[]
    const at = `${key}, entry ${typeof id === 'string' ? id : '?'}`
    if (typeof id !== 'string' || !/^\d{1,15}-\d{1,15}$/.test(id)) throw refuse(key, 'an entry without a stream id')
    if (typeof sequence !== 'string' || !isCount(sequence)) throw refuse(at, 'no sequence number')
    if (typeof origin !== 'string') throw refuse(at, 'no origin')
    if (typeof payload !== 'string') throw refuse(at, 'no payload')
    if (typeof generation !== 'string' || !/^\d{0,15}\/\d{0,15}\/\d{0,15}$/.test(generation)) throw refuse(at, 'no generation')
    records.push({
      id,
      sequence: Number(sequence),
      origin,
      input: payload === '' ? undefined : decodeEntry(payload, at, refuse),
      generation: generation.split('/').map((version) => Number(version) || 0),
    })
  }
  return records
}

/** An entry as `encodeEntry` (world-journal.ts) writes it: the facts and the exchange, bodies as text (the request's in base64). */
interface StreamEntry {
  readonly a: number
  readonly m: string
  readonly p: string
  readonly s: number
  readonly o: string
  readonly c: string
  readonly l: string
  readonly d: number
  readonly f?: true
  readonly r?: string
  readonly h?: string[]
  readonly q?: string
  /** The request body's size as sent, when `q` holds only its first `journalBodyCapBytes`. */
  readonly qn?: number
  readonly x: Record<string, string>
  readonly b?: string
  /** The answer's size as sent, when `b` holds only its first `journalBodyCapBytes`. */
  readonly bn?: number
  /** Refused before the API ran (foreign Host or origin): journaled, in no pact or coverage. */
  readonly rf?: true
}

function decodeEntry(text: string, at: string, refuse: Refuse): RecordInput {
  const e = parseJson(text, at, refuse) as StreamEntry
  const problem = entryProblem(e)
  if (problem !== undefined) throw refuse(at, problem)
  return {
    atMs: e.a,
    method: e.m,
    path: e.p,
    status: e.s,
    operation: e.o,
    caller: e.c,
    plan: e.l,
    durationMs: e.d,
    forced: e.f,
    fault: e.r,
    refused: e.rf,
    exchange: {
      rawHeaders: e.h,
      requestBody: e.q === undefined ? undefined : new Uint8Array(Buffer.from(e.q, 'base64')),
      requestBodySize: e.qn,
      responseHeaders: e.x,
      responseBody: e.b,
      responseBodySize: e.bn,
    },
  }
}

function entryProblem(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'not a journal entry'
  const entry = e as Record<string, unknown>
  const strings = ['m', 'p', 'o', 'c', 'l'].filter((name) => typeof entry[name] !== 'string')
  if (strings.length > 0) return `${strings.join(', ')} not text`
  if (!Number.isSafeInteger(entry.a) || (entry.a as number) < 0 || (entry.a as number) > maxInstant) return 'its time is not an instant'
  if (!Number.isInteger(entry.s) || (entry.s as number) < 0 || (entry.s as number) > 999) return 'its status is not a status'
  if (typeof entry.d !== 'number' || !Number.isFinite(entry.d) || entry.d < 0) return 'its duration is not a duration'
  if (entry.f !== undefined && entry.f !== true) return 'its forced mark is not true'
  if (entry.rf !== undefined && entry.rf !== true) return 'its refused mark is not true'
  for (const name of ['qn', 'bn']) {
    if (entry[name] !== undefined && !(Number.isSafeInteger(entry[name]) && (entry[name] as number) >= 0)) return `${name} not a size`
  }
  for (const name of ['r', 'q', 'b']) if (entry[name] !== undefined && typeof entry[name] !== 'string') return `${name} not text`
  if (entry.h !== undefined && !(Array.isArray(entry.h) && entry.h.every((value) => typeof value === 'string')))
    return 'its headers are not text'
  const x = entry.x
  if (typeof x !== 'object' || x === null || Array.isArray(x) || !Object.values(x).every((value) => typeof value === 'string')) {
    return 'its answer headers are not text'
  }
  return undefined
}

/** A hash read back (`HGETALL`, flat: field, value, …). */
function decodeHash(reply: unknown, key: string, refuse: Refuse): Map<string, string> {
  const flat = decodeList(reply, key, refuse)
  const hash = new Map<string, string>()
  for (let index = 0; index + 1 < flat.length; index += 2) hash.set(flat[index]!, flat[index + 1]!)
  return hash
}

function parseJson(text: string, key: string, refuse: Refuse): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw refuse(key, `not JSON: ${JSON.stringify(text.slice(0, 40))}`)
  }
}
