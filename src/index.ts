export { createSimulator, demoKeySpec, resolveBaseUrl, type Simulator, type SimulatorOptions } from './simulator.ts'
export { ApiError, type ErrorBody } from './core/api-error.ts'
export { errorCatalogue, type ErrorCode } from './core/error-codes.ts'
export { createManualClock, createSimulatorClock, systemClock } from './core/clock.ts'
export type { Clock, Instant, ManualClock, SimulatorClock } from './core/clock.ts'
export { createKeyRing, type ApiKey, type KeyRing, type KeySpec } from './core/api-keys.ts'
export { anonymousPlan, formatPlan, parsePlan, standardPlans, type Plan, type PlanName } from './core/plans.ts'
export { createRateLimiter, defaultBanPolicy, type BanPolicy, type RateLimitDecision, type RateLimiter } from './core/rate-limiter.ts'
export { createPetStore, type PetQuery, type PetStore, type PetStoreOptions } from './core/pet-store.ts'
export { defaultPetCount, defaultSeed, generatePets } from './core/seed-pets.ts'
export { parseFixturePets } from './core/fixture-pets.ts'
export { getPetDeprecation, type DeprecationPolicy } from './core/deprecation.ts'
export { createRequestJournal, type JournalEntry, type RequestJournal } from './core/request-journal.ts'
export { defaultLimit, maxLimit, minLimit } from './core/request-parsing.ts'
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
export type { Latency } from './http/api-context.ts'
export { createApp, type App, type AppOptions } from './server/app.ts'
export { controlPath, createControlHandlers, type ControlOptions } from './http/control-handlers.ts'
export { exposedHeaders } from './server/cors.ts'
export { createDocumentHandlers, type OpenApiDocumentSource } from './http/document-handlers.ts'
