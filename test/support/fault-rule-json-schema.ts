import * as z from 'zod/mini'
import { faultRuleSchema } from '../../src/core/faults/fault-rule-schema.ts'

/**
 * The fault rule's JSON Schema as zod writes it from the one schema `POST /__sim/faults` checks with, without the
 * dialect (the control document declares 2020-12 once) and zod's own `starts_with` format (its `pattern` says it):
 * what `fixtures/fault-rule.schema.json` must hold (test/control-document/control-document.test.ts).
 */
export function faultRuleJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(faultRuleSchema(), { unrepresentable: 'any' }) as Record<string, unknown>
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === 'format' && value === 'starts_with' ? undefined : value)))
}
