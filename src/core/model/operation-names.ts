/**
 * The API's operations, by the spec's names (the OpenAPI document's `operationId`s), in the route table's order.
 * Declared here, below every floor that names them (the journal's `operation=` filter, its types), so that nothing
 * under `operations/` imports the route table from above; `operations/api-routes.ts` has exactly one route per name,
 * in this order, which the compiler checks there.
 */
export const operationNames = ['listPets', 'createPet', 'getPet', 'listOrders'] as const

export type OperationName = (typeof operationNames)[number]
