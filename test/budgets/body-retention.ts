// Run by journal-retention.test.ts as `node --expose-gc`: what a Node request still reaches of its body once the body
// is handed on (issue 45, Low 15). The requests are held here, as a promoted request is held until a full collection
// (and the server holds each connection's last one): `small` 120 KB createPets with a journal that keeps nothing,
// then the array buffers still held after full collections. Prints one JSON line. Bounded, nothing timed.
import { createServer, request as httpRequest, Agent, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createNodeApp, createRequestListener } from '../../src/node.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc')
const buffers = async () => {
  for (let round = 0; round < 6; round++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return process.memoryUsage().arrayBuffers
}
const count = Number(process.argv[2] ?? 40)
const app = createNodeApp({ seed: 1, pets: 5, ban: false, journalSize: 0, keys: { 'retention-key': 'enterprise:1000000000/1000000000' } })
const listener = createRequestListener({ app })
const held: IncomingMessage[] = []
const server = createServer((incoming, outgoing) => {
  held.push(incoming)
  listener(incoming, outgoing)
})
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const { port } = server.address() as AddressInfo
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const body = JSON.stringify({ name: 'Big', categoryId: 1, notes: 'n'.repeat(120_000) })
const send = () =>
  new Promise<number>((resolve, reject) => {
    const sent = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/pets',
      agent,
      headers: { authorization: 'Bearer retention-key', 'content-type': 'application/json' },
    })
    sent.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    sent.on('error', reject)
    sent.end(body)
  })
if ((await send()) !== 201) throw new Error('createPet was not answered 201')
held.length = 0
const before = await buffers()
const statuses = new Set<number>()
for (let index = 0; index < count; index++) statuses.add(await send())
const after = await buffers()
agent.destroy()
await new Promise<void>((resolve) => server.close(() => resolve()))
process.stdout.write(
  `${JSON.stringify({ heldRequests: held.length, statuses: [...statuses], bufferBytes: after - before, bodyBytes: body.length })}\n`,
)
