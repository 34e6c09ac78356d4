import type { ApiKey } from '../access/api-keys.ts'
import { fingerprint } from '../access/fingerprint.ts'
import type { CompiledRoute, RouteTable } from '../operations/route-table.ts'
import { describeIssues, english } from '../model/schemas.ts'
import { transportFaults, type TransportFault } from '../http/fault-kinds.ts'
import type { FaultRuleInput } from './fault-rule-input.ts'
import { faultRuleSchema } from './fault-rule-schema.ts'

export type { FaultRuleInput }

/** What a fault can do to the connection instead of (or to) an answer: derived from the table in `fault-kinds.ts`. */
export { transportFaults, type TransportFault }

/** Statuses outside the contract that a fault may answer (with the Error body and `Petstore-Sim-Fault`). */
export const faultOnlyStatuses = [500, 502, 503, 504] as const

/**
 * Rules in force at once. Every API request tries the rules in order, so the
 * cap bounds what a request can cost (issue #20: 170,034 rules were accepted);
 * a test needs a handful, a thorough one a few dozen.
 */
export const maxFaultRules = 1_000

/** Rules in one `addAll` (one `POST /__sim/faults`): a request is checked whole before anything changes. */
export const maxFaultRulesPerAdd = 100

/** A rule or an array refused for the caps ({@link maxFaultRules}, {@link maxFaultRulesPerAdd}), not for what it says. */
export class FaultRuleLimitError extends RangeError {
  override readonly name = 'FaultRuleLimitError'
}

/** How long a `hang` lasts by default before the connection is dropped: long enough for any client timeout under test. */
export const defaultHangMs = 30_000

/** A rule in force, as listed: with its id, the key as a fingerprint, and what is left of `times`. */
export interface FaultRule {
  readonly id: string
  readonly operation?: string | undefined
  readonly method?: string | undefined
  readonly path?: string | undefined
  /** The key's fingerprint: rules never show a key. */
  readonly key?: string | undefined
  readonly status?: number | undefined
  readonly fault?: TransportFault | undefined
  readonly delay?: number | { readonly min: number; readonly max: number } | undefined
  /** How many more times it fires; absent for a rule without `times`. */
  readonly remaining?: number | undefined
  readonly probability?: number | undefined
  readonly hangMs?: number | undefined
}

/** What the pipeline does for a request a rule fired on. */
export interface FiredFault {
  readonly ruleId: string
  readonly status: number | undefined
  readonly fault: TransportFault | undefined
  readonly delayMs: number
  readonly hangMs: number
  /**
   * For a rule with `times`, its place among the rules when it fired: a shared store that finds the rule spent across
   * the fleet goes on from there (`fire`'s `from`), as the rules would once it was spent here.
   */
  readonly at: number | undefined
}

/**
 * The fault rules of one simulator, changeable while it runs.
 *
 * @example
 * const id = simulator.faults.add({ operation: 'listPets', status: 503, times: 2 })
 * simulator.faults.remove(id)
 */
export interface FaultRules {
  /** Adds a rule (validated; `RangeError` naming what is wrong) and returns its id. */
  add(rule: FaultRuleInput): string
  /**
   * Adds up to {@link maxFaultRulesPerAdd} rules, all or nothing: every one is
   * checked before any is added (`RangeError` naming the first wrong one, by
   * its index), then they change the rules once. Returns their ids, in order.
   */
  addAll(rules: readonly FaultRuleInput[]): string[]
  remove(id: string): boolean
  list(): FaultRule[]
  clear(): void
  /** The number the next rule's id gets (`f<n>`). */
  readonly nextId: number
  /**
   * @internal
   * Replaces the rules with these, as listed earlier (a restored snapshot),
   * ids and what is left of `times` included; the next id is `nextId`. All
   * or nothing: a `RangeError` naming the first bad rule changes nothing.
   */
  load(rules: readonly FaultRule[], nextId: number): void
  /** @internal Whether any rule is in force: the pipeline skips the step when none is. */
  readonly active: boolean
  /**
   * @internal The rule that fires for a request, if any, trying the rules from the `from`-th on (default: all); draws
   * from the generator and counts `times` down.
   */
  fire(route: CompiledRoute | undefined, method: string, path: string, key: ApiKey | undefined, from?: number): FiredFault | undefined
  /** @internal Drops a rule with `times` that a shared store found spent across the fleet, as if spent here. */
  spend(id: string): void
}

interface StoredRule extends FaultRule {
  remaining?: number | undefined
  /** The routes it can match, found when it was added. */
  readonly routes: ReadonlySet<CompiledRoute>
  /** A concrete path it is limited to (`/pets/5`), when its path was not a template. */
  readonly concretePath: string | undefined
}

/**
 * @param table the API's routes, to check rules against and match them.
 * @param random the simulator's seeded generator: probabilities and delay ranges repeat for a seed.
 * @param basePath the API's prefix, for concrete paths.
 * @param onChange called after the rules change: one added, removed, cleared, or counted down by `times`.
 */
export function createFaultRules(table: RouteTable, random: () => number, basePath: string, onChange: () => void = () => {}): FaultRules {
  let rules: StoredRule[] = []
  let nextId = 1

  /** A rule checked and compiled, not yet added. */
  function compile(input: FaultRuleInput): Omit<StoredRule, 'id'> {
    const parsed = faultRuleSchema().safeParse(input, english)
    // The rule's own checks (a status, a fault or a delay…) concern no one field: no "body:" label for them.
    if (!parsed.success) throw new RangeError(`Invalid fault rule: ${describeIssues(parsed.error).replace(/^body: /, '')}`)
    const rule = parsed.data
    const method = rule.method?.toUpperCase()
    if (rule.operation !== undefined && !table.routes.some((route) => route.operation === rule.operation)) {
      throw new RangeError(
        `Invalid fault rule: no operation ${rule.operation} (use one of ${table.routes.map((route) => route.operation).join(', ')})`,
      )
    }
    let concretePath: string | undefined
    const routes = table.routes.filter((route) => {
      if (rule.operation !== undefined && route.operation !== rule.operation) return false
      if (method !== undefined && route.method !== method && !(method === 'HEAD' && route.method === 'GET')) return false
      if (rule.path === undefined || withoutTrailingSlash(rule.path) === route.definition.path) return true
      const match = table.match(route.method, rule.path)
      if (match.kind === 'operation' && match.route === route) {
        concretePath = withoutTrailingSlash(`${basePath}${rule.path}`)
        return true
      }
      return false
    })
    if (routes.length === 0) throw new RangeError('Invalid fault rule: it matches no operation of the API')
    if (rule.status !== undefined && !(faultOnlyStatuses as readonly number[]).includes(rule.status)) {
      const undocumented = routes.filter((route) => !route.definition.statuses.includes(rule.status!))
      if (undocumented.length > 0) {
        throw new RangeError(
          `Invalid fault rule: ${undocumented.map((route) => route.operation).join(', ')} never answers ${rule.status}; use one of its documented statuses (${undocumented[0]!.definition.statuses.join(', ')}) or ${faultOnlyStatuses.join(', ')}`,
        )
      }
    }
    return {
      operation: rule.operation,
      method,
      path: rule.path,
      key: rule.key === undefined ? undefined : rule.key.startsWith('key#') ? rule.key : fingerprint(rule.key),
      status: rule.status,
      fault: rule.fault,
      delay: rule.delay,
      remaining: rule.times,
      probability: rule.probability,
      hangMs: rule.hangMs,
      routes: new Set(routes),
      concretePath,
    }
  }

  function checkRoom(count: number): void {
    if (rules.length + count <= maxFaultRules) return
    throw new FaultRuleLimitError(
      count === 1
        ? `Invalid fault rule: at most ${maxFaultRules} rules are in force at once`
        : `Invalid fault rules: at most ${maxFaultRules} rules are in force at once (${rules.length} now, ${count} more sent)`,
    )
  }

  function add(input: FaultRuleInput): string {
    return addAll([input], false)[0]!
  }

  function addAll(inputs: readonly FaultRuleInput[], numbered = true): string[] {
    if (inputs.length > maxFaultRulesPerAdd) {
      throw new FaultRuleLimitError(`Invalid fault rules: at most ${maxFaultRulesPerAdd} rules at a time (got ${inputs.length})`)
    }
    checkRoom(inputs.length)
    // Checked whole first: a refused array leaves nothing to take back (taking 28,339 rules back one by one was quadratic).
    const compiled = inputs.map((input, index) => {
      try {
        return compile(input)
      } catch (error) {
        if (!numbered || !(error instanceof RangeError)) throw error
        throw new RangeError(`Rule #${index}: ${error.message}`)
      }
    })
    if (compiled.length === 0) return []
    const ids = compiled.map((rule) => {
      const id = `f${nextId++}`
      rules.push({ id, ...rule })
      return id
    })
    onChange()
    return ids
  }

  return {
    add,
    addAll: (inputs) => addAll(inputs),
    remove(id) {
      const before = rules.length
      rules = rules.filter((rule) => rule.id !== id)
      if (rules.length === before) return false
      onChange()
      return true
    },
    list: () =>
      rules.map(
        ({ routes: _routes, concretePath: _path, ...rule }) =>
          Object.fromEntries(Object.entries(rule).filter(([, value]) => value !== undefined)) as unknown as FaultRule,
      ),
    clear() {
      const had = rules.length > 0
      rules = []
      nextId = 1
      if (had) onChange()
    },
    get active() {
      return rules.length > 0
    },
    get nextId() {
      return nextId
    },
    load(listed, next) {
      const ids = new Set<string>()
      const loaded = listed.map((rule, index) => {
        const { id, remaining, ...input } = rule
        if (!/^f\d+$/.test(id) || ids.has(id))
          throw new RangeError(`Fault rule #${index}: the id ${JSON.stringify(id)} is not f<n> or is repeated`)
        ids.add(id)
        try {
          return { id, ...compile({ ...input, times: remaining }) }
        } catch (error) {
          throw new RangeError(`Fault rule #${index} (${id}): ${(error as Error).message}`)
        }
      })
      if (!(Number.isSafeInteger(next) && loaded.every((rule) => Number(rule.id.slice(1)) < next))) {
        throw new RangeError(`The next fault rule id (${next}) must be a whole number above every rule's`)
      }
      rules = loaded
      nextId = next
      onChange()
    },
    spend(id) {
      const before = rules.length
      rules = rules.filter((rule) => rule.id !== id)
      if (rules.length !== before) onChange()
    },
    fire(route, method, path, key, from = 0) {
      if (route === undefined) return undefined
      for (let index = from; index < rules.length; index++) {
        const rule = rules[index]!
        if (!rule.routes.has(route)) continue
        // A HEAD is its GET, as the route table answers it.
        if (rule.method !== undefined && rule.method !== method && !(rule.method === 'GET' && method === 'HEAD')) continue
        if (rule.concretePath !== undefined && rule.concretePath !== withoutTrailingSlash(path)) continue
        if (rule.key !== undefined && rule.key !== key?.fingerprint) continue
        // A rule that does not fire this time lets the next rule try: each draws once per request it sees.
        if (rule.probability !== undefined && random() >= rule.probability) continue
        const counted = rule.remaining !== undefined
        if (rule.remaining !== undefined) {
          if (--rule.remaining <= 0) rules = rules.filter((other) => other !== rule)
          // What is left of `times` is part of the rules as listed.
          onChange()
        }
        const delayMs =
          rule.delay === undefined
            ? 0
            : typeof rule.delay === 'number'
              ? rule.delay
              : rule.delay.min + Math.floor(random() * (rule.delay.max - rule.delay.min + 1))
        const { id: ruleId, status, fault } = rule
        return { ruleId, status, fault, delayMs, hangMs: rule.hangMs ?? defaultHangMs, at: counted ? index : undefined }
      }
      return undefined
    },
  }
}

/** One trailing slash is the same path, as the route table reads it (`/pets/` is `/pets`). */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}
