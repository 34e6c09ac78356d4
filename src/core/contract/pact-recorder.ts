import { defaults } from '../defaults.ts'
import { compileFilter, matches, type FilterableEntry, type JournalFilter } from '../journal/journal-filter.ts'
import type { JournalEntry, RecordedRequest } from '../journal/journal-types.ts'
import type { PactConversions } from './pact-export.ts'
import { pactExample } from './pact-example.ts'

// The pact's interactions are kept apart from the journal (issue 36): the README's `afterEach(() => simulator.reset())`
// and the Playwright recipe's `POST /__sim/reset` empty the journal between tests, and a pact exported from it then held
// 0 interactions, or the last test's. The recorder keeps the first request of each distinct shape until the user clears
// it (`journal.clearPact()`, `DELETE /__sim/requests.pact`), the way pact-js keeps a file's interactions across its tests.

/** The pact interactions recorded so far, one per shape, kept across resets, scenario switches and journal clears. */
export interface PactRecorder {
  /**
   * Called with every journaled request, in its turn: a few string operations, the entry's view only for a new shape.
   * `requestJson` is the body as the operation parsed it, when it did (the body is then not parsed again).
   */
  observe(recorded: RecordedRequest, requestJson?: object): void
  /**
   * The first request of each shape, in the order the shapes were first seen; a journal filter tests that first
   * request (`operation`, `method` and `status` are the shape's own; `path`, `key`, `since`… its example's).
   */
  entries(filter?: JournalFilter): JournalEntry[]
  /** How many distinct shapes were seen past the caps (not kept): an export then fails, saying so. */
  overflow(): number
  /** What the recorder holds against its bounds: interactions and their estimated bytes. */
  usage(): PactUsage
  /** Forgets every interaction; returns how many there were. */
  clear(): number
  /** The kept entries as interactions, converted once (pact-export.ts): a kept entry never changes. */
  readonly conversions: PactConversions
}

/** The recorder against its bounds (`simulator.pact.usage()`, `GET /__sim/health`'s `memory.pact`). */
export interface PactUsage {
  readonly interactions: number
  readonly maxInteractions: number
  /** Estimated bytes in memory of the kept examples and the shapes seen (an over-estimate). */
  readonly bytes: number
  readonly maxBytes: number
  /** Distinct shapes not kept, past either cap, since the last clear (at most `maxInteractions` are told apart). */
  readonly overflow: number
}

export interface PactRecorderOptions {
  /** The journal's view of a recorded request (secrets redacted), built only for the first request of a shape. */
  readonly view: (recorded: RecordedRequest) => JournalEntry
  /** The API's base path, which a `path` filter is checked against. */
  readonly basePath: string
  /** The most interactions kept. Default `defaults.pact.maxInteractions`. */
  readonly maxInteractions?: number
  /** The most bytes (estimated) the kept examples hold. Default `defaults.pact.maxKeptBytes`. */
  readonly maxBytes?: number
}

export function createPactRecorder(options: PactRecorderOptions): PactRecorder {
  const maxInteractions = options.maxInteractions ?? defaults.pact.maxInteractions
  const maxBytes = options.maxBytes ?? defaults.pact.maxKeptBytes
  let shapes: ShapeTree = new Map()
  let kept: JournalEntry[] = []
  let bytes = 0
  // Hashes of the shapes not kept, not the shapes: a shape holds query names up to Node's 16 KiB of headers.
  let overflow = new Set<number>()
  const refuse = (shape: Shape) => {
    // Bounded too: a hostile client's query names are unbounded, and the count is what the error reports.
    if (overflow.size < maxInteractions) overflow.add(shapeHash(shape))
  }
  /** The shape seen last: nearly every request repeats it, and then the tree of shapes is not walked. */
  let last: Shape | undefined
  return {
    observe(recorded, requestJson) {
      const shape = pactShape(recorded, requestJson)
      if (shape === undefined || (last !== undefined && sameShape(last, shape))) return
      last = shape
      if (has(shapes, shape)) return
      if (kept.length >= maxInteractions) return refuse(shape)
      // Only what the pact reads is kept (pact-example.ts): the view itself is dropped once cut down.
      const example = pactExample(options.view(recorded))
      const size = example.bytes + shapeBytes(shape)
      if (bytes + size > maxBytes) return refuse(shape)
      add(shapes, shape)
      kept.push(example.entry)
      bytes += size
    },
    entries(filter) {
      const tests = compileFilter({ ...filter, limit: undefined }, options.basePath)
      const taken = kept.filter((entry) => matches(tests, filterableEntry(entry)))
      const limit = filter?.limit
      return limit === undefined || taken.length <= limit ? taken : taken.slice(taken.length - limit)
    },
    overflow: () => overflow.size,
    usage: () => ({ interactions: kept.length, maxInteractions, bytes, maxBytes, overflow: overflow.size }),
    conversions: new WeakMap(),
    clear() {
      const count = kept.length
      shapes = new Map()
      last = undefined
      kept = []
      bytes = 0
      overflow = new Set()
      return count
    },
  }
}

/** A shape's parts in the tree of shapes: each a map entry and a map, its string at two bytes a character. */
function shapeBytes(shape: Shape): number {
  let size = 0
  for (const part of shape) size += 160 + (typeof part === 'string' ? 2 * part.length : 0)
  return size
}

/** FNV-1a over a shape's parts: which overflowing shapes are the same, in 4 bytes a shape. */
function shapeHash(shape: Shape): number {
  let hash = 0x811c9dc5
  for (const part of shape) {
    const text = `${part}\n`
    for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193)
  }
  return hash >>> 0
}

/**
 * The shapes seen, as a tree of maps with one level per part of a shape: a shape already seen (nearly every request)
 * is found without joining its parts into one string, an allocation on every request that the allocation budget
 * caught (test/bench/allocation-budget.test.ts; test/bench/HISTORY.md, "Figures moved out of source comments").
 */
type ShapeTree = Map<string | number, ShapeTree>
type Shape = readonly (string | number)[]

function has(tree: ShapeTree, shape: Shape): boolean {
  let level: ShapeTree | undefined = tree
  for (let index = 0; index < shape.length && level !== undefined; index++) level = level.get(shape[index]!)
  return level !== undefined
}

function add(tree: ShapeTree, shape: Shape): void {
  let level = tree
  for (const part of shape) {
    let next = level.get(part)
    if (next === undefined) {
      next = new Map()
      level.set(part, next)
    }
    level = next
  }
}

/** A kept entry as journal filters see one: its headers, query and body as the journal shows them (secrets redacted). */
function filterableEntry(entry: JournalEntry): FilterableEntry {
  const { headers, query, body } = entry.request
  let json: { readonly value: unknown } | undefined | null = null
  return {
    ...entry,
    sentKey: () => entry.request.headers.authorization?.split(' ').pop(),
    sentHeader: (name) => (Object.hasOwn(headers, name) ? headers[name] : undefined),
    // A view's headers and path are already as the journal shows them.
    shownHeader: (name) => (Object.hasOwn(headers, name) ? headers[name] : undefined),
    shownTarget: () => entry.path,
    sentQuery(name) {
      const values = Object.hasOwn(query, name) ? query[name]! : []
      return typeof values === 'string' ? [values] : values
    },
    sentJson() {
      if (json === null) json = body === null || body.encoding !== 'utf8' || body.truncated ? undefined : parseJson(body.text)
      return json
    },
  }
}

function parseJson(text: string): { readonly value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

const unmatchedOperations = new Set(['routeNotFound', 'methodNotAllowed'])
const newPetFields = ['name', 'categoryId', 'status'] as const
const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * A request's shape, what makes an interaction distinct (issue 36): the operation and method, the query's parameter
 * names, the body's NewPet fields and their JSON types, whether a key was valid, absent or invalid, the status, and
 * what decides the provider state (the 429's plan, an empty list). Undefined for what no pact holds: forced answers,
 * fault rules' answers, 5xx and dropped connections, requests that matched no operation, a journal that kept nothing.
 */
function pactShape(recorded: RecordedRequest, requestJson: object | undefined): Shape | undefined {
  const { status, operation, exchange } = recorded
  if (exchange === undefined || recorded.forced === true || recorded.fault !== undefined || status === 0 || status >= 500) return undefined
  if (unmatchedOperations.has(operation)) return undefined
  const queryStart = recorded.path.indexOf('?')
  // The names as sent (a percent-encoded one is a shape of its own): URLSearchParams tripled the cost per request.
  const names = queryStart === -1 ? '' : queryNames(recorded.path, queryStart + 1)
  let auth = recorded.caller === 'anonymous' ? 'none' : 'key'
  const raw = exchange.rawHeaders ?? []
  if (auth === 'none')
    for (let index = 0; index < raw.length; index += 2) if (raw[index]!.toLowerCase() === 'authorization') auth = 'invalid'
  const body =
    requestJson !== undefined
      ? fieldsShape(requestJson)
      : exchange.requestBody === undefined || exchange.requestBodySize === 0
        ? ''
        : bodyShape(exchange.requestBody, exchange.requestBodySize)
  const state =
    status === 429
      ? recorded.plan
      : operation === 'listPets' && status === 200 && exchange.responseBody === '[]' && !hasName(names, 'status')
        ? 'empty'
        : ''
  return [operation, recorded.method, status, auth, state, names, body]
}

/**
 * The query's parameter names, sorted, joined by `&`. One name (the usual `?limit=20`) is sliced without an array:
 * every API request passes here (the allocation budget, test/bench/allocation-budget.test.ts, holds what it costs).
 */
function queryNames(path: string, start: number): string {
  if (path.indexOf('&', start) === -1) {
    const equals = path.indexOf('=', start)
    return equals === -1 ? path.slice(start) : path.slice(start, equals)
  }
  return path
    .slice(start)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=')
      return equals === -1 ? pair : pair.slice(0, equals)
    })
    .sort()
    .join('&')
}

/** Whether `names` (sorted, joined by `&`) holds `name`. */
function hasName(names: string, name: string): boolean {
  for (let start = 0; start <= names.length; ) {
    const end = names.indexOf('&', start)
    const stop = end === -1 ? names.length : end
    if (stop - start === name.length && names.startsWith(name, start)) return true
    if (end === -1) return false
    start = end + 1
  }
  return false
}

/** The NewPet fields a body holds, with their JSON types: `unreadable` for a body that is not a whole JSON object. */
function bodyShape(bytes: Uint8Array, sentSize: number): string {
  if (sentSize > bytes.byteLength) return 'unreadable'
  let parsed: unknown
  try {
    parsed = JSON.parse(utf8.decode(bytes))
  } catch {
    return 'unreadable'
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'unreadable'
  return fieldsShape(parsed)
}

const jsonTypes = ['null', 'integer', 'number', 'string', 'boolean', 'object'] as const
type JsonType = (typeof jsonTypes)[number]
const base = jsonTypes.length + 1

/**
 * Every shape of fields, by a code of the fields' types (a digit a field, 0 when absent), built once at load: a
 * request's shape is then looked up, not built as a string (issue 47). `name:string,categoryId:integer` and so on.
 */
const fieldShapes: readonly string[] = Object.freeze(
  Array.from({ length: base ** newPetFields.length }, (_, code) => {
    const parts: string[] = []
    for (let index = newPetFields.length - 1, rest = code; index >= 0; index--, rest = Math.floor(rest / base)) {
      const digit = rest % base
      if (digit !== 0) parts.unshift(`${newPetFields[index]}:${jsonTypes[digit - 1]}`)
    }
    return parts.join(',')
  }),
)

/** The NewPet fields an object holds, with their JSON types (`name:string,categoryId:integer`). */
function fieldsShape(object: object): string {
  const fields = object as Record<string, unknown>
  let code = 0
  for (const field of newPetFields) {
    code *= base
    if (!Object.hasOwn(fields, field)) continue
    const value = fields[field]
    const type = value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value
    code += jsonTypes.indexOf(type as JsonType) + 1
  }
  return fieldShapes[code]!
}

/** Whether two shapes are the same, part by part. */
function sameShape(one: Shape, other: Shape): boolean {
  for (let index = 0; index < one.length; index++) if (one[index] !== other[index]) return false
  return one.length === other.length
}
