// The baseline for `npm run bench`: a bare node:http server answering the
// same routes with precomputed JSON, no logic at all.
import { createServer } from 'node:http'
import { generatePets } from '../../src/core/catalogue/seed-pets.ts'

const pets = generatePets()
const listBody = JSON.stringify(pets.slice(0, 20))
const createdBody = JSON.stringify({ id: 51, name: 'Bench', categoryId: 1, status: 'available' })
const petBody = JSON.stringify(pets[0])

const server = createServer((request, response) => {
  if (request.method === 'POST') {
    request.resume()
    request.on('end', () => {
      response.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(createdBody) }).end(createdBody)
    })
    return
  }
  const body = request.url!.startsWith('/v1/pets/') ? petBody : listBody
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number }
  process.stdout.write(`bare server listening on http://127.0.0.1:${address.port}/v1\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
