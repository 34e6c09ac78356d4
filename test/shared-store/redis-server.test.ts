// The Redis the shared-store tests start (test/support/redis-server.ts) does what they take it to do: a paused server
// holds connections and answers nothing, a killed one is gone with its data, a restarted one is back and empty on
// the same socket, and renamed commands are refused. If it did not, the fault tests would prove nothing.
import { spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisServerBinary, startRedisServer, type RedisServer } from '../support/redis-server.ts'

/** PING through redis-cli with a bound: 'PONG', or 'no answer' when none comes within `boundMs`. */
function ping(server: RedisServer, boundMs = 1000): Promise<string> {
  return new Promise((resolve) => {
    const cli = (redisServerBinary() ?? 'redis-server').replace(/-server$/, '-cli')
    const child = spawn(cli, ['-s', server.socketPath, 'PING'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    const bound = setTimeout(() => child.kill('SIGKILL'), boundMs)
    child.once('exit', (code) => {
      clearTimeout(bound)
      resolve(code === 0 ? output.trim() : 'no answer')
    })
  })
}

describe('the test Redis', () => {
  let server: RedisServer
  beforeAll(async () => {
    server = await startRedisServer()
  })
  afterAll(async () => server?.stop())

  it('is a Redis 7 or later on a Unix socket', async () => {
    expect(server.socketUrl).toBe(`unix://${server.socketPath}`)
    expect(Number(/v=(\d+)\./.exec(server.version)?.[1])).toBeGreaterThanOrEqual(7)
    expect(await ping(server)).toBe('PONG')
  })

  it('answers nothing while paused, and again once resumed, its data kept', async () => {
    expect(server.cli('SET', 'kept', 'yes')).toBe('OK')
    server.pause()
    try {
      expect(await ping(server, 500)).toBe('no answer')
    } finally {
      server.resume()
    }
    expect(await ping(server)).toBe('PONG')
    expect(server.cli('GET', 'kept')).toBe('yes')
  })

  it('is gone when killed, and back empty on the same socket when restarted', async () => {
    const pid = server.pid
    await server.kill()
    expect(await ping(server)).toBe('no answer')
    await server.restart()
    expect(server.pid).not.toBe(pid)
    expect(await ping(server)).toBe('PONG')
    expect(server.cli('GET', 'kept')).toBe('')
  })
})

describe('a test Redis that refuses scripts', () => {
  let server: RedisServer
  beforeAll(async () => {
    server = await startRedisServer({ extraArgs: ['--rename-command', 'EVAL', '', '--rename-command', 'EVALSHA', ''] })
  })
  afterAll(async () => server?.stop())

  it('refuses EVAL and EVALSHA and answers the rest', () => {
    expect(server.cli('PING')).toBe('PONG')
    expect(server.cli('EVAL', 'return 1', '0')).toMatch(/unknown command/i)
    expect(server.cli('EVALSHA', 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db', '0')).toMatch(/unknown command/i)
    expect(server.cli('SET', 'petstore-sim:format', '999')).toBe('OK')
  })
})
