import type { IncomingMessage } from 'node:http'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { BodyBudget } from '../../src/node/body-budget.ts'
import { readBody } from '../../src/node/request-body.ts'

// The request-body collector on its own (the server's tests read bodies over real sockets): chunks joined, the limit
// counted while streaming, a body a middleware has read, the budget taken and given back.

function incoming(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers, complete: false }) as unknown as PassThrough & IncomingMessage
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8')

describe('reading a request body', () => {
  it('joins the chunks as they came', async () => {
    const request = incoming()
    const read = readBody(request, 1024)
    request.write('{"name":')
    request.end('"Rex"}')
    expect(text(await read)).toBe('{"name":"Rex"}')
  })

  it('refuses a body past the limit with a 413, counted while streaming (no Content-Length to trust)', async () => {
    const request = incoming()
    const read = readBody(request, 8)
    request.write('0123456789')
    await expect(read).rejects.toMatchObject({ status: 413 })
  })

  it('refuses a declared Content-Length past the limit before reading anything', async () => {
    await expect(readBody(incoming({ 'content-length': '9' }), 8)).rejects.toMatchObject({ status: 413 })
  })

  it('answers 400 when the connection closes before the body ends', async () => {
    const request = incoming()
    const read = readBody(request, 1024)
    request.write('{"na')
    request.destroy()
    await expect(read).rejects.toMatchObject({ status: 400 })
  })

  it('takes a body a middleware already read from req.body', async () => {
    const request = incoming()
    request.end()
    request.resume()
    await new Promise((resolve) => request.once('end', resolve))
    Object.assign(request, { body: { name: 'Rex', categoryId: 1 } })
    expect(text(await readBody(request, 1024))).toBe('{"name":"Rex","categoryId":1}')
  })

  it('takes each chunk from the budget and gives every byte back once the body is read', async () => {
    const budget = new BodyBudget(1000)
    const request = incoming()
    const read = readBody(request, 1024, budget)
    request.write('x'.repeat(300))
    await new Promise((resolve) => setImmediate(resolve))
    expect(budget.available).toBe(700)
    request.end('y'.repeat(100))
    expect(text(await read)).toBe(`${'x'.repeat(300)}${'y'.repeat(100)}`)
    expect(budget.available).toBe(1000)
  })

  it('holds a chunk, unread, while the budget is spent, and reads on once bytes come back', async () => {
    const budget = new BodyBudget(1000)
    const taken = budget.take(1000)
    const request = incoming()
    const read = readBody(request, 1024, budget)
    request.end('z'.repeat(50))
    await new Promise((resolve) => setImmediate(resolve))
    let done = false
    void read.then(() => {
      done = true
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(done).toBe(false)
    budget.giveBack(taken)
    expect(text(await read)).toBe('z'.repeat(50))
    expect(budget.available).toBe(1000)
  })
})
