import { afterEach, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { createEventStreams, maxEventStreams } from '../../src/app/dashboard/event-stream.ts'
import type { StreamSink } from '../../src/core/http/plain-http.ts'
import { createSimulatorCore } from '../../src/core/simulator/simulator-core.ts'

// Issue #20, item 2: with 100 dashboards open the API fell from 22 k to 9-18 k req/s, with 1,000 to under 1 k: every
// stream listened to every request and serialised every batch and state for itself. The work is counted, not timed.

const cleanups: Array<() => void> = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function recordingSink() {
  const written: string[] = []
  const sink: StreamSink = { write: (chunk) => void written.push(chunk), hasRoom: true, end: () => {} }
  return { sink, written }
}

const pro = { authorization: 'Bearer demo-pro-key' }
const until = async (done: () => boolean) => {
  const deadline = Date.now() + 2000
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('event streams fan out', () => {
  it('listens once and serialises each batch once, whatever the number of streams', async () => {
    const simulator = createSimulatorCore()
    const app = createApp({ simulator })
    const state = vi.spyOn(simulator, 'state')
    const streams = createEventStreams(simulator, { flushMs: 10 })
    const sinks = Array.from({ length: 20 }, () => recordingSink())
    for (const { sink } of sinks) cleanups.push(streams.respond().stream!.open(sink))
    // One listener on the simulator for all of them.
    expect(simulator.events.size).toBe(1)
    state.mockClear()
    await app.fetch(new Request('http://localhost/v1/pets?limit=1', { headers: pro }))
    await app.fetch(new Request('http://localhost/v1/pets/1', { headers: pro }))
    await until(() => sinks.every(({ written }) => written.length >= 2))
    // One state for all twenty streams' batch.
    expect(state).toHaveBeenCalledTimes(1)
    const batches = sinks.map(({ written }) => written[1]!)
    expect(new Set(batches).size).toBe(1)
    const data = JSON.parse(/event: requests\ndata: (.*)\n/.exec(batches[0]!)![1]!)
    expect(data.requests.map((entry: { operation: string }) => entry.operation)).toEqual(['listPets', 'getPet'])
    expect(data.skipped).toBe(0)
  })

  it('catches up a stream that fell behind, with what it missed counted as skipped', async () => {
    const simulator = createSimulatorCore()
    const app = createApp({ simulator })
    const streams = createEventStreams(simulator, { flushMs: 10, maxBatch: 3, stallMs: 10_000 })
    const fast = recordingSink()
    const slow = recordingSink()
    let room = false
    const slowSink: StreamSink = {
      write: slow.sink.write,
      get hasRoom() {
        return room
      },
      end: () => {},
    }
    cleanups.push(streams.respond().stream!.open(fast.sink))
    cleanups.push(streams.respond().stream!.open(slowSink))
    for (let index = 0; index < 5; index++) await app.fetch(new Request('http://localhost/v1/pets?limit=1', { headers: pro }))
    await until(() => fast.written.length >= 2)
    room = true
    await app.fetch(new Request('http://localhost/v1/pets/1', { headers: pro }))
    await until(() => slow.written.length >= 2 && fast.written.length >= 3)
    const requests = (chunk: string) => JSON.parse(/event: requests\ndata: (.*)\n/.exec(chunk)![1]!)
    expect(requests(fast.written[2]!)).toMatchObject({ skipped: 0, requests: [{ operation: 'getPet' }] })
    const caughtUp = requests(slow.written[1]!)
    expect(caughtUp.skipped).toBe(3)
    expect(caughtUp.requests.map((entry: { sequence: number }) => entry.sequence)).toEqual([4, 5, 6])
  })

  it(`refuses more than ${maxEventStreams} streams with 503 too_many_streams and Retry-After`, async () => {
    const app = createApp()
    const readers: Array<ReadableStreamDefaultReader<Uint8Array>> = []
    cleanups.push(() => {
      for (const reader of readers) void reader.cancel()
    })
    for (let index = 0; index < maxEventStreams; index++) {
      const response = await app.fetch(new Request('http://localhost/__sim/events'), { clientAddress: '127.0.0.1' })
      expect(response.status).toBe(200)
      const reader = response.body!.getReader()
      readers.push(reader)
      await reader.read()
    }
    const refused = await app.fetch(new Request('http://localhost/__sim/events'), { clientAddress: '127.0.0.1' })
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect(await refused.json()).toEqual({
      code: 'too_many_streams',
      status: 503,
      message: `At most ${maxEventStreams} event streams are open at once; close a dashboard, or retry later`,
    })
    // One closed: room for one more.
    await readers.pop()!.cancel()
    let again = await app.fetch(new Request('http://localhost/__sim/events'), { clientAddress: '127.0.0.1' })
    // The stream closes as the cancel reaches it: a few turns at most.
    for (let tries = 0; again.status === 503 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      again = await app.fetch(new Request('http://localhost/__sim/events'), { clientAddress: '127.0.0.1' })
    }
    expect(again.status).toBe(200)
    readers.push(again.body!.getReader())
  })
})
