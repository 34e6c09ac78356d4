import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/core/http/api-error.ts'
import { checkSandboxName, createSandboxRegistry } from '../../../src/core/simulator/sandbox-registry.ts'
import { createManualClock } from '../../../src/core/time/clock.ts'

function registry(limits: { max?: number; idleMs?: number } = {}, whenFull?: 'refuse' | 'forget-least-recent') {
  const clock = createManualClock('2030-01-01T00:00:00Z')
  const made: string[] = []
  const disposed: string[] = []
  const sandboxes = createSandboxRegistry({
    create: (name) => {
      made.push(name)
      return { name, serial: made.length }
    },
    dispose: (world) => disposed.push(world.name),
    clock,
    limits,
    whenFull,
  })
  return { clock, made, disposed, sandboxes }
}

const thrown = (run: () => unknown): ApiError => {
  try {
    run()
  } catch (error) {
    return error as ApiError
  }
  throw new Error('it did not throw')
}

describe('the sandbox registry', () => {
  it('makes a world on first use and gives the same one after', () => {
    const { sandboxes, made } = registry()
    const first = sandboxes.world('a')
    expect(sandboxes.world('a')).toBe(first)
    expect(sandboxes.create('a')).toEqual({ world: first, created: false })
    expect(sandboxes.create('b').created).toBe(true)
    expect(made).toEqual(['a', 'b'])
  })

  it('finds without making or counting a use', () => {
    const { sandboxes, clock, made } = registry({ idleMs: 1000 })
    expect(sandboxes.find('a')).toBeUndefined()
    expect(made).toEqual([])
    sandboxes.world('a')
    clock.advance(600)
    expect(sandboxes.find('a')).toBeDefined()
    clock.advance(400)
    expect(sandboxes.find('a')).toBeUndefined()
  })

  it('keeps a sandbox in use, and forgets one idle for idleMs, making it fresh on its next use', () => {
    const { sandboxes, clock, disposed } = registry({ idleMs: 1000 })
    const first = sandboxes.world('a')
    clock.advance(999)
    expect(sandboxes.world('a')).toBe(first)
    clock.advance(999)
    expect(sandboxes.world('a')).toBe(first)
    clock.advance(1000)
    const fresh = sandboxes.world('a')
    expect(fresh).not.toBe(first)
    expect(disposed).toEqual(['a'])
    expect(sandboxes.list().map((entry) => [entry.name, entry.expiresAt - entry.lastUsedAt])).toEqual([['a', 1000]])
  })

  it('refuses one past the cap with 503 too_many_sandboxes naming it and when a slot frees; an expired one frees it', () => {
    const { sandboxes, clock, made } = registry({ max: 2, idleMs: 60_000 })
    sandboxes.world('a')
    clock.advance(20_000)
    sandboxes.world('b')
    const error = thrown(() => sandboxes.world('c'))
    expect(error).toBeInstanceOf(ApiError)
    expect(error.toBody()).toMatchObject({ code: 'too_many_sandboxes', status: 503 })
    expect(error.message).toContain('--max-sandboxes 2')
    expect(error.headers['Retry-After']).toBe('40')
    expect(made).toEqual(['a', 'b'])
    clock.advance(40_000)
    sandboxes.world('c')
    expect(sandboxes.list().map((entry) => entry.name)).toEqual(['b', 'c'])
  })

  it('deletes one: gone from the list, made fresh on its next use; deleting none says so', () => {
    const { sandboxes, disposed } = registry()
    const first = sandboxes.world('a')
    expect(sandboxes.delete('a')).toBe(true)
    expect(sandboxes.delete('a')).toBe(false)
    expect(disposed).toEqual(['a'])
    expect(sandboxes.list()).toEqual([])
    expect(sandboxes.world('a')).not.toBe(first)
  })

  it('is off with a cap of 0', () => {
    const { sandboxes } = registry({ max: 0 })
    expect(thrown(() => sandboxes.world('a')).code).toBe('route_not_found')
  })

  it.each(['', 'A', 'a_b', 'a.b', '..', '-a', 'a/b', 'a%2Fb', '\u0430', 'ａ', 'a'.repeat(64), ' a'])(
    'refuses the name %j with sandbox_name_invalid saying what a name may be, making nothing',
    (name) => {
      const { sandboxes, made } = registry()
      const error = thrown(() => sandboxes.world(name))
      expect(error.code).toBe('sandbox_name_invalid')
      expect(error.message).toContain("1 to 63 lower-case ASCII letters, digits and '-'")
      expect(made).toEqual([])
    },
  )

  it.each(['a', '0', 'team-a', 'a'.repeat(63), 'job-4711'])('accepts the name %j', (name) => {
    expect(checkSandboxName(name)).toBe(name)
  })

  it('refuses limits that are not whole numbers', () => {
    expect(() => registry({ max: -1 })).toThrow(RangeError)
    expect(() => registry({ idleMs: 0 })).toThrow(RangeError)
    expect(() => registry({ max: 1.5 })).toThrow(RangeError)
  })

  it('forgets the least recently used copy at the cap when its worlds are copies of a shared store', () => {
    const { sandboxes, clock, disposed } = registry({ max: 2 }, 'forget-least-recent')
    sandboxes.world('a')
    clock.advance(1000)
    sandboxes.world('b')
    clock.advance(1000)
    sandboxes.world('a')
    clock.advance(1000)
    expect(sandboxes.create('c').created).toBe(true)
    expect(disposed).toEqual(['b'])
    expect(sandboxes.list().map((entry) => entry.name)).toEqual(['a', 'c'])
  })
})
