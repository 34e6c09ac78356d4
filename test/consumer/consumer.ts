// A user's TypeScript project, with plain settings, importing the built package by name.
import {
  createSimulator,
  type JournalPage,
  type Pet,
  type ReconfigurableOptions,
  type ScenarioSummary,
  type SimulatorStatus,
  type StateSnapshot,
} from 'petstore-sim'
import { createNodeApp, readOpenApiDocument, startServer } from 'petstore-sim/node'
import { verify, type VerifyReport } from 'petstore-sim/verify'

const simulator = createSimulator({ seed: 1 })
// generatePet is typed without faker's own types (users need not have faker installed).
createSimulator({ seed: 1, generatePet: ({ faker, pet }) => ({ ...pet, name: faker.helpers.arrayElement(['Rex', 'Tom']) }) })
simulator.clock.advance(1000)
export const pets: Pet[] = simulator.store.list({ limit: 2 })
export const running = startServer({ port: 0 }).then((server) => server.apiUrl)
export const nodeApp = createNodeApp({ seed: 1 })
export const title = readOpenApiDocument().then((source) => source.document)
export const report: Promise<VerifyReport> = verify({ baseUrl: 'http://127.0.0.1:4010/v1', key: 'demo-free-key', plan: 'pro' })
// What the simulator's calls return and take, each by its exported name.
export const snapshot: StateSnapshot = simulator.snapshot()
export const status: SimulatorStatus = simulator.state()
export const page: JournalPage = simulator.journal.page({ operation: 'listPets' })
export const scenarios: ScenarioSummary[] = simulator.scenarios()
const reload: ReconfigurableOptions = { seed: 2, pets: 3 }
simulator.reconfigure(reload)
// @ts-expect-error: building blocks are not part of the API
export { createPetStore } from 'petstore-sim'
// @ts-expect-error: a misspelt option is a type error for users
createSimulator({ sed: 1 })
