import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'
import { maxFaultRules, maxFaultRulesPerAdd } from '../../src/core/faults/fault-rules.ts'

// Issue #20, item 1, as a user sees it: POST /__sim/faults past the caps is refused whole, with an Error body naming the cap.

const app = createApp()
const post = (body: unknown) =>
  app.fetch(
    new Request('http://localhost/__sim/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
    { clientAddress: '127.0.0.1' },
  )
const rules = (count: number) => Array.from({ length: count }, () => ({ operation: 'listPets', status: 503, probability: 0.01 }))

describe('POST /__sim/faults limits', () => {
  it('refuses more than 100 rules in one request, naming the cap, and adds none', async () => {
    await app.fetch(new Request('http://localhost/__sim/faults', { method: 'DELETE' }), { clientAddress: '127.0.0.1' })
    const response = await post(rules(maxFaultRulesPerAdd + 1))
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      code: 'too_many_faults',
      status: 400,
      message: `Invalid fault rules: at most ${maxFaultRulesPerAdd} rules at a time (got ${maxFaultRulesPerAdd + 1})`,
    })
    const listed = await (await app.fetch(new Request('http://localhost/__sim/faults'), { clientAddress: '127.0.0.1' })).json()
    expect(listed.faults).toEqual([])
  })

  it('refuses rules past 1,000 in force, and a bad rule in an array leaves nothing added', async () => {
    for (let sent = 0; sent < maxFaultRules; sent += maxFaultRulesPerAdd) expect((await post(rules(maxFaultRulesPerAdd))).status).toBe(201)
    const over = await post({ status: 503 })
    expect(over.status).toBe(400)
    expect(await over.json()).toMatchObject({
      code: 'too_many_faults',
      message: `Invalid fault rule: at most ${maxFaultRules} rules are in force at once`,
    })
    await app.fetch(new Request('http://localhost/__sim/faults', { method: 'DELETE' }), { clientAddress: '127.0.0.1' })
    const bad = await post([...rules(maxFaultRulesPerAdd - 1), { status: 99 }])
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({
      code: 'invalid_body',
      message: expect.stringMatching(/^Rule #99: Invalid fault rule: status/),
    })
    const listed = await (await app.fetch(new Request('http://localhost/__sim/faults'), { clientAddress: '127.0.0.1' })).json()
    expect(listed.faults).toEqual([])
  })
})
