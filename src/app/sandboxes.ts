import { ApiError } from '../core/http/api-error.ts'
import { isPromiseLike, type PlainRequest, type PlainResponse } from '../core/http/plain-http.ts'
import { createSandboxRegistry, type SandboxRegistry } from '../core/simulator/sandbox-registry.ts'
import type { Clock } from '../core/time/clock.ts'

/** Where every sandbox lives: `/sandboxes/<name>/v1/…` is its API, `/sandboxes/<name>/__sim/…` its control plane. */
export const sandboxPrefix = '/sandboxes/'

/** The header that names a sandbox (`X-Petstore-Sandbox: <name>`) when the app is created with `sandboxes.header`. */
export const sandboxHeaderName = 'x-petstore-sandbox'

/** The `sandboxes` option of `createApp` (docs/sharing.md). */
export interface SandboxOptions {
  /** The most sandboxes held at once; one more is 503 `too_many_sandboxes`; 0 turns them off. Default 50. */
  readonly max?: number | undefined
  /** How long a sandbox no request reaches is kept, in ms; the next request starts it fresh. Default 30 minutes. */
  readonly idleMs?: number | undefined
  /**
   * Whether `X-Petstore-Sandbox: <name>` picks a sandbox as its path does. Off by default: read on every request, the
   * header would cost the default world's requests a header lookup each; the path costs them one prefix check.
   */
  readonly header?: boolean | undefined
}

/** What a sandbox's world must be for the app: an app of its own, whose streams can be ended. */
export interface SandboxWorld {
  respond(request: PlainRequest): PlainResponse | Promise<PlainResponse>
  closeStreams(): void
}

/** The sandboxes of an app: the registry, and the requests for them answered by their own app. */
export interface Sandboxes<World extends SandboxWorld> {
  readonly registry: SandboxRegistry<World>
  readonly header: boolean
  /** Answers a request whose path starts with {@link sandboxPrefix}, by the sandbox it names (made now, unless `refuseNew` refuses). */
  respondByPath(request: PlainRequest): PlainResponse | Promise<PlainResponse>
  /** Answers a request that names its sandbox in the header. */
  respondByHeader(name: string, request: PlainRequest): PlainResponse | Promise<PlainResponse>
  closeStreams(): void
}

export function createSandboxes<World extends SandboxWorld>(
  create: (name: string) => World,
  options: SandboxOptions & {
    readonly clock?: Clock | undefined
    /** What the registry does at the cap (`createSandboxRegistry`): worlds in a shared store forget a copy. */
    readonly whenFull?: 'refuse' | 'forget-least-recent' | undefined
    /** Called with each world forgotten (deleted, expired, replaced), after its streams are ended. */
    readonly onForget?: ((world: World) => void) | undefined
    /**
     * The answer to a request that would make the sandbox `name` and may not (a foreign Host or page, a request the
     * simulator does not admit); undefined to make it. `request` is as the sandbox's app reads it (its control plane
     * under `/__sim`). A promise when the answer needs the shared store (whether the fleet has the sandbox).
     */
    readonly refuseNew?:
      | ((request: PlainRequest, name: string) => PlainResponse | Promise<PlainResponse | undefined> | undefined)
      | undefined
  },
): Sandboxes<World> {
  const registry = createSandboxRegistry({
    create,
    dispose(world) {
      world.closeStreams()
      options.onForget?.(world)
    },
    clock: options.clock,
    limits: options,
    whenFull: options.whenFull,
  })
  const header = options.header === true
  /**
   * The request answered by the sandbox's world, made now unless the request may not make one (then its refusal).
   * `request` is as the sandbox's app reads it.
   */
  function answer(name: string, request: PlainRequest): PlainResponse | Promise<PlainResponse> {
    const refusal = options.refuseNew === undefined || registry.find(name) !== undefined ? undefined : options.refuseNew(request, name)
    if (refusal === undefined) return registry.world(name).respond(request)
    if (!isPromiseLike(refusal)) return refusal
    return refusal.then((refused) => refused ?? registry.world(name).respond(request))
  }
  return {
    registry,
    header,
    respondByPath(request) {
      const { path } = request
      const end = path.indexOf('/', sandboxPrefix.length)
      const name = end === -1 ? path.slice(sandboxPrefix.length) : path.slice(sandboxPrefix.length, end)
      if (header) {
        const named = request.header(sandboxHeaderName)
        if (named !== undefined && named !== name)
          throw new ApiError(
            'sandbox_conflict',
            `The path names the sandbox ${JSON.stringify(name)} and X-Petstore-Sandbox names ${JSON.stringify(named)}: name one, or the same in both`,
          )
      }
      const rest = end === -1 ? '/' : path.slice(end)
      // The API keeps its whole path: the sandbox's simulator is under `/sandboxes/<name>/v1`, so its `Location`, journal
      // and HAR say where the client sent it. Its control plane, OpenAPI document and root are its own `/__sim`, `/openapi.*`, `/`.
      return answer(name, isOwnPath(rest) ? within(request, rest) : request)
    },
    respondByHeader(name, request) {
      return answer(name, isOwnPath(request.path) ? request : within(request, `${sandboxPrefix}${name}${request.path}`))
    },
    closeStreams() {
      for (const { world } of registry.list()) world.closeStreams()
    },
  }
}

/** The paths a sandbox's app serves as its own, without the sandbox's prefix: its control plane, OpenAPI document and root. */
function isOwnPath(path: string): boolean {
  return path === '/' || path === '/__sim' || path.startsWith('/__sim/') || path.startsWith('/openapi.')
}

/** The request as its sandbox's app reads it: the same request under the path after `/sandboxes/<name>`. */
function within(request: PlainRequest, path: string): PlainRequest {
  // Delegating, not spreading: a lane's request (the Node lane's view) reads its headers and body through private fields.
  return {
    method: request.method,
    path,
    query: request.query,
    authority: request.authority,
    scheme: request.scheme,
    header: (name) => request.header(name),
    ...(request.headerList === undefined ? {} : { headerList: () => request.headerList!() }),
    readBody: () => request.readBody(),
    transport: request.transport,
    signal: request.signal,
  }
}
