/**
 * petstore-sim's Node.js transport: the simulator over `node:http`, as a
 * server or a connect-style middleware, and what only Node can read (the
 * OpenAPI document from disk, a state file). The types these share with the
 * in-process API (`App`, `AppOptions`, `SimulatorOptions`…) come from
 * `petstore-sim`; `App` and `AppOptions` are here too, for the servers'
 * options. The whole surface is `api-report/petstore-sim-node.api.md`.
 *
 * @example
 * import { createNodeApp, startServer } from 'petstore-sim/node'
 * const running = await startServer({ app: createNodeApp({ seed: 7 }), port: 0 })
 * console.log(running.apiUrl) // http://127.0.0.1:<port>/v1
 */
export { createNodeApp } from './node/node-app.ts'
export type { App, AppOptions } from './app/app.ts'
export type { SandboxOptions } from './app/sandboxes.ts'
export { createMiddleware, createRequestListener, type ListenerOptions, type NodeListener } from './node/request-listener.ts'
export {
  createServer,
  startServer,
  type RunningServer,
  type ServerOptions,
  type SimulatorServer,
  type StartServerOptions,
} from './node/server.ts'
export type { Engine } from './node/lane-types.ts'
export type { LogFormat, LogLevel, RequestLogger, RequestLogRecord } from './node/request-log.ts'
export { readOpenApiDocument } from './node/openapi-document.ts'
export { StateFileError, type StateFileOptions } from './node/state-file.ts'
