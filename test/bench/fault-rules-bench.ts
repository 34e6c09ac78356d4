// `npm run bench:faults`: what the fault-rule caps bound (issue #20, item 1). The worst a POST /__sim/faults can
// do is check 100 rules with 999 in force; the worst the rules can cost an API request is 1,000 that match its
// operation but do not fire (each draws from the generator). In-process through the app, no network; bounded:
// a fixed number of calls per figure. Nothing is asserted: the figures are printed.
import { createApp } from '../../src/app/app.ts'
import { maxFaultRules, maxFaultRulesPerAdd } from '../../src/core/faults/fault-rules.ts'

const key = 'faults-bench-key'
const local = { clientAddress: '127.0.0.1' }
const control = (method: string, body?: unknown) =>
  new Request('http://localhost/__sim/faults', {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  })
const rules = (count: number, status = 503) => Array.from({ length: count }, () => ({ operation: 'listPets', status, probability: 1e-9 }))

/** Median ms of `rounds` runs of `run`. */
async function medianMs(run: () => Promise<unknown>, rounds = 9, setup = async () => {}): Promise<number> {
  const times: number[] = []
  for (let round = 0; round < rounds; round++) {
    await setup()
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]!
}

const app = createApp({ keys: { [key]: 'enterprise:1000000000/1000000000' }, ban: false })
const fill = async (count: number) => {
  await app.fetch(control('DELETE'), local)
  for (let sent = 0; sent < count; sent += maxFaultRulesPerAdd) {
    const response = await app.fetch(control('POST', rules(Math.min(maxFaultRulesPerAdd, count - sent))), local)
    if (response.status !== 201) throw new Error(`filling: ${response.status} ${await response.text()}`)
  }
}
const listPets = () => app.fetch(new Request('http://localhost/v1/pets?limit=20', { headers: { authorization: `Bearer ${key}` } }))

await fill(maxFaultRules - maxFaultRulesPerAdd)
const refused = [...rules(maxFaultRulesPerAdd - 1), { status: 99 }]
const refuseMs = await medianMs(async () => {
  const response = await app.fetch(control('POST', refused), local)
  const body = await response.json()
  if (body.code !== 'invalid_body') throw new Error(`expected invalid_body, got ${JSON.stringify(body)}`)
})
const acceptMs = await medianMs(
  async () => {
    const response = await app.fetch(control('POST', rules(maxFaultRulesPerAdd)), local)
    if (response.status !== 201) throw new Error(`expected 201, got ${response.status}`)
  },
  9,
  () => fill(maxFaultRules - maxFaultRulesPerAdd),
)
const overMs = await medianMs(async () => {
  const response = await app.fetch(control('POST', rules(maxFaultRulesPerAdd + 1)), local)
  if (response.status !== 400) throw new Error(`expected 400, got ${response.status}`)
})

const perRequest = async () => {
  const calls = 2000
  return (
    (await medianMs(async () => {
      for (let call = 0; call < calls; call++) await listPets()
    }, 5)) *
    (1000 / calls)
  )
}
await app.fetch(control('DELETE'), local)
const noRulesUs = await perRequest()
await fill(maxFaultRules)
const fullUs = await perRequest()

console.log(`fault rules (caps: ${maxFaultRules} in force, ${maxFaultRulesPerAdd} per request), median of runs:`)
console.log(
  `  POST of ${maxFaultRulesPerAdd} rules, the last invalid, ${maxFaultRules - maxFaultRulesPerAdd} in force: ${refuseMs.toFixed(2)} ms (400 invalid_body)`,
)
console.log(`  POST of ${maxFaultRulesPerAdd} valid rules, ${maxFaultRules - maxFaultRulesPerAdd} in force: ${acceptMs.toFixed(2)} ms`)
console.log(`  POST of ${maxFaultRulesPerAdd + 1} rules: ${overMs.toFixed(2)} ms (400 too_many_faults)`)
console.log(
  `  GET /v1/pets?limit=20 with no rules: ${noRulesUs.toFixed(1)} µs; with ${maxFaultRules} matching rules that do not fire: ${fullUs.toFixed(1)} µs`,
)
