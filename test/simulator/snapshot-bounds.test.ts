import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/app/app.ts'

const proKey = 'demo-pro-key'

/** An app and a way to send it requests as a loopback client, with the pro key. */
function appLane() {
  const app = createApp({ seed: 3, pets: 12 })
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await app.fetch(
      new Request(`http://localhost:4010${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${proKey}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      { clientAddress: '127.0.0.1' },
    )
    return { status: response.status, body: await response.json() }
  }
  return { app, send }
}

describe('PUT /__sim/snapshot: the whole snapshot is checked before anything changes', () => {
  it('a restore refused for a bad fault rule leaves the journal (and everything else) as it was', async () => {
    const { send } = appLane()
    expect((await send('POST', '/v1/pets', { name: 'Kept', categoryId: 2 })).status).toBe(201)
    const snapshot = (await send('GET', '/__sim/snapshot')).body
    const before = (await send('GET', '/__sim/requests/count')).body
    expect(before.count).toBe(1)
    const refused = await send('PUT', '/__sim/snapshot', {
      ...snapshot,
      faults: { nextId: 2, rules: [{ id: 'f1', operation: 'feedPets', status: 503 }] },
    })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'invalid_body', status: 400 })
    expect(refused.body.message).toMatch(/no operation feedPets/)
    expect((await send('GET', '/__sim/requests/count')).body).toEqual(before)
    expect((await send('GET', '/v1/pets/13')).body).toMatchObject({ id: 13, name: 'Kept' })
  })

  it('a restore refused for a clock out of range leaves the journal as it was', async () => {
    const { send } = appLane()
    expect((await send('GET', '/v1/pets')).status).toBe(200)
    const snapshot = (await send('GET', '/__sim/snapshot')).body
    const before = (await send('GET', '/__sim/requests/count')).body
    expect(before.count).toBe(1)
    const refused = await send('PUT', '/__sim/snapshot', { ...snapshot, clock: { offsetMs: -1e15, frozenAt: null } })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/outside the clock's range/)
    expect((await send('GET', '/__sim/requests/count')).body).toEqual(before)
  })

  it('refuses a nextId past 2^53 - 1; from a nextId near it, createPet gives distinct safe ids, then 507 store_full', async () => {
    const { send } = appLane()
    const snapshot = (await send('GET', '/__sim/snapshot')).body
    const refused = await send('PUT', '/__sim/snapshot', {
      ...snapshot,
      catalogue: { ...snapshot.catalogue, nextId: Number.MAX_SAFE_INTEGER + 1 },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/catalogue\.nextId/)
    // Issue 36: the highest nextId is accepted; ids end at 2^53 - 2 (never repeated), then createPet is a 507.
    const highest = Number.MAX_SAFE_INTEGER - 2
    expect((await send('PUT', '/__sim/snapshot', { ...snapshot, catalogue: { ...snapshot.catalogue, nextId: highest } })).status).toBe(200)
    const first = await send('POST', '/v1/pets', { name: 'One', categoryId: 1 })
    const second = await send('POST', '/v1/pets', { name: 'Two', categoryId: 1 })
    const third = await send('POST', '/v1/pets', { name: 'Three', categoryId: 1 })
    expect([first.body.id, second.body.id]).toEqual([highest, highest + 1])
    expect([third.status, third.body.code]).toEqual([507, 'store_full'])
    expect(third.body.message).toMatch(/No id is left/)
  })

  // Issue 36: the rule was "room for --max-pets more", so a snapshot restored near the top, then a pet created, wrote
  // a snapshot the simulator itself refused (and `--state` refused to start).
  it('restores every snapshot it writes: pets created after a restore near the top', async () => {
    const { send } = appLane()
    const snapshot = (await send('GET', '/__sim/snapshot')).body
    const nearTop = Number.MAX_SAFE_INTEGER - 100_000
    expect((await send('PUT', '/__sim/snapshot', { ...snapshot, catalogue: { ...snapshot.catalogue, nextId: nearTop } })).status).toBe(200)
    expect((await send('POST', '/v1/pets', { name: 'After', categoryId: 1 })).status).toBe(201)
    const written = (await send('GET', '/__sim/snapshot')).body
    expect(written.catalogue.nextId).toBe(nearTop + 1)
    expect((await send('PUT', '/__sim/snapshot', written)).status).toBe(200)
  })

  it.each([
    ['a ban until 2^53 - 1', { bannedUntil: Number.MAX_SAFE_INTEGER }, /bannedUntil/],
    ['a minute past 9999', { minute: Number.MAX_SAFE_INTEGER }, /minute/],
    ['a day past 9999', { day: Number.MAX_SAFE_INTEGER }, /day/],
  ])('refuses %s, and GET /__sim/state keeps answering', async (_name, spoil, message) => {
    const { send } = appLane()
    const snapshot = (await send('GET', '/__sim/snapshot')).body
    const bucket = { caller: 'anonymous:127.0.0.1', minute: 1, minuteCount: 1, day: 0, dayCount: 1, refusedInARow: 0, ...spoil }
    const refused = await send('PUT', '/__sim/snapshot', { ...snapshot, rateLimits: [bucket] })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(message)
    expect((await send('GET', '/__sim/state')).status).toBe(200)
  })

  it('accepts a ban until the last instant of 9999, and GET /__sim/state shows it', async () => {
    const { send } = appLane()
    const snapshot = (await send('GET', '/__sim/snapshot')).body
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999)
    // demo-pro-key's fingerprint, as snapshots name keys.
    const bucket = { caller: 'key#761ecdd2', minute: 1, minuteCount: 1, day: 0, dayCount: 1, refusedInARow: 0, bannedUntil: last }
    expect((await send('PUT', '/__sim/snapshot', { ...snapshot, rateLimits: [bucket] })).status).toBe(200)
    const state = await send('GET', '/__sim/state')
    expect(state.status).toBe(200)
    expect(state.body.keys.find((key: { token: string }) => key.token === proKey).bannedUntil).toBe('9999-12-31T23:59:59.999Z')
  })

  it('refuses a fault rule nextId past 2^40', async () => {
    const { send } = appLane()
    const snapshot = (await send('GET', '/__sim/snapshot')).body
    const refused = await send('PUT', '/__sim/snapshot', { ...snapshot, faults: { nextId: 2 ** 40 + 1, rules: [] } })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/faults\.nextId/)
  })
})
