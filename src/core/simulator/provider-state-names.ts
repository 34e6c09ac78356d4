import { providerStates, type ProviderStateDefinition } from './provider-state-table.ts'

/**
 * Each state's name as a pattern, compiled once from the package's own templates (never from a client's text):
 * `{id}` matches what the client wrote there. A template has one parameter at most and a literal tail, so a lazy
 * group anchored at both ends finds it in time linear in the name (the 16 KiB adversarial test holds it).
 */
const statePatterns = /* @__PURE__ */ compileStatePatterns()

// Pure (built from constants, no effect): a bundle that never answers a provider state leaves this module out.
function compileStatePatterns(): readonly { definition: ProviderStateDefinition; pattern: RegExp; names: readonly string[] }[] {
  return providerStates.map((definition) => {
    const names: string[] = []
    const source = definition.name
      .split(/(\{[a-zA-Z]+\})/)
      .map((part) => {
        if (!/^\{[a-zA-Z]+\}$/.test(part)) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        names.push(part.slice(1, -1))
        return '(.+?)'
      })
      .join('')
    return { definition, pattern: new RegExp(`^${source}$`), names }
  })
}

/** The definition a state's name is, with the parameter values its name spells out (`a pet with id 7 exists`). */
export function findState(name: string): { definition: ProviderStateDefinition; fromName: Record<string, string> } | undefined {
  for (const { definition, pattern, names } of statePatterns) {
    const match = pattern.exec(name.trim())
    if (match === null) continue
    const fromName: Record<string, string> = {}
    // `{id}` as written (the template itself) names no value: the params give it.
    names.forEach((parameter, index) => {
      const value = match[index + 1]!
      if (value !== `{${parameter}}`) fromName[parameter] = value
    })
    return { definition, fromName }
  }
  return undefined
}
