import { InvalidArgumentError } from 'commander'
import { parseDuration } from '../core/time/duration.ts'
import { parsePlan } from '../core/access/plans.ts'
import { normaliseOrigin } from '../core/access/origin-policy.ts'
import type { Latency } from '../core/operations/operation-context.ts'
import { checkPartyName } from '../core/contract/pact-export.ts'
import { createProxyTrust } from '../node/forwarded-address.ts'

export function wholeNumber(name: string, min: number, max: number) {
  return (value: string): number => {
    const number = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN
    if (!(number >= min && number <= max)) throw new InvalidArgumentError(`--${name} must be a whole number from ${min} to ${max}.`)
    return number
  }
}

/** Each `--fault` as written (read against the base path once all flags are known); several in one value separated by `;`. */
export function collectFaults(value: string, previous: string[]): string[] {
  return [
    ...previous,
    ...value
      .split(';')
      .map((rule) => rule.trim())
      .filter((rule) => rule.length > 0),
  ]
}

/** Each `--trust-proxy` entry, checked as the server reads it (`forwarded-address.ts`); several separated by `,`. */
export function collectProxies(value: string, previous: string[]): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  try {
    createProxyTrust(entries)
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message)
  }
  return [...previous, ...entries]
}

/** Each `--cors-origin`, checked and normalised (`http://App.test:5173/` is `http://app.test:5173`); several separated by `,`. */
export function collectOrigins(value: string, previous: string[]): string[] {
  const origins = value
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '')
  try {
    return [...previous, ...origins.map(normaliseOrigin)]
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message)
  }
}

export function collectKeys(value: string, previous: string[]): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
  for (const entry of entries) {
    const separator = entry.lastIndexOf('=')
    if (separator <= 0) throw new InvalidArgumentError(`expected <token>=<plan>, got "${entry}".`)
    try {
      parsePlan(entry.slice(separator + 1))
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message)
    }
  }
  return [...previous, ...entries]
}

export function parseLatency(value: string): Latency {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(value)
  if (match) {
    const min = Number(match[1])
    if (match[2] === undefined) return min
    const max = Number(match[2])
    if (max >= min) return { min, max }
  }
  throw new InvalidArgumentError('expected milliseconds (50) or a min-max range (20-80).')
}

export function parseBasePath(value: string): string {
  const path = value.replace(/\/+$/, '')
  if (path !== '' && !/^(\/[\w.~-]+)+$/.test(path)) throw new InvalidArgumentError('expected a path such as /v1 or /api/v1.')
  if (path === '/__sim' || path.startsWith('/__sim/')) throw new InvalidArgumentError('/__sim is reserved for the control endpoints.')
  return path
}

export function parseBanAfter(value: string): number | 'off' {
  if (value.trim() === 'off') return 'off'
  return wholeNumber('ban-after', 0, 1_000_000)(value)
}

/** `600000` -> `10m`: the largest unit that divides the duration. */
export function formatDuration(milliseconds: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ] as const) {
    if (milliseconds % size === 0) return `${milliseconds / size}${unit}`
  }
  return `${milliseconds}ms`
}

export function parseDurationFlag(value: string): number {
  refuseBareNumber(value)
  try {
    const duration = parseDuration(value)
    if (duration > 0) return duration
  } catch {
    // Reported below.
  }
  throw new InvalidArgumentError('expected a duration such as 500ms, 30s, 10m or 1h.')
}

/**
 * A duration flag's value needs its unit: a bare number was milliseconds, so `--ban-for 10` banned for 10 ms where
 * 10 s or 10 min was meant (issue #31). Refused, with the unit to write. (In a config file, a JSON number is still
 * milliseconds, as its schema has always said: `"banFor": 600000`.)
 */
export function refuseBareNumber(value: string): void {
  const number = value.trim()
  if (/^\d+(?:\.\d+)?$/.test(number)) {
    throw new InvalidArgumentError(`a duration needs a unit: ${number}ms, ${number}s or ${number}m (500ms, 30s, 10m, 1h).`)
  }
}

/** `--pact-consumer`, `--pact-provider`: a party name a broker can show and a file name can hold (no `/`, no `..`). */
export function partyName(role: 'consumer' | 'provider') {
  return (value: string): string => {
    try {
      return checkPartyName(value, role)
    } catch (error) {
      throw new InvalidArgumentError(`--pact-${(error as Error).message}.`)
    }
  }
}
