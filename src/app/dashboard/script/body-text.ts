// A body in the request dialog: JSON pretty-printed, anything else as sent. A body nested deep is shown as sent too:
// `JSON.stringify(…, null, 2)` indents each level two spaces more, so a 6 KB body 3,000 deep came out at 18 million
// characters, a tab's worth of layout for one dialog (issue 45); from about 5,000 deep it overflowed the stack.

/**
 * How deep a body is pretty-printed: the core's `maxJsonWalkDepth` (src/core/http/bounded-json.ts), repeated here as
 * the script imports no values from the core; test/app/dashboard-body-text.test.ts holds the two equal.
 */
export const maxPrettyDepth = 64

/** The text shown for a UTF-8 body: indented JSON when it is JSON at most {@link maxPrettyDepth} deep, else as sent. */
export function shownBodyText(text: string): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return text
  }
  return nestsDeeper(parsed, maxPrettyDepth) ? text : JSON.stringify(parsed, null, 2)
}

/** Whether a parsed value nests arrays and objects deeper than `limit`, counted without recursion. */
function nestsDeeper(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]]
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!
    if (node === null || typeof node !== 'object') continue
    if (depth + 1 > limit) return true
    for (const child of Array.isArray(node) ? node : Object.values(node)) pending.push([child, depth + 1])
  }
  return false
}
