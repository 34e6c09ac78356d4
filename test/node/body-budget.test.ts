import { afterEach, describe, expect, it, vi } from 'vitest'
import { BodyBudget, type BodyReader, reserveShare, smallBodyBytes } from '../../src/node/body-budget.ts'

// The cross-connection body budget on its own (the server's tests cover it over real sockets, `npm run soak` under
// hostile clients): what is taken and given back, who waits and in which order, the share kept for small bodies, and
// the sweep that ends stalled bodies.

const mib = 1024 * 1024

/** Tracks a body on `budget` and records how it is ended. */
function track(budget: BodyBudget): BodyReader & { failures: unknown[]; request: object } {
  const failures: unknown[] = []
  const request = {}
  return Object.assign(
    budget.track(request, (error) => void failures.push(error)),
    { failures, request },
  )
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the body budget', () => {
  it('takes bytes while they are free and gives them back, with no promise on that path', () => {
    const budget = new BodyBudget(1000)
    expect(budget.take(400)).toBe(400)
    expect(budget.take(500)).toBe(500)
    expect(budget.available).toBe(100)
    expect(budget.take(200)).toBe(-1)
    budget.giveBack(400)
    expect(budget.available).toBe(500)
  })

  it('grants waiting reservations in arrival order as bytes come back, and a cancelled one never', async () => {
    const budget = new BodyBudget(1000)
    const taken = budget.take(1000)
    const first = budget.reserve(300)
    const cancelled = budget.reserve(300)
    const third = budget.reserve(300)
    const granted: string[] = []
    void first.granted.then(() => granted.push('first'))
    void cancelled.granted.then(() => granted.push('cancelled'))
    void third.granted.then(() => granted.push('third'))
    cancelled.cancel()
    budget.giveBack(taken)
    await Promise.resolve()
    expect(granted).toEqual(['first', 'third'])
    expect(budget.available).toBe(400)
  })

  it('keeps a share for small bodies: a large body waits at the reserve, a small one still gets in', () => {
    const total = 8 * mib
    const budget = new BodyBudget(total)
    const reserve = Math.floor(total * reserveShare)
    const large = smallBodyBytes + 1
    // Large bodies take what they may: everything but the reserve.
    expect(budget.take(total - reserve, large)).toBe(total - reserve)
    expect(budget.take(1, large)).toBe(-1)
    expect(budget.take(1000, 1000)).toBe(1000)
    expect(budget.available).toBe(reserve - 1000)
  })

  it('does not let a small body jump small ones already waiting', () => {
    const budget = new BodyBudget(1000)
    const taken = budget.take(1000)
    const waiting = budget.reserve(10)
    budget.giveBack(taken)
    // Granted at once on give-back: the bytes are free again, and a new small body may take them.
    expect(budget.take(10)).toBe(10)
    waiting.cancel()
  })

  it('ends every body being read on failReads, and forgets one untracked', () => {
    const budget = new BodyBudget(1000)
    const [a, b] = [track(budget), track(budget)]
    budget.untrack(b.request)
    budget.failReads('draining')
    expect(a.failures).toEqual(['draining'])
    expect(b.failures).toEqual([])
    expect(budget.failRead(b.request, 'x')).toBe(false)
  })

  it('ends a body that heard no byte for idleTimeoutMs with a 408, and not one that keeps hearing', () => {
    vi.useFakeTimers()
    const budget = new BodyBudget(1000, 400)
    const [stalled, talking] = [track(budget), track(budget)]
    for (let tick = 0; tick < 3; tick++) {
      vi.advanceTimersByTime(100)
      budget.heard(talking)
    }
    expect(stalled.failures).toEqual([])
    // The fourth tick of silence (one each quarter of idleTimeoutMs).
    vi.advanceTimersByTime(100)
    expect(stalled.failures).toHaveLength(1)
    expect(stalled.failures[0]).toMatchObject({ status: 408 })
    expect(talking.failures).toEqual([])
  })

  it('does not end a body that waits for the budget: that is not the client stalling', () => {
    vi.useFakeTimers()
    const budget = new BodyBudget(1000, 400)
    const waiting = track(budget)
    waiting.waiting = 1
    vi.advanceTimersByTime(1000)
    expect(waiting.failures).toEqual([])
  })
})
