// The journal's path to one field of a JSON body (`name`, `owner.name`, `tags[0]`, `items[2].id`): a language small
// enough to read in one pass, with no regex (a user's path is input, and a regex built from input is how issue #26's
// backtracking glob happened). Parsing is linear in the path; reading a field follows at most `maxJsonPathSteps`
// steps.

/** One step of a path: a field name of an object, or an index of an array. */
export type JsonPathStep = { readonly field: string } | { readonly index: number }

/** The longest path, in characters. */
export const maxJsonPathLength = 256
/** The most steps (names and indexes) in a path. */
export const maxJsonPathSteps = 16

/**
 * Parses a path: names separated by `.`, each followed by any number of `[n]` indexes (`tags[0]`, `grid[1][2]`); a
 * name is any characters but `.`, `[` and `]`, so a field named with a dot cannot be reached (use the `body` subset).
 * A `RangeError` says what is wrong.
 */
export function parseJsonPath(path: string): JsonPathStep[] {
  if (typeof path !== 'string' || path === '') throw new RangeError('A body path must name a field, such as name or tags[0]')
  if (path.length > maxJsonPathLength) throw new RangeError(`A body path is at most ${maxJsonPathLength} characters`)
  const steps: JsonPathStep[] = []
  let index = 0
  while (index < path.length) {
    let end = index
    while (end < path.length && path[end] !== '.' && path[end] !== '[' && path[end] !== ']') end++
    if (end === index) throw new RangeError(`A body path names a field before each . or [ (at character ${index + 1} of ${shown(path)})`)
    steps.push({ field: path.slice(index, end) })
    index = end
    while (path[index] === '[') {
      let close = index + 1
      while (close < path.length && path[close]! >= '0' && path[close]! <= '9') close++
      if (path[close] !== ']' || close === index + 1 || close - index - 1 > 9) {
        throw new RangeError(
          `A body path's index is [n], n a whole number of at most 9 digits (at character ${index + 1} of ${shown(path)})`,
        )
      }
      steps.push({ index: Number(path.slice(index + 1, close)) })
      index = close + 1
    }
    if (steps.length > maxJsonPathSteps) throw new RangeError(`A body path has at most ${maxJsonPathSteps} steps`)
    if (index === path.length) break
    if (path[index] !== '.' || index === path.length - 1) {
      throw new RangeError(`A body path's fields are separated by . (at character ${index + 1} of ${shown(path)})`)
    }
    index++
  }
  return steps
}

/** What a path reaches in a parsed JSON value: `{ value }`, or undefined when a step finds nothing. */
export function readJsonPath(json: unknown, steps: readonly JsonPathStep[]): { readonly value: unknown } | undefined {
  let value = json
  for (const step of steps) {
    if ('field' in step) {
      // Own fields only: `constructor` or `__proto__` read from Object.prototype are not what the client sent.
      if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, step.field)) return undefined
      value = (value as Record<string, unknown>)[step.field]
    } else {
      if (!Array.isArray(value) || step.index >= value.length) return undefined
      value = value[step.index]
    }
  }
  return { value }
}

function shown(path: string): string {
  const text = JSON.stringify(path)
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}
