import { readFileSync } from 'node:fs'

/**
 * The fenced code blocks of one language in one section of a page (from its `## heading` to the next `##`), in order:
 * the recipes a test runs as the page shows them.
 */
export function fencedBlocks(file: URL, heading: string, language: string): string[] {
  const text = readFileSync(file, 'utf8')
  const start = text.indexOf(`\n${heading}\n`)
  if (start === -1) throw new Error(`${file.pathname}: no heading ${heading}`)
  const rest = text.slice(start + heading.length + 2)
  const end = rest.search(/\n## /)
  const section = end === -1 ? rest : rest.slice(0, end)
  return [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\`\\n`, 'g'))].map((match) => match[1]!)
}
