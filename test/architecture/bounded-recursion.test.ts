import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Issue 45, the class "no recursion over client data without a depth bound": `JSON.parse` takes a body nested 100,000
// deep, and a function that calls itself on each level of it overflows the stack (`RangeError`), a 500 or, in a
// timer's callback, the end of the process. So a function under src/ that calls itself and takes an `unknown` (what
// parsed client data is typed as) has a `depth` parameter, which it bounds; `JSON.stringify` of client data goes
// through `previewJson` (src/core/http/bounded-json.ts), and `structuredClone` and `isDeepStrictEqual`, which recurse
// unbounded, are not used. Runs in `npm run lint`. Reads the sources as text: Biome formats them, so a function's
// block ends at the first line that closes it at the indentation it was declared at.

const srcDir = fileURLToPath(new URL('../../src/', import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

interface FunctionBlock {
  readonly file: string
  readonly name: string
  /** The declaration, up to the line that opens the body: the parameters and the return type. */
  readonly header: string
  readonly body: string
}

const declaration =
  /^(\s*)(?:export\s+)?(?:async\s+)?(?:function\*?\s+([A-Za-z_$][\w$]*)|(?:const|let)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?(?:function\b|\(|[A-Za-z_$][\w$]*\s*=>))/

/** The functions a file declares (`function name`, `const name = (…) =>`), each with its header and its block. */
function functionBlocks(file: string, text = readFileSync(file, 'utf8')): FunctionBlock[] {
  const lines = text.split('\n')
  const blocks: FunctionBlock[] = []
  lines.forEach((line, start) => {
    const match = declaration.exec(line)
    if (match === null) return
    const indent = match[1]!
    const name = (match[2] ?? match[3])!
    let open = start
    while (open < lines.length - 1 && !/(?:\{|=>)\s*$/.test(lines[open]!) && !/=>\s*\S/.test(lines[open]!)) open++
    let end = open
    if (/\{\s*$/.test(lines[open]!)) {
      end = open + 1
      while (end < lines.length && !lines[end]!.startsWith(`${indent}}`)) end++
    } else if (/=>\s*$/.test(lines[open]!)) {
      end = open + 1
      while (end + 1 < lines.length && lines[end + 1]!.startsWith(`${indent} `)) end++
    }
    blocks.push({
      file: relative(srcDir, file).split(sep).join('/'),
      name,
      header: lines.slice(start, open + 1).join('\n'),
      body: lines.slice(open + 1, end + 1).join('\n') + (open === end ? lines[open]!.slice(lines[open]!.indexOf('=>')) : ''),
    })
  })
  return blocks
}

function callsItself(block: FunctionBlock): boolean {
  return new RegExp(`(?<![.\\w$])${block.name.replace(/\$/g, '\\$')}\\(`).test(block.body)
}

/**
 * Recursive functions over an `unknown` that need no `depth`, each with why: what bounds how deep it goes. A new
 * entry needs the same: a bound that does not depend on what a client sent.
 */
const boundedOtherwise: Readonly<Record<string, string>> = {
  'app/openapi-rendering.ts visit': 'walks the OpenAPI document bundled with the simulator, never what a client sent',
  'app/openapi-rendering.ts write': 'writes the OpenAPI document bundled with the simulator as YAML, never what a client sent',
  'core/journal/journal-request-filter.ts holds':
    "walks `wanted`, the filter's body, alongside what was sent: `checkJson` refused a `wanted` deeper than 16 before",
}

/** The functions that call themselves on an `unknown` without a `depth` parameter and are not listed as bounded otherwise. */
function unbounded(blocks: readonly FunctionBlock[]): string[] {
  return blocks
    .filter((block) => callsItself(block) && /\bunknown\b/.test(block.header) && !/\bdepth\b/i.test(block.header))
    .map((block) => `${block.file} ${block.name}`)
    .filter((name) => boundedOtherwise[name] === undefined)
}

const files = sourceFiles(srcDir)

describe('no recursion over client data without a depth bound', () => {
  const blocks = files.flatMap((file) => functionBlocks(file))

  it('reads the functions of src/ (the scanner finds them)', () => {
    expect(blocks.length).toBeGreaterThan(500)
    const names = blocks.map((block) => `${block.file} ${block.name}`)
    // Known recursive functions, found as such: the scanner sees through their formatting.
    for (const known of ['core/journal/journal-request-filter.ts checkJson', 'core/journal/journal-request-filter.ts holds']) {
      expect(names).toContain(known)
      expect(callsItself(blocks.find((block) => `${block.file} ${block.name}` === known)!)).toBe(true)
    }
  })

  it('finds a function that calls itself on an unknown without a depth, and passes one with it', () => {
    const sample = [
      'function walk(value: unknown): number {',
      '  return Array.isArray(value) ? 1 + walk(value[0]) : 0',
      '}',
      'export function walkBounded(value: unknown, depth = 0): number {',
      '  return Array.isArray(value) && depth < 64 ? 1 + walkBounded(value[0], depth + 1) : 0',
      '}',
      'const visit = (node: unknown, found: string[]) => {',
      '  if (Array.isArray(node)) for (const item of node) visit(item, found)',
      '}',
      'const size = (node: unknown): number => (Array.isArray(node) ? node.length : 0)',
    ].join('\n')
    expect(unbounded(functionBlocks(join(srcDir, 'sample.ts'), sample))).toEqual(['sample.ts walk', 'sample.ts visit'])
  })

  it('gives every function that calls itself on an unknown a depth parameter', () => {
    expect(unbounded(blocks)).toEqual([])
  })

  it('keeps the list of exceptions to functions that still recurse', () => {
    const recursive = new Set(blocks.filter(callsItself).map((block) => `${block.file} ${block.name}`))
    expect(Object.keys(boundedOtherwise).filter((name) => !recursive.has(name))).toEqual([])
  })

  it('uses neither structuredClone nor isDeepStrictEqual, which recurse as deep as the value', () => {
    const found = files.filter((file) => /\b(?:structuredClone|isDeepStrictEqual)\s*\(/.test(readFileSync(file, 'utf8')))
    expect(found.map((file) => relative(srcDir, file))).toEqual([])
  })
})
