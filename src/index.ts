/**
 * petstore-sim: the Animal Store API simulated in-process, in any runtime (Node, browsers, workers). What a test
 * calls: `createSimulator` (MSW handlers and a `fetch`) or `createApp` (the app with its control endpoints, as a
 * `fetch(request)`), the MSW handlers of the control endpoints and the OpenAPI document, and every type those take
 * or return. The core's building blocks (the store, the limiter, the journal's factory…) stay internal: a rename
 * of theirs is no change to this API. The whole surface is `api-report/petstore-sim.api.md`, listed in docs/api.md.
 *
 * The bundles keep this comment, so it holds no import statement: the browser build's import check reads them.
 */
import { publicSchemas } from './core/model/schemas.ts'

// The simulator and what it is made with.
export { createSimulator, demoKeySpec, type Simulator, type SimulatorFetch, type SimulatorOptions } from './simulator.ts'
export type { ReconfigurableOptions, SimulatorCore } from './core/simulator/simulator-options.ts'
export { defaults } from './core/defaults.ts'
export { createManualClock } from './core/time/clock.ts'
export type { Clock, ClockSetting, Instant, ManualClock, SimulatorClock } from './core/time/clock.ts'
export type { ApiKey, KeySpec } from './core/access/api-keys.ts'
export { standardPlans, type Plan, type PlanName } from './core/access/plans.ts'
export type { BanPolicy, BucketRecord } from './core/access/rate-limiter.ts'
export type { PetQuery, PetStore } from './core/catalogue/pet-store.ts'
export type { GeneratePet, PetGeneratorContext } from './core/catalogue/seed-pets.ts'
export type { PetFaker } from './core/catalogue/pet-faker.ts'
export type { DeprecationPolicy } from './core/operations/deprecation.ts'
export type { Latency } from './core/operations/operation-context.ts'

// The spec's resources and errors.
export { petStatuses, type NewPet, type Pet, type PetStatus } from './core/model/pet-types.ts'
export type { OperationName } from './core/model/operation-names.ts'
export type { StandardSchemaV1 } from './core/model/standard-schema.ts'
/** Standard Schemas (https://standardschema.dev) of the API's bodies, the ones the simulator validates with. */
export const { ErrorBodySchema, NewPetSchema, PetSchema, PetsSchema, PetStatusSchema } = publicSchemas
export { ApiError, type ErrorBody } from './core/http/api-error.ts'
export { errorCatalogue, type ErrorCatalogue } from './core/http/error-catalogue.ts'
export type { ErrorCode } from './core/http/error-codes.ts'

// What the simulator shows: the journal, contract coverage, the client report, Pact, events, the status and snapshots, scenarios.
export type {
  JournalEntry,
  JournalPage,
  JournalPageOptions,
  JournalSummary,
  JournalUsage,
  JournalWaitOptions,
  RecordedRequest,
  RequestCounts,
  RequestJournal,
} from './core/journal/request-journal.ts'
export type { JournalBody, JournalRequest, JournalResponse } from './core/journal/journal-exchange.ts'
export type { JournalFilter, JournalOperation } from './core/journal/journal-filter.ts'
export type { HeaderMatch, JsonScalar, RequestPartsFilter } from './core/journal/journal-request-filter.ts'
export type { Har, HarEntry, HarNameValue } from './core/journal/journal-har.ts'
export type { AnswerOrigin, ContractCoverage, OperationCoverage, StatusCoverage } from './core/journal/contract-coverage.ts'
export type { ClientFinding, ClientGrade, ClientReport, ClientVerdict } from './core/grading/client-grader.ts'
export { clientRules, type ClientRule, type ClientRuleId, type ClientRuleSeverity } from './core/grading/client-rules.ts'
export type { ClientIgnore, ClientReportOptions } from './core/grading/client-report-options.ts'
export type { FixedPlanName, PlanAdvice } from './core/grading/plan-advisor.ts'
export { assertClientsCompliant } from './client-assertion.ts'
export type { PactBody } from './core/contract/pact-bodies.ts'
export type { Pact, PactInteraction, PactOptions } from './core/contract/pact-export.ts'
export type { PactProviderState } from './core/contract/pact-interaction.ts'
export type { PactMatcher, PactRuleSet } from './core/contract/pact-matching-rules.ts'
export type { PactExport } from './core/contract/pact-module.ts'
export type { SimulatorEvent, SimulatorEventListener, SimulatorEvents } from './core/simulator/simulator-events.ts'
export type { StoreMemory, WorldMemory } from './core/simulator/world-memory.ts'
export type { FaultKindStatus, KeyStatus, OperationStatus, SimulatorStatus, WindowStatus } from './core/state/simulator-status.ts'
export type { SnapshotReader, StateSnapshot } from './core/state/state-snapshot.ts'
export type { ScenarioDefinition, ScenarioSummary, ScenarioUsage } from './core/state/scenarios.ts'
export {
  applyProviderState,
  type MappedStates,
  type ProviderStateRequest,
  type ProviderStateResult,
} from './core/simulator/provider-states.ts'
export type { MappedProviderState, MappedProviderStates, MappedStep } from './core/simulator/mapped-provider-states.ts'
export type { ProviderStateParams } from './core/simulator/provider-state-params.ts'

// Fault rules.
export { parseFaultText } from './core/faults/fault-text.ts'
export type { FaultRule, FaultRuleInput, FaultRules, TransportFault } from './core/faults/fault-rules.ts'

// The app (any runtime with Fetch) and the MSW handlers beyond the API's.
export { createApp, type App, type AppOptions } from './app/app.ts'
export type { SandboxOptions } from './app/sandboxes.ts'
export type { ControlOptions } from './app/control/control-route.ts'
export type { EventStreamOptions } from './app/dashboard/event-stream.ts'
export type { OpenApiDocumentSource } from './app/openapi-route.ts'
export type { PlainRequest, PlainResponse, ResponseStream, StreamSink, TransportFacts } from './core/http/plain-http.ts'
export { createControlHandlers } from './handlers/control-handlers.ts'
export { createDocumentHandlers } from './handlers/document-handlers.ts'
