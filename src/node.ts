/**
 * petstore-sim's Node.js transport: the simulator over `node:http`, as a
 * server or a connect-style middleware.
 *
 * @example
 * import { startServer } from 'petstore-sim/node'
 * const running = await startServer({ port: 0 })
 * console.log(running.apiUrl) // http://127.0.0.1:<port>/v1
 */
export {
  createMiddleware,
  createRequestListener,
  createServer,
  startServer,
  type NodeServerOptions,
  type RunningServer,
  type StartServerOptions,
} from './node/server.ts'
export { defaultBodyLimit } from './node/node-adapter.ts'
export { createRequestLogger, logFormats, type LogFormat, type RequestLogger, type RequestLogRecord } from './node/request-log.ts'
export { createApp, type App, type AppOptions } from './server/app.ts'
export { controlPath, createControlHandlers, type ControlOptions } from './http/control-handlers.ts'
export { openApiDocumentPath, readOpenApiDocument } from './node/openapi-document.ts'
export type { OpenApiDocumentSource } from './http/document-handlers.ts'
