// Run by pact-budget.test.ts as `node --expose-gc`: what the pact recorders of many sandboxes really hold once every
// sandbox is reset (issue 45, Medium 6), heap and array buffers after full collections, against their own estimates.
// Prints one JSON line. Bounded: `sandboxes` × `shapes` createPets, in-process (app.fetch), nothing timed.
import { createApp } from '../../src/app/app.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with --expose-gc')
// The heap only: what a recorder keeps is strings and objects (the journal's views), and array buffers freed by the
// full collections were still counted for a while (20 kB a request, found in no heap snapshot).
const used = async () => {
  for (let round = 0; round < 4; round++) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return process.memoryUsage().heapUsed
}
const sandboxes = Number(process.argv[2] ?? 10)
const shapes = Number(process.argv[3] ?? 500)
const app = createApp({ seed: 1, pets: 5 })
const origin = 'http://127.0.0.1:4010'
const send = (path: string, init: RequestInit = {}) => app.fetch(new Request(`${origin}${path}`, init), { clientAddress: '127.0.0.1' })
// Every sandbox made, and its first request answered, before the baseline: what is measured is what the traffic adds.
for (let world = 0; world < sandboxes; world++) await (await send(`/sandboxes/s${world}/__sim/health`)).arrayBuffer()
const before = await used()
// A body of 20 kB beyond NewPet's fields and a header of 4 kB: the journal keeps both, a pact neither.
const notes = 'n'.repeat(20_000)
const trace = 't'.repeat(4000)
for (let world = 0; world < sandboxes; world++) {
  for (let shape = 0; shape < shapes; shape++) {
    const response = await send(`/sandboxes/s${world}/v1/pets?q${shape}=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-enterprise-key', 'content-type': 'application/json', 'x-trace': trace },
      body: JSON.stringify({ name: `Rex${shape}`, categoryId: 1, notes }),
    })
    if (response.status !== 201) throw new Error(`createPet answered ${response.status}: ${await response.text()}`)
    await response.arrayBuffer()
  }
}
let estimated = 0
let interactions = 0
for (const { world } of app.sandboxes!.list()) {
  await (await send(`/sandboxes/${world.simulator.basePath.split('/')[2]}/__sim/reset`, { method: 'POST' })).arrayBuffer()
  const usage = world.simulator.pact.usage()
  estimated += usage.bytes
  interactions += usage.interactions
}
const after = await used()
process.stdout.write(
  `${JSON.stringify({ measuredBytes: after - before, estimated, interactions, maxBytes: app.simulator.pact.usage().maxBytes })}\n`,
)
