import type { TransportFault } from '../http/fault-kinds.ts'

// Declared plainly, apart from the schema, so that the package's type declarations never import zod.
/** A fault rule as given (`fault-rule-schema.ts` says what each field means). */
export interface FaultRuleInput {
  operation?: string | undefined
  method?: string | undefined
  path?: string | undefined
  key?: string | undefined
  status?: number | undefined
  fault?: TransportFault | undefined
  delay?: number | { min: number; max: number } | undefined
  times?: number | undefined
  probability?: number | undefined
  hangMs?: number | undefined
}
