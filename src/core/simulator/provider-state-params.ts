import { previewJson } from '../http/bounded-json.ts'
import { codePointLength } from '../model/new-pet-check.ts'

/** A provider state's parameters as checked and completed: what setup gets, and what the answer echoes. */
export type ProviderStateParams = Record<string, string | number>

/**
 * One parameter of a provider state, declared once: the handler checks what Pact's verifier sends against it, and
 * `GET /__sim/provider-states` lists it (and docs/pact.md's table, which a test holds equal to it).
 */
export interface ProviderStateParam {
  readonly name: string
  readonly type: 'integer' | 'string'
  readonly required: boolean
  /** The value when none is given; in a string, `{name}` stands for another parameter's value (`Pet {id}`). */
  readonly default?: string | number | undefined
  /** For an integer: the smallest and largest accepted. */
  readonly minimum?: number | undefined
  readonly maximum?: number | undefined
  /** For a string: the values accepted, when they are a list. */
  readonly values?: readonly string[] | undefined
  /** For a string: the most characters (code points) accepted. */
  readonly maxLength?: number | undefined
  /** What it is, in a few words. */
  readonly description: string
}

/**
 * The given parameters checked against their declaration, defaults filled in (in declaration order, so a default
 * may name a parameter declared before it); parameters not declared are left out. A `RangeError` names the first
 * that does not fit.
 */
export function checkParams(declared: readonly ProviderStateParam[], given: Readonly<Record<string, unknown>>): ProviderStateParams {
  const checked: ProviderStateParams = {}
  for (const param of declared) {
    const value = given[param.name]
    if (value === undefined || value === null) {
      if (param.required) throw new RangeError(`${param.name} must be ${describeRange(param)} (got nothing)`)
      if (param.default !== undefined) checked[param.name] = fillTemplate(param.default, checked)
      continue
    }
    checked[param.name] = param.type === 'integer' ? wholeNumber(value, param) : text(value, param)
  }
  return checked
}

/** A parameter's accepted values in words: `a whole number from 1 to 9007199254740990`, `one of free, pro`. */
export function describeRange(param: ProviderStateParam): string {
  if (param.type === 'integer')
    return `a whole number from ${param.minimum ?? Number.MIN_SAFE_INTEGER} to ${param.maximum ?? Number.MAX_SAFE_INTEGER}`
  if (param.values !== undefined) return `one of ${param.values.join(', ')}`
  return param.maxLength === undefined ? 'a string' : `a string of 1 to ${param.maxLength} characters`
}

/** A whole number from a JSON number or decimal digits, within the declared range. */
function wholeNumber(value: unknown, param: ProviderStateParam): number {
  const number = typeof value === 'string' && /^-?[0-9]{1,16}$/.test(value.trim()) ? Number(value) : value
  const minimum = param.minimum ?? Number.MIN_SAFE_INTEGER
  const maximum = param.maximum ?? Number.MAX_SAFE_INTEGER
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < minimum || number > maximum) {
    throw new RangeError(`${param.name} must be ${describeRange(param)} (got ${quoted(value)})`)
  }
  return number
}

function text(value: unknown, param: ProviderStateParam): string {
  const fits =
    typeof value === 'string' &&
    (param.values === undefined || param.values.includes(value)) &&
    (param.maxLength === undefined || (value.length > 0 && codePointLength(value) <= param.maxLength))
  if (!fits) throw new RangeError(`${param.name} must be ${describeRange(param)} (got ${quoted(value)})`)
  return value as string
}

function fillTemplate(template: string | number, values: ProviderStateParams): string | number {
  return typeof template === 'number' ? template : template.replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => String(values[name]))
}

/**
 * A client's value in a message: JSON, cut to 100 characters (a state's 400 is also a log line), rendered only as far
 * as it is shown (a value nested 30,000 deep overflowed `JSON.stringify`; issue 45).
 */
export function quoted(value: unknown): string {
  return value === undefined ? 'nothing' : previewJson(value, 100)
}

/** A client's text in a message, cut to 100 characters. */
export function clipped(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text
}
