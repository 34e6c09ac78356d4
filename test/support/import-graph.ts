import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'

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
