import { describe, expect, it } from 'vitest'
import type { PlainRequest } from '../../../src/core/http/plain-http.ts'
import { pickLatency } from '../../../src/core/pipeline/api-pipeline-steps.ts'
import { plain, setUpPipeline as setup } from '../../support/plain-pipeline.ts'

// What a request under way meets (docs/where-the-spec-is-silent.md, "A reset while requests are under way"; docs/
// error-codes.md, `simulator_reset`), and the latency option (docs/in-process.md: ms, or `{ min, max }`).

const free = { Authorization: 'Bearer demo-free-key', 'content-type': 'application/json' }

/** A createPet whose body arrives only when `arrive` is called. */
function slowCreatePet(): { request: PlainRequest; arrive: () => void } {
  let arrive = () => {}
  const body = new Promise<Uint8Array>((resolve) => {
    arrive = () => resolve(new TextEncoder().encode('{"name":"Rex","categoryId":1}'))
  })
  return { request: { ...plain('POST', '/v1/pets', free), readBody: () => body }, arrive: () => arrive() }
}

describe('a reset while a request is under way', () => {
  it('gives a createPet whose body arrives after it 503 simulator_reset, stores nothing, journals nothing', async () => {
    const { simulator } = setup()
    const { request, arrive } = slowCreatePet()
    const answering = Promise.resolve(simulator.pipeline.respond(request))
    simulator.reset()
    arrive()
    const answer = await answering
    expect(answer.status).toBe(503)
    expect(JSON.parse(answer.body!)).toEqual({
      code: 'simulator_reset',
      message: 'The simulator was reset while this request was under way: nothing was changed; send it again',
      status: 503,
    })
    expect(answer.journalEntry).toBeUndefined()
    expect(simulator.journal.entries()).toEqual([])
    // The catalogue the reset put back (5 pets), and nothing more.
    expect(simulator.store.size).toBe(5)
    expect(simulator.state().requests.total).toBe(0)
  })

  it('stores the pet when no reset came between', async () => {
    const { simulator } = setup()
    const before = simulator.store.size
    const { request, arrive } = slowCreatePet()
    const answering = Promise.resolve(simulator.pipeline.respond(request))
    arrive()
    expect((await answering).status).toBe(201)
    expect(simulator.store.size).toBe(before + 1)
    expect(simulator.journal.entries()).toHaveLength(1)
  })
})

describe('pickLatency: the delay of one answer', () => {
  it('is the number given, or a whole number of ms drawn from min to max, both included', () => {
    expect(pickLatency(50, () => 0.7)).toBe(50)
    expect(pickLatency({ min: 20, max: 80 }, () => 0)).toBe(20)
    expect(pickLatency({ min: 20, max: 80 }, () => 0.5)).toBe(50)
    expect(pickLatency({ min: 20, max: 80 }, () => 0.999_999)).toBe(80)
    expect(pickLatency({ min: 7, max: 7 }, () => 0.999_999)).toBe(7)
  })
})
