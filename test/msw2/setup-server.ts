// `msw/node` for the tests run on msw 2 (vitest.msw2.config.ts): msw 2's own
// setupServer, with msw 3's listen option name translated (see unhandled-option.ts).
import { setupServer as setupServerOfMsw2 } from 'msw-2-under-test/node'
import { toMsw2Options } from './unhandled-option.ts'

export * from 'msw-2-under-test/node'

export function setupServer(...handlers: Parameters<typeof setupServerOfMsw2>): ReturnType<typeof setupServerOfMsw2> {
  const server = setupServerOfMsw2(...handlers)
  const listen = server.listen.bind(server)
  server.listen = (options) => listen(toMsw2Options(options))
  return server
}
