import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/**
 * Every source module reachable from `entry`, with the runtime imports of
 * each: static ones, and dynamic ones too unless `dynamic: false` (what
 * loads before anything runs). Type-only imports are left out: they are
 * erased. Reads the TypeScript sources as text.
 */
export function importGraph(entry: string, options: { dynamic?: boolean } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  const pending = [entry]
  while (pending.length > 0) {
    const file = pending.pop()!
    if (graph.has(file)) continue
    const source = readFileSync(file, 'utf8')
    const runtime = [
      ...source.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g),
    ].map((match) => match[1] ?? match[2]!)
    if (options.dynamic !== false) runtime.push(...[...source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1]!))
    graph.set(file, runtime)
    for (const specifier of runtime) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier)
        if (target.endsWith('.ts')) pending.push(target)
      }
    }
  }
  return graph
}

/** One import or export of a source file: its specifier, and the file it resolves to when relative. */
export interface SourceImport {
  readonly specifier: string
  readonly target?: string
  readonly typeOnly: boolean
}

/**
 * Every import and re-export of the `.ts` files under `folder` (recursively), type-only ones included (a cycle of
 * types is a cycle a reader follows too), and dynamic `import()`s. Keys and targets are absolute paths. Statements are
 * found at the start of a line, so examples in doc comments do not count.
 */
export function sourceImports(folder: string): Map<string, SourceImport[]> {
  const imports = new Map<string, SourceImport[]>()
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue
    const file = join(entry.parentPath, entry.name)
    const source = readFileSync(file, 'utf8')
    const found: SourceImport[] = []
    const add = (specifier: string, typeOnly: boolean) => {
      const target = specifier.startsWith('.') ? resolve(dirname(file), specifier) : undefined
      found.push(target === undefined ? { specifier, typeOnly } : { specifier, target, typeOnly })
    }
    for (const match of source.matchAll(/(?:^|\n)[ \t]*(import|export)\s+(type\s+)?(?:[^'"`;]*?\sfrom\s*)?['"]([^'"]+)['"]/g)) {
      add(match[3]!, match[2] !== undefined)
    }
    for (const match of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) add(match[1]!, false)
    imports.set(file, found)
  }
  return imports
}

/** The import cycles of a graph (its strongly connected components of more than one file, or a file importing itself). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  let next = 0
  const visit = (file: string): void => {
    index.set(file, next)
    low.set(file, next)
    next++
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!))
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== file)
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort())
    }
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return cycles
}
