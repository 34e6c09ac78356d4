import type { ApiTarget } from './api-target.ts'
import { startCliTarget } from './cli-target.ts'
import { startRedisServer } from './redis-server.ts'

/**
 * The real CLI on a shared store (`--store`, issue 40): a Redis started for this target alone, reached on its Unix
 * socket, and a namespace of the target's own; both stop with the target. With `sandbox`, the API of that sandbox, as
 * `CLI sandbox` is. The scenarios are the same as every target's: a store-backed simulator answers as one in memory.
 */
export async function startStoreCliTarget(sandbox?: string): Promise<ApiTarget & { close(): Promise<unknown> }> {
  const server = await startRedisServer()
  try {
    const target = await startCliTarget(['--store', server.socketUrl, '--store-namespace', 'matrix-target'], sandbox)
    return {
      ...target,
      async close() {
        await target.close()
        await server.stop()
      },
    }
  } catch (error) {
    await server.stop()
    throw error
  }
}
