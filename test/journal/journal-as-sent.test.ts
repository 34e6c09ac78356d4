import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp, startServer, type RunningServer } from '../../src/node.ts'
import { plain, setUpPipeline } from '../support/plain-pipeline.ts'

// Issue 38: what the journal shows is what was sent, and everything it keeps counts against its budget.

describe('the journal shows the answer as sent', () => {
  let running: RunningServer
  beforeAll(async () => {
    running = await startServer({ app: createNodeApp({ seed: 1 }), port: 0 })
  })
  afterAll(() => running.close(0))

  it('with the CORS grant and Content-Length, already when the entry is first seen (a waiter, an event)', async () => {
    const journal = running.simulator.journal
    const seenAtRecord = journal.waitFor({ operation: 'getPet' }, { timeoutMs: 5000 })
    const response = await fetch(`${running.apiUrl}/pets/1`, {
      headers: { authorization: 'Bearer demo-pro-key', origin: 'http://localhost:5173' },
    })
    const body = await response.text()
    const sent = Object.fromEntries([...response.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)))
    const first = await seenAtRecord
    const later = journal.find({ operation: 'getPet' }).at(-1)!
    expect(sent['access-control-allow-origin']).toBe('http://localhost:5173')
    expect(sent['content-length']).toBe(String(Buffer.byteLength(body)))
    expect(first.response.headers).toEqual(sent)
    expect(later.response.headers).toEqual(sent)
  })
})

describe('the journal budget', () => {
  it('counts the pages of pets it keeps: a kept page is not free because the store holds it too', async () => {
    const { simulator, respond } = setUpPipeline({
      keys: { 'budget-key': 'enterprise:1000000000/1000000000' },
      ban: false,
      journalMaxBytes: 2 * 1024 * 1024,
    })
    const auth = { authorization: 'Bearer budget-key', 'content-type': 'application/json' }
    const longName = JSON.stringify({ name: 'n'.repeat(250), categoryId: 1 })
    for (let index = 0; index < 100; index++) expect((await respond(plain('POST', '/v1/pets', auth, longName))).status).toBe(201)
    // Each create changes the store's revision, so each page is a new text, kept by the journal only.
    for (let index = 0; index < 300; index++) {
      expect((await respond(plain('GET', '/v1/pets?limit=100', auth))).status).toBe(200)
      await respond(plain('POST', '/v1/pets', auth, longName))
    }
    const pageBytes = simulator.journal.find({ operation: 'listPets' }).reduce((sum, entry) => sum + (entry.response.body?.size ?? 0), 0)
    const { bytes, maxBytes } = simulator.journal.usage()
    expect(pageBytes).toBeGreaterThan(0)
    expect(bytes).toBeGreaterThanOrEqual(pageBytes)
    expect(bytes).toBeLessThanOrEqual(maxBytes)
  })
})
