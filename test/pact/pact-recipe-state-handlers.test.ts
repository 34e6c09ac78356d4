import { stripTypeScriptTypes } from 'node:module'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createNodeApp } from '../../src/node/node-app.ts'
import { startServer, type RunningServer } from '../../src/node/server.ts'
import { fencedBlocks } from '../support/docs-blocks.ts'

// Issue 36, item 2: docs/pact.md's recipe for Pact 17 posts each state to the simulator from `stateHandlers`. Its
// handler put the recipe's key in place of <API_KEY> but kept the pact's `plan`: a pact recorded with a Free key
// (the README's demo key) then asked for "demo-pro-key of plan free", which the simulator refuses with a 400, and the
// 429's interaction failed. The handler is run here as the page shows it.

let simulator: RunningServer
beforeAll(async () => {
  simulator = await startServer({ app: createNodeApp({ seed: 7 }), port: 0, host: '127.0.0.1', log: 'silent' })
})
afterAll(async () => {
  await simulator.close()
})

type StateHandler = { setup: (params?: unknown) => Promise<void>; teardown: (params?: unknown) => Promise<void> }

/** The page's `onSimulator`, with its `simulator` and `key` pointing at this test's simulator and a key it knows. */
function pageStateHandler(key: string): (state: string) => StateHandler {
  const [recipe] = fencedBlocks(new URL('../../docs/pact.md', import.meta.url), '## Your pacts against the simulator', 'ts')
  const code = recipe!.slice(recipe!.indexOf('const onSimulator'), recipe!.indexOf('await new Verifier'))
  expect(code).toMatch(/^const onSimulator = /)
  const javascript = stripTypeScriptTypes(code)
  return new Function('simulator', 'key', `${javascript}\nreturn onSimulator`)(simulator.url, key) as (state: string) => StateHandler
}

it.each([
  ['a Free key (the README demo key)', 'free'],
  ['a Pro key', 'pro'],
  ['no plan recorded', undefined],
])("the page's state handler spends the key's minute for a pact recorded with %s", async (_name, plan) => {
  const key = 'demo-pro-key'
  const handler = pageStateHandler(key)('the key {key} has no requests left this minute')
  await handler.setup({ key: '<API_KEY>', ...(plan === undefined ? {} : { plan }) })
  const answer = await fetch(`${simulator.apiUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })
  expect(answer.status).toBe(429)
  await handler.teardown({ key: '<API_KEY>', ...(plan === undefined ? {} : { plan }) })
})
