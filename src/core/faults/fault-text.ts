import { transportFaults, type FaultRule, type FaultRuleInput } from './fault-rules.ts'

/**
 * The short text form of a rule, for `--fault`: a target, then what it does,
 * then how often:
 *
 * - target: an operation (`listPets`), `METHOD /path` (`GET /v1/pets/{petId}`; the base path may be left out), or `*`;
 * - action: a status (`503`), a fault (`reset`, `hang`, `truncate`, `empty`), and/or `delay=<ms>` or `delay=<min>-<max>`;
 * - options: `times=<n>`, `p=<0..1>`, `key=<API key>`, `hang=<ms>`.
 *
 * @example
 * parseFaultText('GET /v1/pets 503 p=0.2') // { method: 'GET', path: '/pets', status: 503, probability: 0.2 }
 * parseFaultText('createPet reset times=1')
 */
export function parseFaultText(text: string, basePath: string): FaultRuleInput {
  const words = text.trim().split(/\s+/)
  const rule: Record<string, unknown> = {}
  let index = 0
  const first = words[index++] ?? ''
  if (/^[A-Za-z]+$/.test(first) && /^\//.test(words[index] ?? '')) {
    rule.method = first.toUpperCase()
    const path = words[index++]!
    rule.path = path === basePath || path.startsWith(`${basePath}/`) ? path.slice(basePath.length) || '/' : path
  } else if (first !== '*') {
    rule.operation = first
  }
  const wholeNumber = /^\d+$/
  const set = (name: string, value: unknown, word: string) => {
    if (rule[name] !== undefined) throw new RangeError(`Invalid fault "${text}": "${word}" says ${name} a second time`)
    rule[name] = value
  }
  for (const word of words.slice(index)) {
    const [name, value] = word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined]
    // Numbers are written plainly (no 0x10, 1e1, or empty value read as 0), as everywhere else the simulator reads input.
    if (value === undefined && /^\d{3}$/.test(name)) set('status', Number(name), word)
    else if (value === undefined && (transportFaults as readonly string[]).includes(name)) set('fault', name, word)
    else if (name === 'delay' && value !== undefined && /^\d+(-\d+)?$/.test(value)) {
      const [min, max] = value.split('-').map(Number) as [number, number | undefined]
      set('delay', max === undefined ? min : { min, max }, word)
    } else if (name === 'times' && value !== undefined && wholeNumber.test(value)) set('times', Number(value), word)
    else if ((name === 'p' || name === 'probability') && value !== undefined && /^(0|1)?(\.\d+)?$/.test(value) && value !== '')
      set('probability', Number(value), word)
    else if (name === 'key' && value !== undefined && value !== '') set('key', value, word)
    else if (name === 'hang' && value !== undefined && wholeNumber.test(value)) {
      set('fault', 'hang', word)
      set('hangMs', Number(value), word)
    } else
      throw new RangeError(
        `Invalid fault "${text}": cannot read "${word}" (e.g. "GET /v1/pets 503 p=0.2", "createPet reset times=1", "getPet delay=100-500")`,
      )
  }
  return rule as FaultRuleInput
}

/**
 * A rule in force in the same text form, with its id and what is left of `times`: `f1: getPet 404 (2 left)`,
 * `f2: GET /v1/pets 503 p=0.5`, as `--fault` reads it. Its key is its fingerprint (`key=key#…`): a rule never shows a key.
 */
export function formatFaultRule(rule: FaultRule, basePath: string): string {
  const target =
    rule.operation ?? (rule.method === undefined && rule.path === undefined ? '*' : `${rule.method ?? '*'} ${basePath}${rule.path ?? ''}`)
  const delay =
    rule.delay === undefined ? undefined : typeof rule.delay === 'number' ? `${rule.delay}` : `${rule.delay.min}-${rule.delay.max}`
  const words = [
    `${rule.id}:`,
    target,
    rule.status,
    // `hang=<ms>` says `hang` already: `--fault` refuses a rule that says its fault twice, and this form reads back.
    rule.hangMs === undefined ? rule.fault : undefined,
    delay === undefined ? undefined : `delay=${delay}`,
    rule.probability === undefined ? undefined : `p=${rule.probability}`,
    rule.key === undefined ? undefined : `key=${rule.key}`,
    rule.hangMs === undefined ? undefined : `hang=${rule.hangMs}`,
  ]
  const left = rule.remaining === undefined ? '' : ` (${rule.remaining} left)`
  return `${words.filter((word) => word !== undefined).join(' ')}${left}`
}
