/**
 * petstore-sim's Node.js transport: the simulator over `node:http`, as a
 * server or a connect-style middleware.
 *
 * @example
 * import { createNodeApp, startServer } from 'petstore-sim/node'
 * const running = await startServer({ app: createNodeApp({ seed: 7 }), port: 0 })
 * console.log(running.apiUrl) // http://127.0.0.1:<port>/v1
 */
export { createNodeApp, createApp } from './node/node-app.ts'
export { createMiddleware, createRequestListener, type ListenerOptions } from './node/request-listener.ts'
export { createServer, startServer, type RunningServer, type StartServerOptions } from './node/server.ts'
export type { App, AppOptions } from './app/app.ts'
export { engines, type Engine } from './node/lane-types.ts'
export { createRequestLogger, logFormats, type LogFormat, type RequestLogger, type RequestLogRecord } from './node/request-log.ts'
export { controlPath, type ControlOptions } from './app/control/control-plane.ts'
export { openApiDocumentPath, readOpenApiDocument } from './node/openapi-document.ts'
export { StateFileError, type StateFileOptions } from './node/state-file.ts'
export type { OpenApiDocumentSource } from './app/openapi-route.ts'
