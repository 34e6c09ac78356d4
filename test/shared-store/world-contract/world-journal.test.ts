import { expect, it } from 'vitest'
import { describeWorlds, freeKey, newPet, type Instance } from './targets.ts'

// The world contract: one journal for the world. Traffic through every instance, read on every instance: the same
// entries in the same order, the same counts and finds, the same HAR; a clear or a reset through a empties it on each.

interface Line {
  readonly sequence: number
  readonly method: string
  readonly path: string
  readonly status: number
  readonly operation: string
}

const lines = async (reader: Instance, query = ''): Promise<Line[]> => {
  const { requests } = await reader.controlOk(`/requests${query}`)
  return (requests as Line[]).map(({ sequence, method, path, status, operation }) => ({ sequence, method, path, status, operation }))
}
const count = async (reader: Instance, query = '') => (await reader.controlOk(`/requests/count${query}`)).count as number

/** Seven requests of five shapes, sent to the instances in turn; returns what each was answered. */
async function traffic(readers: readonly Instance[]): Promise<number[]> {
  const on = (step: number) => readers[step % readers.length]!
  const statuses: number[] = []
  statuses.push((await on(0).api('/pets?limit=2')).status)
  statuses.push((await on(1).api('/pets', { method: 'POST', body: newPet('Journal Rex') })).status)
  statuses.push((await on(2).api('/pets/1')).status)
  statuses.push((await on(3).api('/pets/999999')).status)
  statuses.push((await on(4).api('/pets', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } })).status)
  statuses.push((await on(5).api('/pets?limit=1', { key: null })).status)
  statuses.push((await on(6).api('/pets?limit=3', { key: freeKey, headers: { 'x-correlation-id': 'contract-7' } })).status)
  return statuses
}
const answered = [200, 201, 200, 404, 415, 401, 200]

describeWorlds('the world contract: the journal', (world) => {
  it('lists the same entries, in the order answered, on every instance', async () => {
    expect(await traffic(world().readers)).toEqual(answered)
    const expected = [
      { sequence: 1, method: 'GET', path: '/v1/pets?limit=2', status: 200, operation: 'listPets' },
      { sequence: 2, method: 'POST', path: '/v1/pets', status: 201, operation: 'createPet' },
      { sequence: 3, method: 'GET', path: '/v1/pets/1', status: 200, operation: 'getPet' },
      { sequence: 4, method: 'GET', path: '/v1/pets/999999', status: 404, operation: 'getPet' },
      { sequence: 5, method: 'POST', path: '/v1/pets', status: 415, operation: 'createPet' },
      { sequence: 6, method: 'GET', path: '/v1/pets?limit=1', status: 401, operation: 'listPets' },
      { sequence: 7, method: 'GET', path: '/v1/pets?limit=3', status: 200, operation: 'listPets' },
    ]
    for (const reader of world().readers) {
      expect(await lines(reader), reader.name).toEqual(expected)
      expect(await count(reader), reader.name).toBe(7)
    }
  })

  it('finds the same entries on every instance, by every kind of filter', async () => {
    expect(await traffic(world().readers)).toEqual(answered)
    for (const reader of world().readers) {
      const found = async (query: string) => (await lines(reader, query)).map((line) => line.sequence)
      expect(await found('?method=POST'), `${reader.name}: method`).toEqual([2, 5])
      expect(await found('?operation=getPet'), `${reader.name}: operation`).toEqual([3, 4])
      expect(await found('?status=4xx'), `${reader.name}: status`).toEqual([4, 5, 6])
      expect(await found('?path=/v1/pets/*'), `${reader.name}: path`).toEqual([3, 4])
      expect(await found(`?key=${freeKey}`), `${reader.name}: key`).toEqual([7])
      expect(await found('?key=anonymous'), `${reader.name}: anonymous`).toEqual([6])
      expect(await found('?body.name=Journal%20Rex'), `${reader.name}: body field`).toEqual([2])
      expect(await found(`?body=${encodeURIComponent('{"name":"Journal Rex"}')}`), `${reader.name}: body`).toEqual([2])
      expect(await found('?header.x-correlation-id=contract-7'), `${reader.name}: header`).toEqual([7])
      expect(await found('?query.limit=3'), `${reader.name}: query`).toEqual([7])
      expect(await found('?since=3&until=5'), `${reader.name}: window`).toEqual([3, 4, 5])
      expect(await found('?limit=2'), `${reader.name}: limit`).toEqual([6, 7])
      expect(await count(reader, '?method=POST&status=201'), `${reader.name}: count`).toBe(1)
    }
  })

  it('exports the same HAR on every instance', async () => {
    expect(await traffic(world().readers)).toEqual(answered)
    const hars = []
    for (const reader of world().readers) {
      const answer = await reader.control('/requests.har')
      expect(answer.status, reader.name).toBe(200)
      const entries = answer.body.log.entries as { request: { method: string; url: string }; response: { status: number } }[]
      hars.push(entries.map((entry) => [entry.request.method, new URL(entry.request.url).pathname, entry.response.status]))
    }
    const paths = ['/v1/pets', '/v1/pets', '/v1/pets/1', '/v1/pets/999999', '/v1/pets', '/v1/pets', '/v1/pets']
    const methods = ['GET', 'POST', 'GET', 'GET', 'POST', 'GET', 'GET']
    for (const [index, har] of hars.entries()) {
      expect(har, world().readers[index]!.name).toEqual(answered.map((status, entry) => [methods[entry], paths[entry], status]))
    }
  })

  it("stamps every instance's entries with the world's clock, and the fault or forcing that shaped them", async () => {
    await world().a.controlOk('/clock', { method: 'POST', body: { set: '2029-05-06T07:08:09.000Z', freeze: true } })
    const added = await world().a.controlOk('/faults', { method: 'POST', body: { operation: 'getPet', status: 503, times: 1 } })
    const statuses = []
    for (const reader of world().readers) {
      statuses.push((await reader.api('/pets/1')).status)
      statuses.push((await reader.api('/pets/2', { headers: { prefer: 'code=404' } })).status)
    }
    expect(statuses).toEqual(world().readers.flatMap((_, index) => [index === 0 ? 503 : 200, 404]))
    for (const reader of world().readers) {
      const { requests } = await reader.controlOk('/requests')
      const entries = requests as { at: string; fault?: string; forced?: boolean; status: number }[]
      expect(
        entries.map((entry) => entry.at),
        reader.name,
      ).toEqual(entries.map(() => '2029-05-06T07:08:09.000Z'))
      expect(
        entries.map((entry) => [entry.status, entry.fault ?? null, entry.forced ?? false]),
        reader.name,
      ).toEqual(statuses.map((status, index) => [status, index === 0 ? added.ids[0] : null, index % 2 === 1]))
    }
  })

  it('waits on one instance for a request another answers', async () => {
    const [first, last] = [world().a, world().readers.at(-1)!]
    const waiting = last.control('/requests/wait?operation=createPet&timeoutMs=5000')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await first.api('/pets', { method: 'POST', body: newPet('Awaited') })).status).toBe(201)
    const seen = await waiting
    expect([seen.status, seen.body.request?.operation, JSON.parse(seen.body.request?.request?.body?.text ?? 'null')?.name]).toEqual([
      200,
      'createPet',
      'Awaited',
    ])
  })

  it('is emptied on every instance by a clear through a, and numbers again from 1', async () => {
    expect(await traffic(world().readers)).toEqual(answered)
    expect(await world().a.controlOk('/requests', { method: 'DELETE' })).toEqual({ requests: [] })
    for (const reader of world().readers) {
      expect(await count(reader), reader.name).toBe(0)
      expect(await lines(reader), reader.name).toEqual([])
    }
    expect((await world().readers.at(-1)!.api('/pets/2')).status).toBe(200)
    for (const reader of world().readers)
      expect(
        (await lines(reader)).map((line) => [line.sequence, line.path]),
        reader.name,
      ).toEqual([[1, '/v1/pets/2']])
  })

  it('is emptied on every instance by a reset through a', async () => {
    expect(await traffic(world().readers)).toEqual(answered)
    await world().a.controlOk('/reset', { method: 'POST' })
    for (const reader of world().readers) expect(await count(reader), reader.name).toBe(0)
  })
})
