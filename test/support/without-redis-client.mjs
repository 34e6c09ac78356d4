// Preloaded with --import by the CLI test of a missing Redis client: resolving `ioredis` fails as it does in a project
// that did not install the optional peer dependency (Node's own error code and message).
import { registerHooks } from 'node:module'

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'ioredis' || specifier.startsWith('ioredis/')) {
      const error = new Error(`Cannot find package 'ioredis' imported from ${context.parentURL}`)
      error.code = 'ERR_MODULE_NOT_FOUND'
      throw error
    }
    return nextResolve(specifier, context)
  },
})
