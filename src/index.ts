import { publicSchemas } from './core/model/schemas.ts'
export { createSimulator, demoKeySpec, resolveBaseUrl, type Simulator, type SimulatorFetch, type SimulatorOptions } from './simulator.ts'
export { createSimulatorCore, type SimulatorCore } from './core/simulator/simulator-core.ts'
export { defaults } from './core/defaults.ts'
export { ApiError, type ErrorBody } from './core/http/api-error.ts'
export { errorCatalogue, type ErrorCatalogue } from './core/http/error-catalogue.ts'
export type { ErrorCode } from './core/http/error-codes.ts'
export { createManualClock, createSimulatorClock, systemClock } from './core/time/clock.ts'
export type { Clock, Instant, ManualClock, SimulatorClock } from './core/time/clock.ts'
export { createKeyRing, type ApiKey, type KeyRing, type KeySpec } from './core/access/api-keys.ts'
export { anonymousPlan, formatPlan, parsePlan, standardPlans, type Plan, type PlanName } from './core/access/plans.ts'
export {
  createRateLimiter,
  type AnonymousUsage,
  type BanPolicy,
  type CallerUsage,
  type RateLimitDecision,
  type RateLimiter,
  type WindowUsage,
} from './core/access/rate-limiter.ts'
export { createPetStore, type PetQuery, type PetStore, type PetStoreOptions } from './core/catalogue/pet-store.ts'
export {
  generatePets,
  type GeneratePet,
  type GeneratePetsOptions,
  type PetGeneratorContext,
} from './core/catalogue/seed-pets.ts'
export type { PetFaker } from './core/catalogue/pet-faker.ts'
export { parseFixturePets } from './core/catalogue/fixture-pets.ts'
export { getPetDeprecation, type DeprecationPolicy } from './core/operations/deprecation.ts'
export {
  createRequestJournal,
  type JournalEntry,
  type JournalSummary,
  type JournalUsage,
  type RecordedRequest,
  type RequestCounts,
  type JournalWaitOptions,
  type RequestJournal,
} from './core/journal/request-journal.ts'
export type { JournalBody, JournalRequest, JournalResponse } from './core/journal/journal-exchange.ts'
export type { JournalFilter, JournalOperation } from './core/journal/journal-filter.ts'
export type { Har, HarEntry } from './core/journal/journal-har.ts'
export {
  coverageMarkdown,
  coverageSummary,
  type AnswerOrigin,
  type ContractCoverage,
  type OperationCoverage,
  type StatusCoverage,
} from './core/journal/contract-coverage.ts'
export type { SimulatorEvent, SimulatorEventListener, SimulatorEvents } from './core/simulator/simulator-events.ts'
export type {
  FaultKindStatus,
  KeyStatus,
  OperationStatus,
  SimulatorStatus,
  WindowStatus,
  FaultKindSnapshot,
  KeySnapshot,
  OperationSnapshot,
  SimulatorSnapshot,
  WindowSnapshot,
} from './core/state/simulator-status.ts'
export { defaultLimit, maxLimit, minLimit } from './core/operations/request-parsing.ts'
export { apiRoutes, type ApiRouteDefinition, type OperationName } from './core/operations/api-routes.ts'
export type { PlainRequest, PlainResponse, TransportFacts } from './core/http/plain-http.ts'
export type { Latency } from './core/operations/operation-context.ts'
export {
  faultOnlyStatuses,
  transportFaults,
  type FaultRule,
  type FaultRuleInput,
  type FaultRules,
  type TransportFault,
} from './core/faults/fault-rules.ts'
export { parseFaultText } from './core/faults/fault-text.ts'
export { petStatuses, type NewPet, type Pet, type PetStatus } from './core/model/pet-types.ts'
export type { StandardSchemaV1 } from './core/model/standard-schema.ts'
/** Standard Schemas (https://standardschema.dev) of the API's bodies, the ones the simulator validates with. */
export const { ErrorBodySchema, NewPetSchema, PetSchema, PetsSchema, PetStatusSchema } = publicSchemas
export { createApp, type App, type AppOptions } from './app/app.ts'
export { controlPath, type ControlOptions } from './app/control/control-plane.ts'
export { applyProviderState, type ProviderStateRequest, type ProviderStateResult } from './core/simulator/provider-states.ts'
export type { Pact, PactInteraction, PactOptions } from './core/contract/pact-export.ts'
export { exposedHeaders } from './app/cors.ts'
export type { OpenApiDocumentSource } from './app/openapi-route.ts'
export { createApiHandlers } from './handlers/api-handlers.ts'
export { createControlHandlers } from './handlers/control-handlers.ts'
export { createDocumentHandlers } from './handlers/document-handlers.ts'
