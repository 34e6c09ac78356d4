// `npm run soak`: hostile clients against the real CLI at its default limits, one pattern at a time, each against
// a fresh process so that each peak RSS (VmHWM in /proc/<pid>/status) is the pattern's own. Loopback only, every
// loop bounded in count and time; about 5 minutes in all. Linux only (/proc, and 127.0.0.0/8 source addresses).
//
//   npm run soak                      all patterns
//   npm run soak -- slow-readers      some of them, by name
//
// Target: every peak under 256 MiB. The state-failure pattern mounts a tmpfs, so it needs root. Not part of `npm test`; test/node/node-lifecycle.test.ts has a small slow-reader check.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const binPath = fileURLToPath(new URL('../../bin/petstore-sim.js', import.meta.url))
const targetMiB = 256
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Simulator {
  readonly child: ChildProcess
  readonly port: number
  /** VmHWM and VmRSS of the process, in MiB. */
  memory(): { peak: number; now: number }
  /** What the process wrote on stderr so far (it is also passed through). */
  stderr(): string
  /** SIGTERM, then SIGKILL after 6 s; the exit code (or signal). A process that has exited already is not signalled. */
  stop(): Promise<number | string>
}

/** The CLI as `npx petstore-sim` runs it (the bin's shebang flags), at its default limits. */
async function startSimulator(args: readonly string[] = []): Promise<Simulator> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_SIM_')))
  const child = spawn(process.execPath, ['--max-semi-space-size=16', binPath, '--port', '0', '--log', 'silent', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  let err = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk
    process.stderr.write(chunk)
  })
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  const deadline = Date.now() + 10_000
  const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/
  let match = listening.exec(out)
  while (match === null) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the simulator did not start: ${out}`)
    await sleep(20)
    match = listening.exec(out)
  }
  const port = Number(match[1])
  let last = { peak: Number.NaN, now: Number.NaN }
  const field = (status: string, name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024
  return {
    child,
    port,
    memory() {
      // A pattern that stops the process itself (state-failure) gets its last reading.
      if (child.exitCode === null && child.signalCode === null) {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
        last = { peak: field(status, 'VmHWM'), now: field(status, 'VmRSS') }
      }
      return last
    },
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 6000)
      const code = await exited
      clearTimeout(timer)
      return code
    },
  }
}

function open(port: number, localAddress = '127.0.0.1'): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress })
    socket.once('connect', () => resolve(socket))
    socket.once('error', () => resolve(undefined))
    socket.on('error', () => {})
  })
}

/** Whether the socket has been closed by the server (or failed). */
const gone = (socket: Socket) => socket.destroyed || socket.readableEnded || !socket.writable

const get = (path: string, key?: string) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${key === undefined ? '' : `Authorization: Bearer ${key}\r\n`}\r\n`

interface PatternResult {
  readonly notes: string
  /** The peak RSS (MiB) of the process the pattern measures itself, when it is not the simulator (`verify`). */
  readonly peak?: number
}

interface Pattern {
  readonly name: string
  readonly what: string
  /** Extra CLI flags for this pattern's simulator (a function when making them has effects: only chosen patterns run it). */
  readonly args?: readonly string[] | (() => readonly string[])
  run(simulator: Simulator): Promise<PatternResult>
}

/**
 * A legitimate client's latency while a pattern runs: one GET /v1/pets?limit=1 with a valid key every 250 ms on a
 * fresh connection, until `until` (or what `deadline` says, read before each request). A request that takes over 2 s counts as a stall.
 */
async function legitimateLatency(port: number, until: number, deadline: () => number = () => until): Promise<string> {
  const times: number[] = []
  let stalls = 0
  while (Date.now() < deadline()) {
    const started = performance.now()
    const response = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=1`, {
      headers: { Authorization: 'Bearer demo-enterprise-key' },
      signal: AbortSignal.timeout(5000),
    }).catch(() => undefined)
    await response?.arrayBuffer().catch(() => undefined)
    const took = performance.now() - started
    if (response?.status !== 200 || took > 2000) stalls++
    times.push(took)
    await sleep(250)
  }
  times.sort((a, b) => a - b)
  const at = (share: number) => (times[Math.min(times.length - 1, Math.floor(times.length * share))] ?? Number.NaN).toFixed(1)
  return `legitimate GETs: ${times.length}, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms, ${stalls} stalled or failed`
}

/** How a malicious `verify` target answers every request. */
const hostileAnswers: Record<string, (response: ServerResponse) => void> = {
  // 64 KiB chunks for as long as the client reads.
  'endless body': (response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    const chunk = Buffer.alloc(64 * 1024, 'x')
    const pump = () => {
      while (!response.destroyed && response.write(chunk)) {}
      if (!response.destroyed) response.once('drain', pump)
    }
    pump()
  },
  // A byte every 200 ms, never the end.
  'slow drip': (response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    const timer = setInterval(() => response.write('['), 200)
    response.once('close', () => clearInterval(timer))
  },
  // Busy, come back in 2 s, on every request: the run's time bound ends it.
  '503 Retry-After loop': (response) => {
    response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' })
    response.end('{"code":"busy","message":"busy","status":503}')
  },
  // Terminal escapes (clear, title, OSC 52 clipboard, colours, C1 CSI, bidi override) in an Error body (Node refuses them in headers).
  'escape bytes': (response) => {
    const escapes = '\u001b[2J\u001b]0;pwned\u0007\u001b]52;c;aGk=\u0007\u001b[32mOK\u009b31m\u202e'
    response.writeHead(401, { 'content-type': 'application/json' })
    response.end(`{"code":"${escapes}","message":"${escapes.repeat(50)}","status":401}`)
  },
}

/** Runs `petstore-sim verify` against `baseUrl`; its peak RSS (VmHWM), time, exit code and raw ESC bytes printed. */
async function runVerify(
  baseUrl: string,
  maxTime: string,
): Promise<{ peak: number; seconds: number; code: number | null; escapes: number }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_SIM_')))
  const started = Date.now()
  const child = spawn(process.execPath, [binPath, 'verify', baseUrl, '--key', 'soak-verify-key', '--max-time', maxTime], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  let peak = 0
  const sampler = setInterval(() => {
    try {
      const kB = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]
      if (kB !== undefined) peak = Math.max(peak, Number(kB) / 1024)
    } catch {
      // Exited between two samples.
    }
  }, 100)
  // A hard stop well past the bound, so that a runner that ignores it still ends the soak.
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  clearInterval(sampler)
  clearTimeout(killer)
  return { peak, seconds: (Date.now() - started) / 1000, code, escapes: output.split('\u001b').length - 1 }
}

/** A --handlers module whose GET /endless streams 64 KiB chunks forever. */
function endlessHandlersModule(): string {
  // Inside the project, so that the module finds msw in its node_modules.
  const cache = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url))
  mkdirSync(cache, { recursive: true })
  const directory = mkdtempSync(join(cache, 'petstore-soak-'))
  const file = join(directory, 'endless-handlers.mjs')
  writeFileSync(
    file,
    `import { http, HttpResponse } from 'msw'
const chunk = new Uint8Array(64 * 1024).fill(120)
export default [http.get('*/endless', () => new HttpResponse(new ReadableStream({ pull(controller) { controller.enqueue(chunk) } })))]
`,
  )
  return file
}

/** 200 slow 1 MiB bodies (the default limit), with `key`. */
function slowBodies(name: string, key: string, what: string): Pattern {
  return {
    name,
    what,
    async run({ port }) {
      const limit = 1024 * 1024
      const piece = Buffer.alloc(64 * 1024, 0x20)
      const statuses = new Map<string, number>()
      await Promise.all(
        Array.from({ length: 200 }, async (_, index) => {
          const socket = await open(port)
          if (socket === undefined) return
          let reply = ''
          socket.setEncoding('latin1').on('data', (chunk: string) => (reply += chunk))
          socket.write(
            `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${limit}\r\n\r\n`,
          )
          await sleep(index * 5) // staggered, as real clients are
          for (let sent = 0; sent < limit && !gone(socket); sent += piece.length) {
            socket.write(piece)
            await sleep(1000)
          }
          const deadline = Date.now() + 10_000
          while (reply === '' && !gone(socket) && Date.now() < deadline) await sleep(50)
          const status = reply === '' ? 'none' : reply.slice(9, 12)
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          socket.destroy()
        }),
      )
      return { notes: `answers: ${[...statuses].map(([status, count]) => `${count}x ${status}`).join(', ')}` }
    },
  }
}

/** A journal of about 13 MB: 200 createPet requests with 60 KB bodies (the journal keeps up to 64 KiB of each). */
async function fillJournal(port: number): Promise<void> {
  const padding = 'x'.repeat(60_000)
  for (let index = 0; index < 200; index++) {
    const response = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
      method: 'POST',
      headers: { Authorization: 'Bearer demo-enterprise-key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Big', categoryId: 1, padding }),
    })
    await response.arrayBuffer()
  }
}

/**
 * 40 connections, each asking for the path it is given (by its index) and never reading the answer, reconnecting when
 * the server drops it, for 20 s, while a legitimate client measures the API's latency; then 2 s for the server to let go.
 */
async function nonReadingClients(
  port: number,
  pathFor: (index: number) => string,
): Promise<{ asked: number; dropped: number; latency: string }> {
  const until = Date.now() + 20_000
  let asked = 0
  let dropped = 0
  const loops = Array.from({ length: 40 }, async (_, index) => {
    while (Date.now() < until) {
      const socket = await open(port)
      if (socket === undefined) continue
      socket.pause() // never read
      socket.write(get(pathFor(index)))
      asked++
      // A paused socket sees the server's reset only when it writes: probe once a second.
      while (Date.now() < until && !gone(socket)) {
        await sleep(1000)
        socket.write('\r\n')
      }
      if (gone(socket)) dropped++
      socket.destroy()
    }
  })
  const latency = await legitimateLatency(port, until)
  await Promise.all(loops)
  await sleep(2000)
  return { asked, dropped, latency }
}

/**
 * `--state` on a 2 MiB tmpfs (root only: `mount -t tmpfs`) filled to the brim under load: every save fails with
 * ENOSPC, the cause is reported once, the API keeps answering; the disk is freed and the next save holds every pet;
 * filled again, the save at SIGTERM fails in one line with exit code 1. Issue 26: one failed save used to stop saving
 * for good, and SIGTERM then crashed with a stack trace.
 */
function stateFailure(): Pattern {
  const mountPoint = mkdtempSync(join(tmpdir(), 'petstore-soak-tmpfs-'))
  const stateFile = join(mountPoint, 'state.json')
  const filler = join(mountPoint, 'filler')
  const fill = () => {
    // Leaves 16 KiB free: the state (2,000 pets and more, about 130 KiB of JSON) no longer fits.
    const { bavail, bsize } = statfsSync(mountPoint)
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 16 * 1024), 120))
  }
  return {
    name: 'state-failure',
    what: '--state on a full 2 MiB tmpfs while 4 clients create pets for 10 s; then space freed; then full again at SIGTERM',
    args: () => {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint])
      return ['--state', stateFile, '--state-interval', '100ms', '--pets', '2000']
    },
    async run(simulator) {
      const { port } = simulator
      try {
        fill()
        const until = Date.now() + 10_000
        let created = 0
        const writers = Array.from({ length: 4 }, async () => {
          while (Date.now() < until) {
            const response = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
              method: 'POST',
              headers: { Authorization: 'Bearer demo-enterprise-key', 'Content-Type': 'application/json' },
              body: JSON.stringify({ name: 'Unsaved', categoryId: 1 }),
            }).catch(() => undefined)
            if (response?.status === 201) created++
            await response?.arrayBuffer().catch(() => undefined)
            await sleep(10)
          }
        })
        const latency = await legitimateLatency(port, until)
        await Promise.all(writers)
        const reported = simulator.stderr().match(/cannot write/g)?.length ?? 0
        rmSync(filler)
        const recovery = Date.now() + 5000
        while (!simulator.stderr().includes('is saved again') && Date.now() < recovery) await sleep(50)
        const health = (await (await fetch(`http://127.0.0.1:${port}/__sim/health`)).json()) as { pets: number }
        const saved = JSON.parse(readFileSync(stateFile, 'utf8')).catalogue.pets.length as number
        fill()
        simulator.memory() // the last reading, before the process goes
        const exitCode = await simulator.stop()
        const lastLine = simulator.stderr().trim().split('\n').at(-1) ?? ''
        const stack = /^\s+at /m.test(simulator.stderr())
        const ok = reported === 1 && saved === health.pets && exitCode === 1 && !stack && /not saved$/.test(lastLine)
        if (!ok) process.exitCode = 1
        return {
          notes: `${created} pets created on a full disk; "cannot write" reported ${reported}x (want 1); after freeing space the file holds ${saved} of ${health.pets} pets; SIGTERM on a full disk: exit ${exitCode} (want 1), ${stack ? 'A STACK TRACE' : 'no stack trace'}, last line "${lastLine}"; ${latency}; ${ok ? 'as expected' : 'NOT AS EXPECTED'}`,
        }
      } finally {
        await simulator.stop()
        execFileSync('umount', [mountPoint])
        rmSync(mountPoint, { recursive: true, force: true })
      }
    },
  }
}

const patterns: Pattern[] = [
  stateFailure(),
  {
    name: 'slow-readers',
    what: '40 connections pipelining GET /v1/pets?limit=100 as fast as the socket takes them, never reading, 20 s; reconnecting when closed',
    async run({ port }) {
      const batch = Buffer.from(get('/v1/pets?limit=100', 'demo-enterprise-key').repeat(100))
      const deadline = Date.now() + 20_000
      let written = 0
      let connections = 0
      let closedByServer = 0
      await Promise.all(
        Array.from({ length: 40 }, async () => {
          while (Date.now() < deadline) {
            const socket = await open(port)
            if (socket === undefined) continue
            connections++
            socket.pause() // never read
            while (Date.now() < deadline && !gone(socket)) {
              written += 100
              if (!socket.write(batch))
                await Promise.race([new Promise((resolve) => socket.once('drain', resolve).once('close', resolve)), sleep(250)])
            }
            if (gone(socket)) closedByServer++
            socket.destroy()
          }
        }),
      )
      return {
        notes: `${written} requests handed to the kernel on ${connections} connections, ${closedByServer} of them closed by the server`,
      }
    },
  },
  slowBodies(
    'refused-bodies',
    'not-a-key',
    "200 connections each POSTing a 1 MiB body (the limit) in 64 KiB pieces over about 16 s, with a wrong key (the issue's pattern: bodies must not be buffered before authentication)",
  ),
  slowBodies(
    'accepted-bodies',
    'demo-enterprise-key',
    '200 connections each POSTing a 1 MiB body (the limit) in 64 KiB pieces over about 16 s, with a valid key: every body is read in full',
  ),
  {
    name: 'anonymous-crowd',
    what: '30,000 distinct client addresses (127.0.0.2 and up) sending 2 requests each without a key, 200 at a time, at most 25 s',
    async run({ port }) {
      const total = 30_000
      const deadline = Date.now() + 25_000
      let next = 0
      let answered = 0
      const address = (index: number) => {
        const n = index + 2 // 127.0.0.2 onwards
        return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`
      }
      await Promise.all(
        Array.from({ length: 200 }, async () => {
          while (next < total && Date.now() < deadline) {
            const index = next++
            const socket = await open(port, address(index))
            if (socket === undefined) continue
            let reply = ''
            socket.setEncoding('latin1').on('data', (chunk: string) => (reply += chunk))
            socket.write(get('/v1/pets') + get('/v1/pets/1', 'not-a-key'))
            const until = Date.now() + 2000
            while ((reply.match(/HTTP\/1\.1 /g)?.length ?? 0) < 2 && !gone(socket) && Date.now() < until) await sleep(5)
            answered += reply.match(/HTTP\/1\.1 401/g)?.length ?? 0
            socket.destroy()
          }
        }),
      )
      return { notes: `${Math.min(next, total)} addresses, ${answered} answers 401` }
    },
  },
  {
    name: 'lying-content-length',
    what: '3,000 connections declaring a 1 MiB body and sending 10 bytes of it, then silence, with a valid key; held until the 30 s request timeout',
    async run({ port }) {
      const sockets: Socket[] = []
      for (let index = 0; index < 3000; index++) {
        const socket = await open(port)
        if (socket === undefined) continue
        socket.write(
          `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-enterprise-key\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n{"name":"R`,
        )
        sockets.push(socket)
      }
      const replies = new Map<Socket, string>()
      for (const socket of sockets)
        socket.setEncoding('latin1').on('data', (chunk: string) => replies.set(socket, (replies.get(socket) ?? '') + chunk))
      const started = Date.now()
      while (sockets.some((socket) => !gone(socket)) && Date.now() - started < 40_000) await sleep(250)
      const open408 = sockets.filter((socket) => replies.get(socket)?.startsWith('HTTP/1.1 408')).length
      const stillOpen = sockets.filter((socket) => !gone(socket)).length
      for (const socket of sockets) socket.destroy()
      return {
        notes: `${sockets.length} sockets; ${open408} got 408 request_timeout, ${stillOpen} still open after ${((Date.now() - started) / 1000).toFixed(1)} s`,
      }
    },
  },
  {
    name: 'adversarial-header',
    what: 'six connections looping GET /v1/pets with Authorization: Bearer x<15,000 spaces>y, 15 s; a legitimate GET every 250 ms',
    async run({ port }) {
      const until = Date.now() + 15_000
      const request = Buffer.from(`GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer x${' '.repeat(15_000)}y\r\n\r\n`)
      let answered = 0
      const loops = Array.from({ length: 6 }, async () => {
        while (Date.now() < until) {
          const socket = await open(port)
          if (socket === undefined) continue
          let pending = 0
          socket.setEncoding('latin1').on('data', (chunk: string) => {
            const count = chunk.match(/HTTP\/1\.1 /g)?.length ?? 0
            answered += count
            pending -= count
          })
          while (Date.now() < until && !gone(socket)) {
            if (pending < 4) {
              socket.write(request)
              pending++
            } else await sleep(1)
          }
          socket.destroy()
        }
      })
      const latency = await legitimateLatency(port, until)
      await Promise.all(loops)
      return { notes: `${answered} hostile requests answered; ${latency}` }
    },
  },
  {
    name: 'endless-stream',
    what: 'a --handlers module streaming GET /endless forever; 40 clients each reading about 1 MiB of it and leaving, again and again, 20 s',
    get args() {
      return ['--handlers', endlessHandlersModule()]
    },
    async run({ port }) {
      const until = Date.now() + 20_000
      let streams = 0
      const loops = Array.from({ length: 40 }, async () => {
        while (Date.now() < until) {
          const socket = await open(port)
          if (socket === undefined) continue
          streams++
          let received = 0
          socket.on('data', (chunk: Buffer) => (received += chunk.length))
          socket.write(get('/endless'))
          const deadline = Date.now() + 2000
          while (received < 1024 * 1024 && !gone(socket) && Date.now() < deadline) await sleep(5)
          socket.destroy()
        }
      })
      const latency = await legitimateLatency(port, until)
      await Promise.all(loops)
      return { notes: `${streams} streams started and left; ${latency}` }
    },
  },
  {
    name: 'non-reading-control',
    what: 'a journal of about 13 MB (200 bodies of 60 KB), then 40 connections asking GET /__sim/requests and never reading, reconnecting when dropped, 20 s',
    async run(simulator) {
      const { port } = simulator
      await fillJournal(port)
      const { asked, dropped, latency } = await nonReadingClients(port, () => '/__sim/requests')
      return {
        notes: `${asked} journal requests never read, ${dropped} dropped by the server; RSS after ${simulator.memory().now.toFixed(0)} MiB; ${latency}`,
      }
    },
  },
  {
    name: 'non-reading-exports',
    what: 'a catalogue of 100,000 pets and a journal of about 13 MB, then 40 connections asking GET /__sim/snapshot or GET /__sim/requests.har (half each) and never reading, reconnecting when dropped, 20 s',
    args: ['--pets', '100000'],
    async run(simulator) {
      const { port } = simulator
      await fillJournal(port)
      const { asked, dropped, latency } = await nonReadingClients(port, (index) =>
        index % 2 === 0 ? '/__sim/snapshot' : '/__sim/requests.har',
      )
      return {
        notes: `${asked} exports never read, ${dropped} dropped by the server; RSS after ${simulator.memory().now.toFixed(0)} MiB; ${latency}`,
      }
    },
  },
  {
    name: 'event-subscribers',
    what: 'a journal of about 13 MB, then 240 connections to GET /__sim/events (at most 32 are served), half reading only the status line, half a little every 2 s, reconnecting 100 ms after a refusal or a drop, while 4 clients send API requests, 20 s',
    async run(simulator) {
      const { port } = simulator
      await fillJournal(port)
      const until = Date.now() + 20_000
      const statuses = new Map<string, number>()
      let dropped = 0
      const subscribers = Array.from({ length: 240 }, async (_, index) => {
        const reads = index % 2 === 1
        while (Date.now() < until) {
          const socket = await open(port)
          if (socket === undefined) continue
          let head = ''
          socket.on('data', (chunk: Buffer) => {
            if (head.length < 12) head += chunk.toString('latin1', 0, 12)
          })
          socket.pause()
          socket.write(get('/__sim/events'))
          // Paused sockets see the server's answer or reset only when they read or write: the status line once, then
          // a little every 2 s (the readers) or nothing (the others), and a probe write each time.
          while (Date.now() < until && !gone(socket)) {
            await sleep(head === '' ? 100 : 2000)
            if (reads || head === '') {
              socket.resume()
              await sleep(5)
              socket.pause()
            }
            if (head !== '' && !head.startsWith('HTTP/1.1 200')) break
            socket.write('\r\n')
          }
          const status = head.slice(9, 12) || 'none'
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          if (status === '200' && gone(socket) && Date.now() < until) dropped++
          socket.destroy()
          await sleep(100)
        }
      })
      let apiRequests = 0
      const api = Array.from({ length: 4 }, async (_, index) => {
        while (Date.now() < until) {
          const response = await fetch(
            `http://127.0.0.1:${port}/v1/pets${index === 0 ? '' : '?limit=20'}`,
            index === 0
              ? {
                  method: 'POST',
                  headers: { Authorization: 'Bearer demo-enterprise-key', 'Content-Type': 'application/json' },
                  body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
                }
              : { headers: { Authorization: 'Bearer demo-enterprise-key' } },
          ).catch(() => undefined)
          await response?.arrayBuffer().catch(() => undefined)
          apiRequests++
          await sleep(20)
        }
      })
      const latency = await legitimateLatency(port, until)
      await Promise.all([...subscribers, ...api])
      await sleep(2000)
      return {
        notes: `event-stream answers: ${[...statuses].map(([status, count]) => `${count}x ${status}`).join(', ')}; ${dropped} served streams dropped by the server; ${apiRequests} API requests; RSS after ${simulator.memory().now.toFixed(0)} MiB; ${latency}`,
      }
    },
  },
  {
    name: 'journal-wait',
    what: 'a journal of 4 KB paths; 20,000 GET /__sim/requests/wait long polls with `*a*a*…!` path filters, 300 at a time, each abandoned after 0-50 ms, while 4 clients send API requests with 2 KB paths, at most 40 s',
    async run(simulator) {
      const { port } = simulator
      const key = 'Bearer demo-enterprise-key'
      // Recorded paths that a backtracking glob would take seconds on (issue #26: 13.4 s for one 4 KB path).
      for (let index = 0; index < 50; index++) {
        await (await fetch(`http://127.0.0.1:${port}/v1/${'a'.repeat(4092)}`, { headers: { Authorization: key } })).arrayBuffer()
      }
      const total = 20_000
      const until = Date.now() + 40_000
      const filter = (index: number) => encodeURIComponent(`/v1/${'*a'.repeat(50 + (index % 200))}*!`)
      const statuses = new Map<string, number>()
      let next = 0
      const waiters = Array.from({ length: 300 }, async () => {
        while (next < total && Date.now() < until) {
          const index = next++
          const socket = await open(port)
          if (socket === undefined) continue
          let head = ''
          socket.on('data', (chunk: Buffer) => {
            if (head.length < 12) head += chunk.toString('latin1', 0, 12)
          })
          socket.write(get(`/__sim/requests/wait?path=${filter(index)}&timeoutMs=60000`))
          await sleep(index % 51)
          const status = head.slice(9, 12) || 'abandoned'
          statuses.set(status, (statuses.get(status) ?? 0) + 1)
          socket.destroy()
        }
      })
      let apiRequests = 0
      const api = Array.from({ length: 4 }, async () => {
        while (Date.now() < until && next < total) {
          const response = await fetch(`http://127.0.0.1:${port}/v1/${'a'.repeat(2044)}`, { headers: { Authorization: key } }).catch(
            () => undefined,
          )
          await response?.arrayBuffer().catch(() => undefined)
          apiRequests++
          await sleep(20)
        }
      })
      // Measured while the waits come, not after.
      const latency = await legitimateLatency(port, until, () => (next < total ? until : 0))
      await Promise.all([...waiters, ...api])
      await sleep(2000)
      // Every abandoned wait has ended: a new one that would wait finds a free place.
      const after = await fetch(`http://127.0.0.1:${port}/__sim/requests/wait?operation=createPet&timeoutMs=0`)
      return {
        notes: `${Math.min(next, total)} waits: ${[...statuses].map(([status, count]) => `${count}x ${status}`).join(', ')}; a wait after them: ${after.status}; ${apiRequests} API requests with 2 KB paths; RSS after ${simulator.memory().now.toFixed(0)} MiB; ${latency}`,
      }
    },
  },
]

patterns.push({
  name: 'malicious-verify-target',
  what: "`petstore-sim verify --max-time 20s` against targets sending an endless body, a slow drip, 503 + Retry-After on every answer, and escape bytes (the peak is verify's)",
  async run() {
    const notes: string[] = []
    let peak = 0
    for (const [name, answer] of Object.entries(hostileAnswers)) {
      const server = createServer((request, response) => {
        request.resume()
        answer(response)
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const run = await runVerify(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, '20s')
      server.closeAllConnections()
      server.close()
      peak = Math.max(peak, run.peak)
      notes.push(
        `${name}: verify peak ${run.peak.toFixed(0)} MiB, ${run.seconds.toFixed(1)} s, exit ${run.code}, ${run.escapes} raw ESC printed`,
      )
    }
    return { notes: notes.join('; '), peak }
  },
})

patterns.push({
  name: 'pact-exports',
  what: 'a journal of 1,000 API requests of a consumer (pages of 1 to 100 pets, filters, getPet, createPet with secrets in the body), then 6 clients exporting GET /__sim/requests.pact back to back, 20 s (issue 36: 99 MB and a request blocked 1,058 ms before)',
  async run(simulator) {
    const { port } = simulator
    const api = `http://127.0.0.1:${port}/v1`
    const headers = { Authorization: 'Bearer demo-enterprise-key', 'Content-Type': 'application/json' }
    for (let index = 0; index < 1000; index++) {
      const kind = index % 10
      const response =
        kind === 0
          ? await fetch(`${api}/pets`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ name: `Pet ${index}`, categoryId: 1, password: 'CANARY' }),
            })
          : await fetch(
              `${api}/${kind === 1 ? `pets/${(index % 50) + 1}` : `pets?limit=${(index % 100) + 1}${kind === 2 ? '&status=available' : ''}`}`,
              { headers },
            )
      await response.arrayBuffer()
    }
    const until = Date.now() + 20_000
    let exports = 0
    let bytes = 0
    let slowest = 0
    let leaked = 0
    const exporters = Array.from({ length: 6 }, async () => {
      while (Date.now() < until) {
        const started = performance.now()
        const text = await (await fetch(`http://127.0.0.1:${port}/__sim/requests.pact`)).text()
        slowest = Math.max(slowest, performance.now() - started)
        bytes = text.length
        if (text.includes('CANARY')) leaked++
        exports++
      }
    })
    const latency = await legitimateLatency(port, until)
    await Promise.all(exporters)
    return {
      notes: `${exports} exports of ${bytes} bytes each (slowest ${slowest.toFixed(1)} ms), ${leaked} with the canary; RSS after ${simulator.memory().now.toFixed(0)} MiB; ${latency}`,
    }
  },
})

patterns.push({
  name: 'mixed-large-exchanges',
  // A key of its own: the demo enterprise key's 5,000 a minute would answer most of them 429, small.
  args: ['--key', 'soak-mixed-key=enterprise:1000000000/1000000000', '--key', 'demo-enterprise-key=enterprise:5000/1000000'],
  what: `4 clients for ${Number(process.env.SOAK_MIXED_SECONDS ?? 30)} s (SOAK_MIXED_SECONDS): 120 KB createPet bodies, and listPets with a 12 KB header and an 8 KB query (issue 45, Low 15: RSS 538-745 MiB)`,
  async run(simulator) {
    const { port } = simulator
    const api = `http://127.0.0.1:${port}/v1`
    const until = Date.now() + Number(process.env.SOAK_MIXED_SECONDS ?? 30) * 1000
    const body = JSON.stringify({ name: 'Big', categoryId: 1, notes: 'n'.repeat(120_000) })
    const trace = 't'.repeat(12_000)
    let requests = 0
    let failed = 0
    const clients = Array.from({ length: 4 }, async (_, client) => {
      // Bounded in count as well as time.
      for (let index = 0; index < 100_000 && Date.now() < until; index++) {
        const response =
          index % 2 === 0
            ? await fetch(`${api}/pets`, {
                method: 'POST',
                headers: { Authorization: 'Bearer soak-mixed-key', 'Content-Type': 'application/json' },
                body,
              }).catch(() => undefined)
            : await fetch(`${api}/pets?limit=20&q=${'q'.repeat(8000)}${client}-${index}`, {
                headers: { Authorization: 'Bearer soak-mixed-key', 'x-trace': trace },
              }).catch(() => undefined)
        await response?.arrayBuffer().catch(() => undefined)
        if (response === undefined || response.status >= 500) failed++
        requests++
      }
    })
    const latency = await legitimateLatency(port, until)
    await Promise.all(clients)
    return { notes: `${requests} requests (${failed} failed); RSS after ${simulator.memory().now.toFixed(0)} MiB; ${latency}` }
  },
})

const chosen = process.argv.slice(2)
const results: Array<{ name: string; baseline: number; peak: number; notes: string; seconds: number }> = []
for (const pattern of patterns) {
  if (chosen.length > 0 && !chosen.includes(pattern.name)) continue
  const simulator = await startSimulator(typeof pattern.args === 'function' ? pattern.args() : pattern.args)
  await sleep(300)
  const baseline = simulator.memory().now
  process.stdout.write(`${pattern.name}: ${pattern.what}\n`)
  const started = Date.now()
  let sampledPeak = 0
  const samples: number[] = []
  const sampler = setInterval(() => {
    const now = simulator.memory().now
    sampledPeak = Math.max(sampledPeak, now)
    samples.push(Math.round(now))
  }, 500)
  const { notes, peak: ownPeak } = await pattern.run(simulator)
  clearInterval(sampler)
  const peak = ownPeak ?? Math.max(simulator.memory().peak, sampledPeak)
  const seconds = (Date.now() - started) / 1000
  results.push({ name: pattern.name, baseline, peak, notes, seconds })
  process.stdout.write(`  peak RSS ${peak.toFixed(0)} MiB (at start ${baseline.toFixed(0)} MiB), ${seconds.toFixed(1)} s; ${notes}\n`)
  if (process.env.SOAK_SAMPLES !== undefined) process.stdout.write(`  RSS every 0.5 s (MiB): ${samples.join(' ')}\n`)
  await simulator.stop()
}

process.stdout.write(`\n| pattern | RSS at start | peak RSS (VmHWM) | under ${targetMiB} MiB |\n| --- | --- | --- | --- |\n`)
for (const result of results) {
  process.stdout.write(
    `| ${result.name} | ${result.baseline.toFixed(0)} MiB | ${result.peak.toFixed(0)} MiB | ${result.peak < targetMiB ? 'yes' : 'NO'} |\n`,
  )
}
if (!results.every((result) => result.peak < targetMiB)) process.exitCode = 1
