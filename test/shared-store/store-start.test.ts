import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNodeApp } from '../../src/node.ts'
import { connectStore, StoreStartError, type StoreHealth } from '../../src/node/shared-store/connect-store.ts'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'

// A store that cannot be used is a one-line error at start, starting with what was given: never a silent fall-back.
let redis: RedisServer
beforeAll(async () => {
  redis = await startRedisServer()
})
afterAll(async () => {
  await redis?.stop()
})

async function startError(options: Parameters<typeof connectStore>[0]): Promise<string> {
  const error = await connectStore(options).then(
    (store) => {
      void store.close()
      throw new Error('connected')
    },
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(StoreStartError)
  const { message } = error as StoreStartError
  expect(message).not.toContain('\n')
  return message
}

describe('start-up checks of the shared store', () => {
  it('refuses a URL it cannot read, hiding a password', async () => {
    expect(await startError({ url: 'http://127.0.0.1:6379' })).toBe(
      '--store http://127.0.0.1:6379: http:// is not a store: give redis://, rediss:// or unix://',
    )
    expect(await startError({ url: 'redis://127.0.0.1:6379/x' })).toMatch(
      /^--store redis:\/\/127\.0\.0\.1:6379\/x: the database must be a number/,
    )
    expect(await startError({ url: 'not a url' })).toMatch(/^--store not a url: not a URL/)
    expect(await startError({ url: 'unix:///' })).toMatch(/needs the socket path/)
  })

  it('waits for an unreachable store with backoff, then names the cause', async () => {
    const retries: string[] = []
    const message = await startError({
      url: 'unix:///nonexistent/petstore-sim.sock',
      waitMs: 600,
      onRetry: (attempt, cause) => retries.push(`${attempt} ${cause}`),
    })
    expect(message).toBe('--store unix:///nonexistent/petstore-sim.sock: cannot connect (ENOENT) for 0.6 s')
    expect(retries.length).toBeGreaterThanOrEqual(2)
    expect(retries[0]).toBe('1 ENOENT')
    const password = await startError({ url: 'redis://user:secret@127.0.0.1:1/0', waitMs: 0 })
    expect(password).toBe('--store redis://user:***@127.0.0.1:1/0: cannot connect (ECONNREFUSED) for 0 s')
    // Issue 45, Low 14: a password holding `/` is read as written, and hidden in every message.
    const slash = await startError({ url: 'redis://user:se/cr@et@127.0.0.1:1/0', waitMs: 0 })
    expect(slash).toBe('--store redis://user:***@127.0.0.1:1/0: cannot connect (ECONNREFUSED) for 0 s')
    const unreadable = await startError({ url: 'redis://user:se/cr@et@127.0.0.1:1/db', waitMs: 0 })
    expect(unreadable).toMatch(/^--store redis:\/\/user:\*\*\*@127\.0\.0\.1:1\/db: the database must be a number/)
  })

  it('refuses a store holding another format of data, and takes another namespace on the same server', async () => {
    redis.cli('SET', 'other-format:format', '2')
    expect(await startError({ url: redis.socketUrl, namespace: 'other-format' })).toBe(
      `--store unix://${redis.socketPath}: the store holds data of petstore-sim's store format 2; this version reads format 1: use another --store-namespace or clear it`,
    )
    const store = await connectStore({ url: redis.socketUrl, namespace: 'fresh' })
    expect(store.display).toBe(`unix://${redis.socketPath}`)
    const health: StoreHealth = store.health()
    expect(health).toEqual({ ready: true })
    await store.close()
    expect(redis.cli('GET', 'fresh:format')).toBe('1')
  })

  it('refuses to join a store whose simulator was made with other options', async () => {
    const first = await connectStore({ url: redis.socketUrl, namespace: 'options' })
    await first.attach(createNodeApp({ ...first.appOptions, seed: 1 }))
    const second = await connectStore({ url: redis.socketUrl, namespace: 'options' })
    const error = await second.attach(createNodeApp({ ...second.appOptions, seed: 2 })).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StoreStartError)
    expect((error as Error).message).toMatch(/^--store unix:\/\/.*: the store holds a simulator made with other options/)
    await Promise.all([first.close(), second.close()])
  })

  // Issue 45, Low 11: an instance with --sandbox-idle 2s --max-sandboxes 2 joined one with 30m/50 and swept its
  // sandboxes. Every option that changes what the fleet shares is in the fingerprint.
  it.each([
    ['--sandbox-idle', { sandboxes: { idleMs: 2000 } }],
    ['--max-sandboxes', { sandboxes: { max: 2 } }],
    ['no sandboxes', { sandboxes: false }],
    ['the journal body cap', { journalBodyCapBytes: 1024 }],
    ['the journal byte budget', { journalMaxBytes: 1024 * 1024 }],
    ['the deprecation dates', { deprecation: { sunsetAt: Date.UTC(2031, 0, 1) } }],
    ['the fault rules at start', { faults: [{ operation: 'listPets', status: 503 }] }],
  ] as const)('refuses to join a store whose simulator was made with other %s', async (_name, other) => {
    const namespace = `options-${_name.replace(/[^a-z]+/g, '-')}`
    const first = await connectStore({ url: redis.socketUrl, namespace })
    await first.attach(createNodeApp({ ...first.appOptions }))
    const second = await connectStore({ url: redis.socketUrl, namespace })
    const error = await second.attach(createNodeApp({ ...second.appOptions, ...other })).catch((caught: unknown) => caught)
    await Promise.all([first.close(), second.close()])
    expect(error).toBeInstanceOf(StoreStartError)
    expect((error as Error).message).toMatch(/^--store unix:\/\/.*: the store holds a simulator made with other options/)
    expect((error as Error).message).not.toContain('\n')
  })

  it('joins a store whose simulator was made with the same options', async () => {
    const same = { sandboxes: { idleMs: 2000, max: 2 }, journalBodyCapBytes: 1024, seed: 4 }
    const first = await connectStore({ url: redis.socketUrl, namespace: 'options-same' })
    await first.attach(createNodeApp({ ...first.appOptions, ...same }))
    const second = await connectStore({ url: redis.socketUrl, namespace: 'options-same' })
    const joined = await second.attach(createNodeApp({ ...second.appOptions, ...same })).then(() => 'joined')
    await Promise.all([first.close(), second.close()])
    expect(joined).toBe('joined')
  })

  it('refuses a server that refuses Lua scripts', async () => {
    const noLua = await startRedisServer({ extraArgs: ['--rename-command', 'EVAL', '', '--rename-command', 'EVALSHA', ''] })
    try {
      expect(await startError({ url: noLua.socketUrl })).toMatch(
        /^--store unix:\/\/.*: the server refuses Lua scripts \(EVAL: ERR unknown command .*\): the shared store needs EVAL and EVALSHA$/,
      )
    } finally {
      await noLua.stop()
    }
  })
})
