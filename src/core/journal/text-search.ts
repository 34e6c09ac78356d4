// Text search without a regex, for the journal's filters: a path glob and a header's `contains`. A regex built from a
// user's pattern backtracks (a `.*` per `*` took seconds on one short path, issue #26; test/bench/HISTORY.md,
// "Figures moved out of source comments"); Knuth-Morris-Pratt's search takes at most 2 steps per character of the
// text plus 2 per character of the pattern, whatever the two are.

/** A step counter for {@link compileGlob} and {@link compileContains}: tests read it to show that time is linear in the input. */
export interface GlobMeter {
  steps: number
}

/**
 * A matcher of a glob where `*` stands for any characters (none included) and every other character for itself,
 * over the whole text. The pattern is cut at its stars; the first piece must begin the text and the last end it, and
 * each piece between is found at its leftmost place after the one before (taking the leftmost is never worse:
 * whatever matches after a later place matches after an earlier one), by Knuth-Morris-Pratt's search; `meter` counts
 * its steps.
 */
export function compileGlob(pattern: string, meter?: GlobMeter): (text: string) => boolean {
  const pieces = pattern.split('*')
  if (pieces.length === 1) return (text) => text === pattern
  const first = pieces[0]!
  const last = pieces.at(-1)!
  const middle = pieces.slice(1, -1).filter((piece) => piece !== '')
  const tables = middle.map((piece) => failureTable(piece, meter))
  return (text) => {
    if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false
    let from = first.length
    const end = text.length - last.length
    for (let index = 0; index < middle.length; index++) {
      const found = indexOfPiece(text, from, end, middle[index]!, tables[index]!, meter)
      if (found === -1) return false
      from = found + middle[index]!.length
    }
    return true
  }
}

/** A matcher of texts that hold `needle` anywhere (every character literal, `*` too); the empty needle is in every text. */
export function compileContains(needle: string, meter?: GlobMeter): (text: string) => boolean {
  if (needle === '') return () => true
  const table = failureTable(needle, meter)
  return (text) => indexOfPiece(text, 0, text.length, needle, table, meter) !== -1
}
/** Knuth-Morris-Pratt's table: for each prefix of `piece`, the length of its longest proper prefix that is also its suffix. */
function failureTable(piece: string, meter: GlobMeter | undefined): Int32Array {
  const table = new Int32Array(piece.length)
  let length = 0
  for (let index = 1; index < piece.length; index++) {
    while (length > 0 && piece[index] !== piece[length]) {
      length = table[length - 1]!
      if (meter !== undefined) meter.steps++
    }
    if (piece[index] === piece[length]) length++
    table[index] = length
    if (meter !== undefined) meter.steps++
  }
  return table
}

/** The first index of `piece` in `text` from `from`, ending at or before `end`; -1 for none. */
function indexOfPiece(text: string, from: number, end: number, piece: string, table: Int32Array, meter: GlobMeter | undefined): number {
  let matched = 0
  for (let index = from; index < end; index++) {
    while (matched > 0 && text[index] !== piece[matched]) {
      matched = table[matched - 1]!
      if (meter !== undefined) meter.steps++
    }
    if (text[index] === piece[matched]) matched++
    if (meter !== undefined) meter.steps++
    if (matched === piece.length) return index - piece.length + 1
  }
  return -1
}
