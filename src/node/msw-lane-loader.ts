import type { App } from '../app/app.ts'
import type { Engine, FetchLane } from './lane-types.ts'
import type { RequestHandler } from 'msw'

/**
 * Loads the msw lane (`handlers/msw-lane.ts`) for the servers that use it
 * (`handlers`, `engine: 'msw'`). msw is imported here, dynamically, and only
 * then: the direct lane never loads it (a test reads this file for the
 * import, and checks that no static import reaches msw from the CLI).
 */
export async function loadMswLane(
  app: App,
  options: { readonly handlers?: readonly RequestHandler[] | undefined; readonly engine?: Engine | undefined },
): Promise<FetchLane> {
  const { createMswLane } = await import('../handlers/msw-lane.ts')
  return createMswLane({ app, handlers: options.handlers, engine: options.engine ?? 'direct' })
}
