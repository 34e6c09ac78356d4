import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'

// Issue #22, items 2 and 3 (the app and core side): defects a hostile review found, each answered as a user sees it.
// This file: the store: pets created in-process, a reset with requests under way, the store bound (test/hostile-review.test.ts, split by area).

const loopback = { clientAddress: '127.0.0.1' }
const pro = { Authorization: 'Bearer demo-pro-key' }

describe('simulator.store.create', () => {
  it('checks a pet before storing it: a TypeError naming the field, the store unchanged', async () => {
    const app = createApp({ pets: 3 })
    const { store } = app.simulator
    const bad: unknown[] = [
      { name: 'Lost', categoryId: 1, status: 'lost' },
      { name: 42, categoryId: 1 },
      { name: 'Nan', categoryId: Number.NaN },
      { name: '', categoryId: 1 },
      null,
    ]
    for (const pet of bad) {
      expect(() => store.create(pet as never)).toThrow(TypeError)
    }
    expect(() => store.create({ name: 'Lost', categoryId: 1, status: 'lost' as never })).toThrow(/status/)
    expect(() => store.create({ name: 42 as never, categoryId: 1 })).toThrow(/name/)
    expect(store.size).toBe(3)
    const listed = await app.fetch(new Request('http://localhost/v1/pets?limit=100', { headers: pro }), loopback)
    expect((await listed.json()).map((pet: { id: number }) => pet.id)).toEqual([1, 2, 3])
    expect(store.create({ name: 'Rex', categoryId: 2 })).toEqual({ id: 4, name: 'Rex', categoryId: 2, status: 'available' })
  })
})

describe('a reset with requests under way', () => {
  const created = (app: ReturnType<typeof createApp>, body: BodyInit) =>
    app.fetch(
      new Request('http://localhost/v1/pets', {
        method: 'POST',
        headers: { ...pro, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit),
      loopback,
    )

  it('journals and counts none of the requests that began before it', async () => {
    const app = createApp({ pets: 5, latency: 500 })
    const answers = Array.from({ length: 50 }, (_, index) => created(app, JSON.stringify({ name: `Early ${index}`, categoryId: 1 })))
    // Reset once every pet is stored and its answer waits out the latency (bounded: 2 s at most).
    for (let waited = 0; app.simulator.store.size < 55 && waited < 2000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5))
    expect(app.simulator.journal.entries()).toEqual([])
    app.simulator.reset()
    const responses = await Promise.all(answers)
    // Answered (the pets were created before the reset, which removed them), but not journaled after it.
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(201))
    expect(app.simulator.journal.entries()).toEqual([])
    expect(app.simulator.state().keys.find((key) => key.plan === 'pro')?.minute).toMatchObject({ used: 0 })
    expect(app.simulator.store.size).toBe(5)
    // The state after the reset is its own: the next pet gets the first id again, and is journaled.
    const next = await created(app, JSON.stringify({ name: 'After', categoryId: 1 }))
    expect(await next.json()).toMatchObject({ id: 6, name: 'After' })
    expect(app.simulator.journal.entries()).toHaveLength(1)
  })

  it('stores nothing from a createPet whose body arrives after it: 503 simulator_reset', async () => {
    const app = createApp({ pets: 5 })
    let send!: ReadableStreamDefaultController<Uint8Array>
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = controller
      },
    })
    const answer = created(app, body)
    await new Promise((resolve) => setTimeout(resolve, 5))
    app.simulator.reset()
    send.enqueue(new TextEncoder().encode(JSON.stringify({ name: 'Late', categoryId: 1 })))
    send.close()
    const response = await answer
    expect(response.status).toBe(503)
    expect(await response.json()).toMatchObject({ code: 'simulator_reset', status: 503 })
    expect(app.simulator.store.size).toBe(5)
    expect(app.simulator.journal.entries()).toEqual([])
  })
})

describe('the store bound (maxPets)', () => {
  it('answers createPet past it with 507 store_full, storing nothing, until a reset', async () => {
    const app = createApp({ pets: 3, maxPets: 2 })
    const create = (headers: Record<string, string> = {}) =>
      app.fetch(
        new Request('http://localhost/v1/pets', {
          method: 'POST',
          headers: { ...pro, 'content-type': 'application/json', ...headers },
          body: '{"name":"Rex","categoryId":1}',
        }),
        loopback,
      )
    expect((await create()).status).toBe(201)
    expect((await create()).status).toBe(201)
    const full = await create()
    expect(full.status).toBe(507)
    expect(full.headers.get('x-ratelimit-remaining')).not.toBeNull()
    expect(await full.json()).toMatchObject({ code: 'store_full', status: 507 })
    expect(app.simulator.store.size).toBe(5)
    expect(() => app.simulator.store.create({ name: 'Direct', categoryId: 1 })).toThrow(RangeError)
    const forced = await create({ prefer: 'code=507' })
    expect(forced.status).toBe(507)
    app.simulator.reset()
    expect((await create()).status).toBe(201)
    expect(() => createApp({ maxPets: -1 })).toThrow(/maxPets/)
  })
})
