import { createServer, type RequestListener, type Server } from 'node:http'
import { afterEach } from 'vitest'

/**
 * Plain `node:http` hosts for a test file (an express app, a connect-style
 * stack), on 127.0.0.1 and a free port, all closed after each test.
 *
 * @example
 * const listen = useTestHosts()
 * const origin = await listen((request, response) => response.end('ok'))
 */
export function useTestHosts(): (listener: RequestListener) => Promise<string> {
  const hosts: Server[] = []
  afterEach(async () => {
    await Promise.all(
      hosts.splice(0).map((host) => {
        host.closeAllConnections()
        return new Promise((resolve) => host.close(resolve))
      }),
    )
  })
  return async (listener) => {
    const host = createServer(listener)
    hosts.push(host)
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(host.address() as { port: number }).port}`
  }
}
