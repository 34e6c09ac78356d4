import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { createEventStreams } from '../../src/app/dashboard/event-stream.ts'
import type { StreamSink } from '../../src/core/http/plain-http.ts'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'
import { createManualClock } from '../../src/core/time/clock.ts'

// Issue #22, items 2 and 3 (the app and core side): defects a hostile review found, each answered as a user sees it.
// This file: the clock: a clock option that reads a bad time, a malformed POST /__sim/clock, the clock moved back (test/hostile-review.test.ts, split by area).

const loopback = { clientAddress: '127.0.0.1' }
const pro = { Authorization: 'Bearer demo-pro-key' }

describe('a clock option that reads a bad time', () => {
  it('answers an API request with a 500 Error naming the clock, and no NaN header', async () => {
    const app = createApp({ clock: { now: () => Number.NaN } })
    const response = await app.fetch(new Request('http://localhost/v1/pets', { headers: pro }), loopback)
    expect(response.status).toBe(500)
    expect(response.headers.get('x-ratelimit-reset')).toBeNull()
    const body = await response.json()
    expect(body).toMatchObject({ code: 'invalid_clock', status: 500 })
    expect(body.message).toMatch(/clock.*NaN/)
  })

  it('refuses times outside 1970..9999 and fractions of a ms, on the control plane too', async () => {
    for (const reading of [-1, 253_402_300_800_000, 1.5, Number.POSITIVE_INFINITY]) {
      const app = createApp({ clock: { now: () => reading } })
      const response = await app.fetch(new Request('http://localhost/__sim/clock'), loopback)
      expect(response.status).toBe(500)
      expect(await response.json()).toMatchObject({ code: 'invalid_clock' })
    }
  })

  it('ends an open dashboard stream instead of throwing in its timer', async () => {
    let reading = Date.UTC(2030, 0, 1)
    const simulator = createSimulatorCore({ clock: { now: () => reading } })
    const streams = createEventStreams(simulator, { flushMs: 1 })
    const response = streams.respond()
    let ended!: () => void
    const end = new Promise<void>((resolve) => (ended = resolve))
    const written: string[] = []
    const sink: StreamSink = { write: (chunk) => written.push(chunk), hasRoom: true, end: () => ended() }
    response.stream!.open(sink)
    reading = Number.NaN
    simulator.faults.add({ status: 503 })
    await Promise.race([end, new Promise((_, reject) => setTimeout(() => reject(new Error('the stream did not end')), 2000))])
    expect(streams.size).toBe(0)
    expect(written).toHaveLength(1)
    // A new stream is refused up front, as an Error response the lane writes.
    expect(() => streams.respond()).toThrow(expect.objectContaining({ code: 'invalid_clock' }))
  })
})

describe('POST /__sim/clock with fields of the wrong shape', () => {
  it('answers a 400 naming the field, however deep an array is nested, and the clock stays', async () => {
    const app = createApp({ clock: { now: () => Date.UTC(2030, 0, 1) } })
    const deep = (depth: number) => `${'['.repeat(depth)}"1s"${']'.repeat(depth)}`
    for (const [field, value] of [
      ['set', deep(200_000)],
      ['advance', deep(200_000)],
      ['advance', '["90s"]'],
      ['set', '{"at":1}'],
      ['advance', 'true'],
    ] as const) {
      const response = await app.fetch(
        new Request('http://localhost/__sim/clock', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"${field}":${value}}`,
        }),
        loopback,
      )
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body.code).toBe('invalid_body')
      expect(body.message).toMatch(new RegExp(`^${field} must be a string or a number`))
    }
    expect(app.simulator.clock.now()).toBe(Date.UTC(2030, 0, 1))
  })
})

describe('moving the clock back', () => {
  it('does not grant a used minute again: the caller stays in its latest window until the clock passes it', async () => {
    const start = Date.UTC(2030, 0, 1, 12, 0, 30)
    const app = createApp({ clock: createManualClock(start), ban: false })
    const free = { Authorization: 'Bearer demo-free-key' }
    const get = () => app.fetch(new Request('http://localhost/v1/pets?limit=1', { headers: free }), loopback)
    const useMinute = async () => {
      for (let index = 0; index < 60; index++) expect((await get()).status).toBe(200)
      expect((await get()).status).toBe(429)
    }
    await useMinute() // 12:00
    app.simulator.clock.advance(60_000)
    await useMinute() // 12:01
    app.simulator.clock.set(start + 10_000) // back to 12:00:40
    const again = await get()
    expect(again.status).toBe(429)
    // The window that binds is 12:01's, which ends at 12:02:00: 80 s away on the clock as it now stands.
    expect(again.headers.get('retry-after')).toBe('80')
    expect(again.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2030, 0, 1, 12, 2) / 1000))
    expect(app.simulator.state().keys.find((key) => key.plan === 'free')?.minute).toMatchObject({ used: 60, remaining: 0 })
    // Past the window, the quota is back; reset() gives fresh windows at once.
    app.simulator.clock.set(Date.UTC(2030, 0, 1, 12, 2))
    expect((await get()).status).toBe(200)
    app.simulator.reset()
    app.simulator.clock.set(start)
    expect((await get()).headers.get('x-ratelimit-remaining')).toBe('59')
  })
})
