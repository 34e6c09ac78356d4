// For the in-process bench's msw 2 lane: every `msw` specifier (the bench's and the built simulator's) resolves to the
// msw 2 installed under an npm alias (package.json: msw-2-latest), as in a project on msw 2.
import { registerHooks } from 'node:module'

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'msw' || specifier.startsWith('msw/')) return nextResolve(`msw-2-latest${specifier.slice(3)}`, context)
    return nextResolve(specifier, context)
  },
})
