import { expect, it } from 'vitest'
import { describeWorlds, frozenAt, type Instance } from './targets.ts'

// The world contract: the clock and the fault rules, changed through instance a, read back on every instance (health
// and the control plane first, before any API request there), and acted on by every instance.
const at = (iso: string, plusMs = 0) => new Date(Date.parse(iso) + plusMs).toISOString()
/** X-RateLimit-Reset of a minute window at `iso`: the end of its UTC minute, in Unix seconds. */
const minuteEnd = (iso: string) => (Math.floor(Date.parse(iso) / 60_000) + 1) * 60
const faultsOf = async (reader: Instance) => (await reader.controlOk('/faults')).faults as { id: string; operation: string }[]

describeWorlds('the world contract: clock and fault rules', (world) => {
  it('sets, advances and freezes the clock for every instance', async () => {
    await world().a.controlOk('/clock', { method: 'POST', body: { set: frozenAt, freeze: true } })
    for (const reader of world().readers) {
      expect(await reader.controlOk('/health'), `${reader.name}: health`).toMatchObject({
        now: frozenAt,
        frozen: true,
        epochMs: Date.parse(frozenAt),
      })
      expect(await reader.controlOk('/clock'), reader.name).toEqual({ now: frozenAt, epochMs: Date.parse(frozenAt), frozen: true })
      const answer = await reader.api('/pets?limit=1')
      expect(Number(answer.headers.get('x-ratelimit-reset')), reader.name).toBe(minuteEnd(frozenAt))
    }
    await world().a.controlOk('/clock', { method: 'POST', body: { advance: '90s' } })
    for (const reader of world().readers) {
      expect(await reader.controlOk('/health'), `${reader.name}: health`).toMatchObject({ now: at(frozenAt, 90_000), frozen: true })
      const answer = await reader.api('/pets?limit=1')
      expect(Number(answer.headers.get('x-ratelimit-reset')), reader.name).toBe(minuteEnd(at(frozenAt, 90_000)))
    }
    await world().a.controlOk('/clock', { method: 'POST', body: { advance: 3_600_000 } })
    for (const reader of world().readers) expect((await reader.controlOk('/clock')).now, reader.name).toBe(at(frozenAt, 3_690_000))
  })

  it('lets the clock run again from where it stood, on every instance', async () => {
    await world().a.controlOk('/clock', { method: 'POST', body: { set: frozenAt, freeze: true } })
    const unfrozen = Date.now()
    await world().a.controlOk('/clock', { method: 'POST', body: { freeze: false } })
    for (const reader of world().readers) {
      const clock = await reader.controlOk('/health')
      expect(clock.frozen, reader.name).toBe(false)
      // Running from the frozen instant: a few seconds at most have passed since (a busy machine).
      expect(clock.epochMs - Date.parse(frozenAt), reader.name).toBeGreaterThanOrEqual(0)
      expect(clock.epochMs - Date.parse(frozenAt), reader.name).toBeLessThan(Date.now() - unfrozen + 1000)
    }
    // Set while running: it runs on from the new instant.
    const set = '2033-07-08T09:10:11.000Z'
    const before = Date.now()
    await world().a.controlOk('/clock', { method: 'POST', body: { set } })
    for (const reader of world().readers) {
      const clock = await reader.controlOk('/clock')
      expect(clock.frozen, reader.name).toBe(false)
      expect(clock.epochMs - Date.parse(set), reader.name).toBeGreaterThanOrEqual(0)
      expect(clock.epochMs - Date.parse(set), reader.name).toBeLessThan(Date.now() - before + 1000)
    }
  })

  it('undoes the clock on every instance with a reset', async () => {
    await world().a.controlOk('/clock', { method: 'POST', body: { set: frozenAt, freeze: true } })
    await world().a.controlOk('/reset', { method: 'POST' })
    for (const reader of world().readers) {
      const clock = await reader.controlOk('/health')
      expect(clock.frozen, reader.name).toBe(false)
      expect(Math.abs(clock.epochMs - Date.now()), reader.name).toBeLessThan(5000)
    }
  })

  it('applies a fault rule added through a on every instance, and removes it through a', async () => {
    const added = await world().a.controlOk('/faults', { method: 'POST', body: { operation: 'getPet', status: 503 } })
    const id = added.ids[0] as string
    for (const reader of world().readers) {
      expect(
        (await faultsOf(reader)).map((rule) => [rule.id, rule.operation]),
        reader.name,
      ).toEqual([[id, 'getPet']])
      expect((await reader.api('/pets/1')).status, reader.name).toBe(503)
      expect((await reader.api('/pets?limit=1')).status, reader.name).toBe(200)
    }
    expect((await world().a.controlOk(`/faults/${id}`, { method: 'DELETE' })).faults).toEqual([])
    for (const reader of world().readers) {
      expect(await faultsOf(reader), reader.name).toEqual([])
      expect((await reader.api('/pets/1')).status, reader.name).toBe(200)
    }
  })

  it("spends a rule's times over the whole world, whichever instance answers", async () => {
    await world().a.controlOk('/faults', { method: 'POST', body: { operation: 'listPets', status: 503, times: 3 } })
    const statuses: number[] = []
    for (let round = 0; round < 4; round++) {
      for (const reader of world().readers) statuses.push((await reader.api('/pets?limit=1')).status)
    }
    expect(statuses.filter((status) => status === 503)).toHaveLength(3)
    expect(statuses.slice(0, 3)).toEqual([503, 503, 503])
    expect(statuses.slice(3).every((status) => status === 200)).toBe(true)
    // Spent: no instance lists the rule or fires it again.
    for (const reader of world().readers) {
      expect(await faultsOf(reader), reader.name).toEqual([])
      expect((await reader.api('/pets?limit=1')).status, reader.name).toBe(200)
    }
  })

  it('leaves what is left of times where every instance sees it', async () => {
    await world().a.controlOk('/faults', { method: 'POST', body: { operation: 'getPet', status: 500, times: 5 } })
    for (const reader of world().readers) expect((await reader.api('/pets/2')).status, reader.name).toBe(500)
    const left = 5 - world().readers.length
    for (const reader of world().readers) {
      const [rule, ...others] = (await faultsOf(reader)) as { remaining?: number }[]
      expect(others, reader.name).toEqual([])
      expect(rule?.remaining, reader.name).toBe(left)
    }
  })

  it('clears every rule on every instance with a reset', async () => {
    await world().a.controlOk('/faults', {
      method: 'POST',
      body: [
        { operation: 'getPet', status: 503 },
        { operation: 'createPet', status: 500 },
      ],
    })
    for (const reader of world().readers) expect(await faultsOf(reader), reader.name).toHaveLength(2)
    await world().a.controlOk('/reset', { method: 'POST' })
    for (const reader of world().readers) {
      expect(await faultsOf(reader), reader.name).toEqual([])
      expect((await reader.api('/pets/1')).status, reader.name).toBe(200)
    }
  })
})
