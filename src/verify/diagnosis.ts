import { standardPlans, type Plan } from '../core/access/plans.ts'
import type { Exchange } from './exchange.ts'

/**
 * One cause behind a run's failures, read off the first answers that show it: a target that cannot be reached, a
 * base URL that does not lead to the API, a key the target refuses, a key of another plan than `--plan`. Named once,
 * first, rather than as a cascade of failed checks: the checks it keeps from running are reported as not run.
 */
export interface VerifyCause {
  readonly kind: CauseKind
  /** One line: what the target answered and what to change. */
  readonly message: string
}

export type CauseKind = 'unreachable' | 'wrong-base-url' | 'key-refused' | 'plan-mismatch'

/** How each cause starts its line in the pretty report (its first line). */
const causeLabels: Readonly<Record<CauseKind, string>> = {
  unreachable: 'UNREACHABLE',
  'wrong-base-url': 'WRONG BASE URL',
  'key-refused': 'KEY REFUSED',
  'plan-mismatch': 'WRONG PLAN',
}

/** A cause's line as the reports show it: `KEY REFUSED: …`. */
export function causeLine(cause: VerifyCause): string {
  return `${causeLabels[cause.kind]}: ${cause.message}`
}

/** Does the run go on after this cause? A plan mismatch only keeps the `--limits` checks from running. */
export function stopsTheRun(cause: VerifyCause): boolean {
  return cause.kind !== 'plan-mismatch'
}

/**
 * The cause an answer shows, if any. `planSeen` is true once a keyed answer has shown its limit: the plan is
 * judged on the first one only.
 */
export function findCause(exchange: Exchange, run: { readonly baseUrl: string; readonly plan: Plan; readonly planSeen: boolean }) {
  const { method, url, auth } = exchange.request
  const path = new URL(url).pathname
  const base = run.baseUrl.replace(/\/+$/, '')
  // The list route is GET {base_url}/pets: a 404 there, with a key or without, is a base URL the API is not under.
  if (method === 'GET' && exchange.status === 404 && path === `${new URL(base).pathname.replace(/\/+$/, '')}/pets`) {
    const hint = /\/v1$/.test(base)
      ? "its paths are not under this base URL: give the one the API's paths are under (the spec's ends with /v1)"
      : `the spec's base URL ends with the version segment: try ${base}/v1`
    return { kind: 'wrong-base-url', message: `GET ${url} answered ${summary(exchange)}; ${hint}` } satisfies VerifyCause
  }
  if (auth === 'key' && exchange.status === 401) {
    const message = `${method} ${url} with the key given answered ${summary(exchange)}; the target does not accept that key (check --key or PETSTORE_SIM_VERIFY_KEY, and that it is a key of this target)`
    return { kind: 'key-refused', message } satisfies VerifyCause
  }
  const limit = exchange.headers['x-ratelimit-limit']?.trim()
  if (run.planSeen || auth !== 'key' || exchange.status !== 200 || limit === undefined || !/^\d{1,15}$/.test(limit)) return undefined
  const hint = planHint(Number(limit), run.plan)
  if (hint === undefined) return undefined
  return {
    kind: 'plan-mismatch',
    message: `the target sends X-RateLimit-Limit ${limit} for the key, not the ${run.plan.name} plan's ${run.plan.perMinute}/min or ${run.plan.perDay}/day (--plan ${run.plan.name}); ${hint}`,
  } satisfies VerifyCause
}

/**
 * Undefined when `limit` is the plan's per-minute or per-day limit; else what to do: the plan whose limit it is, for
 * the usual cause (a key of that plan checked with the default `--plan`).
 */
export function planHint(limit: number, plan: Plan): string | undefined {
  if (limit === plan.perMinute || limit === plan.perDay) return undefined
  const other = Object.values(standardPlans).find((known) => known.perMinute === limit || known.perDay === limit)
  return other === undefined ? 'set --plan' : `set --plan: ${limit} is the ${other.name} plan's, --plan ${other.name}`
}

/** `404 route_not_found "No route GET /pets: the API is under /v1"`: the status and the Error body, on one line, cut. */
function summary(exchange: Exchange): string {
  const body = exchange.json as { code?: unknown; message?: unknown } | undefined
  const code = typeof body?.code === 'string' ? ` ${oneLine(body.code, 40)}` : ''
  const message = typeof body?.message === 'string' ? ` "${oneLine(body.message, 160)}"` : ''
  return `${exchange.status}${code}${message}`
}

function oneLine(text: string, most: number): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > most ? `${line.slice(0, most - 1)}…` : line
}

/** What a probe's send throws once a cause has stopped the run: the checks left are not run, with the cause. */
export class StoppedByCause extends Error {}
