import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A loopback port nothing listens on: bound, then closed. Also a port free now, for a server that cannot take port 0. */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
