// A user's TypeScript project, with plain settings, importing the built package by name.
import { createSimulator, type Pet } from 'petstore-sim'
import { createApp, createNodeApp, readOpenApiDocument, startServer } from 'petstore-sim/node'
import { verify, type VerifyReport } from 'petstore-sim/verify'

const simulator = createSimulator({ seed: 1 })
// generatePet is typed without faker's own types (users need not have faker installed).
createSimulator({ seed: 1, generatePet: ({ faker, pet }) => ({ ...pet, name: faker.helpers.arrayElement(['Rex', 'Tom']) }) })
simulator.clock.advance(1000)
export const pets: Pet[] = simulator.store.list({ limit: 2 })
export const running = startServer({ port: 0 }).then((server) => server.apiUrl)
export const nodeApp = createNodeApp({ seed: 1 })
// The 0.x name, deprecated but still exported with the same type.
export const legacyApp: typeof nodeApp = createApp({ seed: 1 })
export const title = readOpenApiDocument().then((source) => source.document)
export const report: Promise<VerifyReport> = verify({ baseUrl: 'http://127.0.0.1:4010/v1', key: 'demo-free-key', plan: 'pro' })
// @ts-expect-error: a misspelt option is a type error for users
createSimulator({ sed: 1 })
