export { createSimulator, demoKeySpec, resolveBaseUrl, type Simulator, type SimulatorOptions } from './simulator.ts'
export { createSimulatorCore, type SimulatorCore } from './core/simulator-core.ts'
export { defaults } from './core/defaults.ts'
export { ApiError, type ErrorBody } from './core/api-error.ts'
export { errorCatalogue, type ErrorCode } from './core/error-codes.ts'
export { createManualClock, createSimulatorClock, systemClock } from './core/clock.ts'
export type { Clock, Instant, ManualClock, SimulatorClock } from './core/clock.ts'
export { createKeyRing, type ApiKey, type KeyRing, type KeySpec } from './core/api-keys.ts'
export { anonymousPlan, formatPlan, parsePlan, standardPlans, type Plan, type PlanName } from './core/plans.ts'
export { createRateLimiter, type BanPolicy, type RateLimitDecision, type RateLimiter } from './core/rate-limiter.ts'
export { createPetStore, type PetQuery, type PetStore, type PetStoreOptions } from './core/pet-store.ts'
export { generatePets } from './core/seed-pets.ts'
export { parseFixturePets } from './core/fixture-pets.ts'
export { getPetDeprecation, type DeprecationPolicy } from './core/deprecation.ts'
export { createRequestJournal, type JournalEntry, type RecordedRequest, type RequestJournal } from './core/request-journal.ts'
export { defaultLimit, maxLimit, minLimit } from './core/request-parsing.ts'
export { apiRoutes, type ApiRouteDefinition, type OperationName } from './core/api-routes.ts'
export type { PlainRequest, PlainResponse, TransportFacts } from './core/plain-http.ts'
export type { Latency } from './core/simulator-state.ts'
export {
  ErrorBodySchema,
  NewPetSchema,
  PetSchema,
  PetsSchema,
  PetStatusSchema,
  petStatuses,
  type NewPet,
  type Pet,
  type PetStatus,
} from './core/schemas.ts'
export { createApp, type App, type AppOptions } from './app/app.ts'
export { controlPath, type ControlOptions } from './app/control-plane.ts'
export { exposedHeaders } from './app/cors.ts'
export type { OpenApiDocumentSource } from './app/openapi-route.ts'
export { createApiHandlers } from './handlers/api-handlers.ts'
export { createControlHandlers } from './handlers/control-handlers.ts'
export { createDocumentHandlers } from './handlers/document-handlers.ts'
