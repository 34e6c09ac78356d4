import { ApiError } from '../../core/http/api-error.ts'
import { jsonResponse } from '../../core/http/plain-http.ts'
import { FaultRuleLimitError, type FaultRuleInput } from '../../core/faults/fault-rules.ts'
import type { SimulatorCore } from '../../core/simulator/simulator-core.ts'
import { readJson } from './control-body.ts'
import type { ControlRoute } from './control-route.ts'
import { anyObject, arrayOf, object, ok, string } from './control-doc.ts'
import faultRuleBody from '../../../fixtures/fault-rule.schema.json' with { type: 'json' }

/**
 * The fault rules: `GET /__sim/faults`, `POST /__sim/faults` (one rule or an array: 201 with their ids),
 * `DELETE /__sim/faults/{id}`, `DELETE /__sim/faults`.
 */
export function faultRoutes(simulator: SimulatorCore): ControlRoute[] {
  return [
    {
      method: 'GET',
      path: '/faults',
      name: 'faults',
      doc: { summary: 'The fault rules in force', responses: ok('The rules', object({ faults: arrayOf(anyObject) })) },
      resolve: () => jsonResponse({ faults: simulator.faults.list() }, 200),
    },
    {
      method: 'POST',
      path: '/faults',
      name: 'addFaults',
      doc: {
        summary: 'Adds one fault rule or an array of them, all or nothing',
        body: { anyOf: [faultRuleBody, { type: 'array', items: faultRuleBody }] },
        responses: {
          '201': {
            description: 'Added: their ids, and every rule in force',
            schema: object({ ids: arrayOf(string), faults: arrayOf(anyObject) }),
          },
        },
      },
      async resolve(request) {
        const body = await readJson(request)
        let ids: string[]
        try {
          // All or nothing, checked whole before anything is added (fault-rules.ts), within the caps it names.
          ids = Array.isArray(body) ? simulator.faults.addAll(body as FaultRuleInput[]) : [simulator.faults.add(body as FaultRuleInput)]
        } catch (error) {
          if (error instanceof FaultRuleLimitError) throw new ApiError('too_many_faults', error.message)
          throw new ApiError('invalid_body', (error as Error).message)
        }
        return jsonResponse({ ids, faults: simulator.faults.list() }, 201)
      },
    },
    {
      method: 'DELETE',
      path: '/faults',
      name: 'clearFaults',
      doc: { summary: 'Removes every fault rule', responses: ok('Removed', object({ faults: { type: 'array', maxItems: 0 } })) },
      resolve() {
        simulator.faults.clear()
        return jsonResponse({ faults: [] }, 200)
      },
    },
    {
      method: 'DELETE',
      path: '/faults/{id}',
      name: 'removeFault',
      doc: { summary: 'Removes one fault rule', responses: ok('Removed: the rules left', object({ faults: arrayOf(anyObject) })) },
      resolve(_request, id) {
        if (id === undefined || !simulator.faults.remove(id)) throw new ApiError('fault_not_found', `No fault rule has the id ${id ?? ''}`)
        return jsonResponse({ faults: simulator.faults.list() }, 200)
      },
    },
  ]
}
