// JSON a client sent, read without recursing as deep as the client nested it (issue 45): `JSON.parse` is iterative
// in V8, but `JSON.stringify`, `structuredClone` and any walk of our own recurse, and a 60 KB body nested 30,000
// deep overflows the stack (`RangeError: Maximum call stack size exceeded`), which in a timer's callback ends the
// process. Every walk over parsed client data is bounded by depth; this is the one bound, and the two walks that
// most code needs.

/** How deep a walk over parsed client data goes: arrays and objects inside one another, the outermost at depth 1. */
export const maxJsonWalkDepth = 64

/**
 * How deep a parsed JSON value nests (a scalar is 0, `[]` and `{}` are 1), counted without recursion; a value nested
 * deeper than `limit` stops the count at `limit + 1`, so that a 100,000-deep body costs no more than a shallow one.
 */
export function jsonDepth(value: unknown, limit: number = maxJsonWalkDepth): number {
  let deepest = 0
  const pending: Array<[unknown, number]> = [[value, 0]]
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!
    if (node === null || typeof node !== 'object') continue
    const inside = depth + 1
    if (inside > deepest) deepest = inside
    if (deepest > limit) return limit + 1
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') pending.push([child, inside])
    }
  }
  return deepest
}

/**
 * JSON text of a parsed value for a message, at most `maxLength` characters (then `…`): the same text as
 * `JSON.stringify` cut there, built only as far as it is shown, so neither a deep value nor a long one costs more
 * than the message. A value nested deeper than it can show is cut like a long one.
 *
 * @example
 * previewJson({ name: 'Rex' }) // '{"name":"Rex"}'
 * previewJson(deeplyNested, 10) // '[[[[[[[[[[…'
 */
export function previewJson(value: unknown, maxLength = 80): string {
  // A stack of the arrays and objects being written, not a recursion: a level costs one small frame of heap.
  const budget = maxLength + 1
  let text = ''
  const open: OpenValue[] = []
  let next: { readonly value: unknown } | undefined = { value }
  while (text.length < budget) {
    if (next !== undefined) {
      const node = next.value
      next = undefined
      if (node === null || typeof node !== 'object') text += scalarText(node, budget - text.length)
      else if (Array.isArray(node)) {
        text += '['
        open.push({ node, keys: undefined, length: node.length, index: 0, written: 0 })
      } else {
        const keys = Object.keys(node)
        text += '{'
        open.push({ node, keys, length: keys.length, index: 0, written: 0 })
      }
      continue
    }
    const frame = open.at(-1)
    if (frame === undefined) break
    if (frame.index >= frame.length) {
      text += frame.keys === undefined ? ']' : '}'
      open.pop()
      continue
    }
    const key = frame.keys === undefined ? frame.index : frame.keys[frame.index]!
    frame.index++
    const child = (frame.node as Record<string | number, unknown>)[key]
    // As JSON.stringify: a member that JSON cannot hold is left out of an object, and null in an array.
    const missing = child === undefined || typeof child === 'function'
    if (frame.keys !== undefined && missing) continue
    if (frame.written++ > 0) text += ','
    if (frame.keys !== undefined) text += `${scalarText(key, budget - text.length)}:`
    next = { value: missing ? null : child }
  }
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text
}

/** An array or object {@link previewJson} is writing: its keys (none for an array), and how far it got. */
interface OpenValue {
  readonly node: object
  readonly keys: readonly string[] | undefined
  readonly length: number
  index: number
  written: number
}

/** A scalar's JSON, a string's cut to what can be shown (its JSON's first characters are the same). */
function scalarText(value: unknown, room: number): string {
  if (typeof value === 'string') return JSON.stringify(value.length > room ? value.slice(0, room) : value)
  if (typeof value === 'bigint') return String(value)
  return JSON.stringify(value) ?? 'null'
}

/**
 * About how many bytes a parsed JSON value holds in a JavaScript heap, counted without recursion: what the journal
 * charges to its byte budget for a body it keeps parsed. An estimate by V8's sizes (an object or array with its
 * backing store, a pointer per member, a string's header and characters), not a measure.
 */
export function jsonFootprint(value: unknown): number {
  let bytes = 0
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node === 'string') bytes += 16 + node.length
    else if (node !== null && typeof node === 'object') {
      const members = Array.isArray(node) ? node : Object.keys(node)
      bytes += 48 + 8 * members.length
      if (Array.isArray(node)) for (const child of node) pending.push(child)
      else for (const key of members as string[]) pending.push(key, (node as Record<string, unknown>)[key])
    } else bytes += 16
  }
  return bytes
}
