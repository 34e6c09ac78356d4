// Run by journal-retention.test.ts as `node --expose-gc`: what a journal of real Node requests holds (issue 45, Low
// 15), heap and array buffers after full collections, against the journal's own estimate; and whether a kept entry
// still reaches Node's request objects (WeakRefs to each IncomingMessage and its body chunks). Prints one JSON line.
// Bounded: a fixed number of requests on one keep-alive connection, nothing timed.
import { createServer, request as httpRequest, Agent, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createNodeApp, createRequestListener } from '../../src/node.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc')
const used = async () => {
  for (let round = 0; round < 6; round++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return { heapUsed, arrayBuffers, total: heapUsed + arrayBuffers }
}
const [small = 1000, large = 30] = process.argv.slice(2).map(Number)
const app = createNodeApp({ seed: 1, pets: 5, ban: false, keys: { 'retention-key': 'enterprise:1000000000/1000000000' } })
const listener = createRequestListener({ app })
const messages: WeakRef<IncomingMessage>[] = []
const server = createServer((incoming, outgoing) => {
  messages.push(new WeakRef(incoming))
  listener(incoming, outgoing)
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const { port } = server.address() as AddressInfo
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest({
      host: '127.0.0.1',
      port,
      method,
      path,
      agent,
      headers: { authorization: 'Bearer retention-key', ...headers },
    })
    sent.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    sent.on('error', reject)
    sent.end(body)
  })
}
const json = { 'content-type': 'application/json' }
// Small createPets (what most exchanges are), then the mix: 120 KB createPets, listPets with a 12 KB header
// and an 8 KB query.
async function traffic(smallCount: number, largeCount: number): Promise<void> {
  for (let index = 0; index < smallCount; index++)
    await send('POST', '/v1/pets', json, JSON.stringify({ name: `Rex${index}`, categoryId: 1 }))
  for (let index = 0; index < largeCount; index++) {
    await send('POST', '/v1/pets', json, JSON.stringify({ name: `Big${index}`, categoryId: 1, notes: 'n'.repeat(120_000) }))
    await send('GET', `/v1/pets?limit=5&q=${'q'.repeat(8000)}${index}`, { 'x-trace': 't'.repeat(12_000) })
  }
}
// Once first, then forgotten: the code it compiles and the caches it fills are not what the journal holds.
await traffic(200, 5)
await send('POST', '/__sim/reset', {})
messages.length = 0
const before = await used()
await traffic(small, large)
agent.destroy()
await new Promise<void>((resolve) => server.close(() => resolve()))
const after = await used()
const usage = app.simulator.journal.usage()
const alive = messages.filter((message) => message.deref() !== undefined).length
process.stdout.write(
  `${JSON.stringify({ heldBytes: after.total - before.total, heapBytes: after.heapUsed - before.heapUsed, bufferBytes: after.arrayBuffers - before.arrayBuffers, estimated: usage.bytes, entries: usage.entries, messagesAlive: alive, messages: messages.length })}\n`,
)
