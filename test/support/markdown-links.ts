import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

// The link check of the user docs, for the repository (test/docs/readme.test.ts) and for the packed package
// (test/packaging/packed-docs.test.ts): a page's relative links must lead to a file under the same root, and a link
// with an anchor to a heading that file has.

/** The text of a page without its fenced code blocks (a `#` or `[x](y)` in a code block is code, not Markdown). */
export const withoutCode = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export const headingAnchors = (text: string) => {
  const seen = new Map<string, number>()
  return withoutCode(text)
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => {
      const slug = line
        .replace(/^#+ /, '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replaceAll(' ', '-')
      const count = seen.get(slug) ?? 0
      seen.set(slug, count + 1)
      return count === 0 ? slug : `${slug}-${count}`
    })
}

/** The relative links of a page's text (Markdown links and images, outside code). */
export const relativeLinks = (text: string) =>
  [...withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target))

/**
 * The relative links of `file` (a path under `root`; its own text, or the one given) that lead to no file under
 * `root`, or to no heading of theirs. `pending`: pages another branch adds, not yet there.
 */
export function brokenLinks(root: string, file: string, text = readFileSync(join(root, file), 'utf8'), pending: readonly string[] = []) {
  const broken: string[] = []
  for (const target of relativeLinks(text)) {
    const [path, anchor] = target.split('#') as [string, string | undefined]
    const linked = path === '' ? file : relative(root, join(root, dirname(file), decodeURIComponent(path)))
    if (pending.includes(linked) && !existsSync(join(root, linked))) continue
    if (linked.startsWith('..') || !existsSync(join(root, linked))) broken.push(`${target}: no file ${linked}`)
    else if (anchor !== undefined && linked.endsWith('.md') && !headingAnchors(readFileSync(join(root, linked), 'utf8')).includes(anchor))
      broken.push(`${target}: no heading #${anchor} in ${linked}`)
  }
  return broken
}
