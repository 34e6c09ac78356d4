import { defaults } from '../defaults.ts'
import { ApiError } from '../http/api-error.ts'
import { systemClock, type Clock } from '../time/clock.ts'

/**
 * What a sandbox's name may be: lower-case ASCII letters, digits and `-`, starting with a letter or digit, 1 to 63
 * characters (a DNS label). Checked on the name as sent, before any decoding: `%2F`, `..`, upper case and every
 * non-ASCII look-alike fail it, so a name is always one plain path segment and one file-safe word.
 */
export const sandboxNamePattern = /^[a-z0-9][a-z0-9-]{0,62}$/

/** The rule a refused name is told, in words. */
export const sandboxNameRule = `a sandbox name is 1 to 63 lower-case ASCII letters, digits and '-', starting with a letter or digit (${String(sandboxNamePattern)})`

/** The name checked against {@link sandboxNamePattern}: itself, or a 400 `sandbox_name_invalid` saying what a name may be. */
export function checkSandboxName(name: string): string {
  if (sandboxNamePattern.test(name)) return name
  throw invalidSandboxName(name)
}

/** The 400 `sandbox_name_invalid` for a name that is not one: what a name may be, and that nothing was made. */
export function invalidSandboxName(name: string): ApiError {
  const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name)
  return new ApiError('sandbox_name_invalid', `${shown} is not a sandbox name: ${sandboxNameRule}; nothing was created`)
}

export interface SandboxLimits {
  /** The most sandboxes held at once; 0 turns them off. Default {@link defaults.maxSandboxes}. */
  readonly max?: number | undefined
  /** How long a sandbox no request reaches is kept, in ms. Default {@link defaults.sandboxIdleMs}. */
  readonly idleMs?: number | undefined
}

/** One sandbox as listed: its world and when it was made and last used (ms on the registry's clock). */
export interface SandboxEntry<World> {
  readonly name: string
  readonly world: World
  readonly createdAt: number
  readonly lastUsedAt: number
  readonly expiresAt: number
}

/**
 * The sandboxes of one simulator: each a world of its own (in this code base a `SimulatorCore` and the app over it),
 * made from the same options on first use, by name. The registry knows nothing of what a world holds: it is the one
 * place that says which worlds exist, so a store that keeps each world's state elsewhere (issue 40) swaps the
 * `create` it is given, not this design. Time comes from the clock given (the process's, not a sandbox's own
 * virtual clock, which its users move).
 */
export interface SandboxRegistry<World> {
  readonly max: number
  readonly idleMs: number
  /** The sandbox of this name, made now if there is none (or its last one expired); throws for a bad name or past the cap. */
  world(name: string): World
  /** Makes the sandbox if there is none; `created` says whether it did. Throws as {@link world} does. */
  create(name: string): { readonly world: World; readonly created: boolean }
  /** The sandbox of this name if it exists and has not expired, without making it or counting a use. */
  find(name: string): World | undefined
  /** Forgets the sandbox; whether there was one. */
  delete(name: string): boolean
  /** The sandboxes held, oldest first (the expired ones forgotten first). */
  list(): SandboxEntry<World>[]
}

/** One sandbox of a fleet on a shared store (`--store`), as the store knows it; times in ms, the store's clock. */
export interface SharedSandboxEntry {
  readonly name: string
  readonly pets: number
  readonly requests: number
  readonly scenario: string
  readonly createdAt: number
  readonly lastUsedAt: number
}

/**
 * The sandboxes of a fleet on a shared store: listed, made and deleted in the store, so that every instance
 * lists, caps and expires the same ones, whichever instances hold a copy of them.
 */
export interface SharedSandboxes {
  /** The fleet's sandboxes (or the one named), the expired ones forgotten first. */
  list(name?: string): Promise<SharedSandboxEntry[]>
  /** Enters in the fleet a sandbox this instance holds: seeded in the store if new, against the fleet's cap. Whether it was new. */
  enter(name: string): Promise<boolean>
  /** Deletes the sandbox for the fleet; whether the fleet had it. */
  delete(name: string): Promise<boolean>
}

interface Held<World> {
  readonly world: World
  readonly createdAt: number
  lastUsedAt: number
}

export function createSandboxRegistry<World>(options: {
  readonly create: (name: string) => World
  /** Called with each world forgotten (deleted, expired, replaced), to end what it holds open (event streams). */
  readonly dispose?: ((world: World) => void) | undefined
  readonly clock?: Clock | undefined
  readonly limits?: SandboxLimits | undefined
  /**
   * At the cap: `refuse` the new one (503 `too_many_sandboxes`), or `forget-least-recent`, for worlds that are copies
   * of a shared store's (the fleet's cap is the store's; a copy forgotten is made again from the store).
   */
  readonly whenFull?: 'refuse' | 'forget-least-recent' | undefined
}): SandboxRegistry<World> {
  const clock = options.clock ?? systemClock
  const max = options.limits?.max ?? defaults.maxSandboxes
  const idleMs = options.limits?.idleMs ?? defaults.sandboxIdleMs
  if (!(Number.isSafeInteger(max) && max >= 0)) throw new RangeError(`The sandbox cap must be a whole number of 0 or more (got ${max})`)
  if (!(Number.isSafeInteger(idleMs) && idleMs > 0))
    throw new RangeError(`The sandbox idle expiry must be a whole number of ms over 0 (got ${idleMs})`)
  // Insertion order is creation order: the first expired entries are at the front.
  const held = new Map<string, Held<World>>()

  const expired = (entry: Held<World>, now: number) => now - entry.lastUsedAt >= idleMs
  function forget(name: string, entry: Held<World>): void {
    held.delete(name)
    options.dispose?.(entry.world)
  }
  /** Forgets every expired sandbox: on creation and listing only, so a request to a live sandbox costs one lookup. */
  function sweep(now: number): void {
    for (const [name, entry] of held) if (expired(entry, now)) forget(name, entry)
  }

  function obtain(name: string): { world: World; created: boolean } {
    const now = clock.now()
    const entry = held.get(name)
    if (entry !== undefined && !expired(entry, now)) {
      entry.lastUsedAt = now
      return { world: entry.world, created: false }
    }
    checkSandboxName(name)
    sweep(now)
    if (max === 0) throw new ApiError('route_not_found', 'Sandboxes are off on this simulator (its sandbox cap is 0)')
    if (held.size >= max && options.whenFull === 'forget-least-recent') {
      const [oldest] = [...held].sort(([, a], [, b]) => a.lastUsedAt - b.lastUsedAt)
      if (oldest !== undefined) forget(...oldest)
    }
    if (held.size >= max) {
      let soonest = Number.POSITIVE_INFINITY
      for (const other of held.values()) soonest = Math.min(soonest, other.lastUsedAt + idleMs)
      const seconds = Math.max(1, Math.ceil((soonest - now) / 1000))
      throw new ApiError(
        'too_many_sandboxes',
        `The simulator holds ${held.size} sandboxes, its cap (--max-sandboxes ${max}): delete one (DELETE /__sim/sandboxes/<name>), or wait ${seconds} s for the least recently used to expire`,
        { 'Retry-After': String(seconds) },
      )
    }
    const world = options.create(name)
    held.set(name, { world, createdAt: now, lastUsedAt: now })
    return { world, created: true }
  }

  return {
    max,
    idleMs,
    world: (name) => obtain(name).world,
    create: obtain,
    find(name) {
      const entry = held.get(name)
      return entry === undefined || expired(entry, clock.now()) ? undefined : entry.world
    },
    delete(name) {
      const entry = held.get(name)
      if (entry === undefined) return false
      forget(name, entry)
      return !expired(entry, clock.now())
    },
    list() {
      sweep(clock.now())
      return [...held].map(([name, { world, createdAt, lastUsedAt }]) => ({
        name,
        world,
        createdAt,
        lastUsedAt,
        expiresAt: lastUsedAt + idleMs,
      }))
    },
  }
}
