// What `zod.cjs` holds (rolldown.config.ts): the part of zod/mini the package uses (`core/model/zod-api.ts`), which
// `node/zod-on-demand.ts` loads, as CommonJS so that Node can `require` it synchronously on every supported version.
export * from '../core/model/zod-api.ts'
