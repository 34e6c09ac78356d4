// `npm run contract`: the real CLI behind Stoplight Prism in proxy mode with
// fixtures/openapi.yaml, then the contract tools of run-tools.ts (Specmatic,
// Portman + newman) against another simulator with the document it serves. A corpus of valid and invalid requests covers every
// operation and every documented status; any response violation Prism
// reports fails the run, and so does a request violation on a request the
// corpus calls valid. Bounded: ~30 requests, every wait has a deadline.
// Two cases are left to the vitest suites' validator, as Prism cannot carry
// them: malformed JSON bodies (Prism 5.16 never answers them), and the 501 of
// GET /store/orders (Prism's proxy replaces any upstream 501 with a mock).
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { runContractTools } from './run-tools.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const deadlineMs = 60_000

interface Case {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly key?: string | null
  readonly headers?: Record<string, string>
  readonly body?: string
  readonly status: number
  /** Does the request itself conform to the document? */
  readonly validRequest: boolean
  /** Runs before the request, e.g. to move the clock. */
  readonly before?: () => Promise<void>
}

function start(
  command: string,
  args: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string; match: RegExpExecArray }> {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCARF_ANALYTICS: 'false' } })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${output}`)), deadlineMs)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = ready.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({ child, output: () => output, match })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${output}`)))
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

const simulator = await start(
  process.execPath,
  [
    'bin/petstore-sim.js',
    '--port',
    '0',
    '--log',
    'silent',
    '--body-limit',
    '1024',
    '--ban-after',
    '1',
    '--ban-for',
    '1m',
    '--key',
    'contract-key=pro',
    '--key',
    'tiny-key=enterprise:1/1000',
    '--key',
    'ban-key=enterprise:1/1000',
  ],
  /listening on (http:\/\/\S+)/,
)
const apiUrl = simulator.match[1]!
const origin = new URL(apiUrl).origin
const prismPort = await freePort()
const prism = await start(
  process.execPath,
  [
    fileURLToPath(import.meta.resolve('@stoplight/prism-cli/dist/index.js')),
    'proxy',
    'fixtures/openapi.yaml',
    apiUrl,
    '--host',
    '127.0.0.1',
    '--port',
    String(prismPort),
  ],
  /Prism is listening/,
)
const prismUrl = `http://127.0.0.1:${prismPort}`

const json = { 'content-type': 'application/json' }
const control = (path: string, body: unknown) => async () => {
  await fetch(`${origin}/__sim${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) })
}
const useUp = (key: string) => async () => {
  await fetch(`${apiUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } })
}
const corpus: Case[] = [
  { name: 'listPets', method: 'GET', path: '/pets', status: 200, validRequest: true },
  { name: 'listPets with limit and status', method: 'GET', path: '/pets?limit=5&status=available', status: 200, validRequest: true },
  { name: 'listPets limit=100', method: 'GET', path: '/pets?limit=100', status: 200, validRequest: true },
  { name: 'listPets limit=0', method: 'GET', path: '/pets?limit=0', status: 400, validRequest: false },
  { name: 'listPets limit=101', method: 'GET', path: '/pets?limit=101', status: 400, validRequest: false },
  { name: 'listPets status=Available', method: 'GET', path: '/pets?status=Available', status: 400, validRequest: false },
  { name: 'listPets without a key', method: 'GET', path: '/pets', key: null, status: 401, validRequest: false },
  { name: 'listPets with an unknown key', method: 'GET', path: '/pets', key: 'nope', status: 401, validRequest: true },
  {
    name: 'listPets over the limit',
    method: 'GET',
    path: '/pets',
    key: 'tiny-key',
    status: 429,
    validRequest: true,
    before: useUp('tiny-key'),
  },
  {
    name: 'createPet',
    method: 'POST',
    path: '/pets',
    headers: json,
    body: '{"name":"Contract","categoryId":3,"status":"pending"}',
    status: 201,
    validRequest: true,
  },
  {
    name: 'createPet without status',
    method: 'POST',
    path: '/pets',
    headers: json,
    body: '{"name":"Contract","categoryId":3}',
    status: 201,
    validRequest: true,
  },
  {
    name: 'createPet without name',
    method: 'POST',
    path: '/pets',
    headers: json,
    body: '{"categoryId":3}',
    status: 400,
    validRequest: false,
  },
  {
    name: 'createPet with a string categoryId',
    method: 'POST',
    path: '/pets',
    headers: json,
    body: '{"name":"X","categoryId":"3"}',
    status: 400,
    validRequest: false,
  },
  {
    name: 'createPet with status null',
    method: 'POST',
    path: '/pets',
    headers: json,
    body: '{"name":"X","categoryId":3,"status":null}',
    status: 400,
    validRequest: false,
  },
  {
    name: 'createPet without a key',
    method: 'POST',
    path: '/pets',
    key: null,
    headers: json,
    body: '{"name":"X","categoryId":3}',
    status: 401,
    validRequest: false,
  },
  {
    name: 'createPet over the body limit',
    method: 'POST',
    path: '/pets',
    headers: json,
    body: JSON.stringify({ name: 'X', categoryId: 3, padding: 'x'.repeat(2000) }),
    status: 413,
    validRequest: true,
  },
  {
    name: 'createPet as form data',
    method: 'POST',
    path: '/pets',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'name=X&categoryId=3',
    status: 415,
    validRequest: false,
  },
  {
    name: 'createPet over the limit',
    method: 'POST',
    path: '/pets',
    key: 'tiny-key',
    headers: json,
    body: '{"name":"X","categoryId":3}',
    status: 429,
    validRequest: true,
  },
  { name: 'getPet', method: 'GET', path: '/pets/1', status: 200, validRequest: true },
  { name: 'getPet unknown id', method: 'GET', path: '/pets/999999', status: 404, validRequest: true },
  { name: 'getPet non-integer id', method: 'GET', path: '/pets/abc', status: 400, validRequest: false },
  { name: 'getPet without a key', method: 'GET', path: '/pets/1', key: null, status: 401, validRequest: false },
  { name: 'getPet over the limit', method: 'GET', path: '/pets/1', key: 'tiny-key', status: 429, validRequest: true },
  {
    name: 'getPet banned',
    method: 'GET',
    path: '/pets/1',
    key: 'ban-key',
    status: 429,
    validRequest: true,
    before: async () => {
      await useUp('ban-key')()
      await useUp('ban-key')()
    },
  },
  { name: 'listOrders without a key', method: 'GET', path: '/store/orders', key: null, status: 401, validRequest: false },
  { name: 'listOrders over the limit', method: 'GET', path: '/store/orders', key: 'tiny-key', status: 429, validRequest: true },
  {
    name: 'getPet after its removal',
    method: 'GET',
    path: '/pets/1',
    status: 410,
    validRequest: true,
    before: control('/clock', { set: '2030-12-05T00:00:01Z' }),
  },
]

interface Violation {
  location: string[]
  message: string
}
let failures = 0
try {
  for (const testCase of corpus) {
    await testCase.before?.()
    const headers: Record<string, string> = { ...testCase.headers }
    const key = testCase.key === undefined ? 'contract-key' : testCase.key
    if (key !== null) headers.authorization = `Bearer ${key}`
    let response: Response
    try {
      response = await fetch(`${prismUrl}${testCase.path}`, {
        method: testCase.method,
        headers,
        body: testCase.body,
        signal: AbortSignal.timeout(10_000),
      })
      await response.arrayBuffer()
    } catch (error) {
      console.log(`FAIL ${testCase.method} ${testCase.path}  ${testCase.name}\n       no answer through Prism: ${(error as Error).message}`)
      failures++
      continue
    }
    const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as Violation[]
    const responseViolations = violations.filter((violation) => violation.location[0] === 'response')
    const requestViolations = violations.filter((violation) => violation.location[0] === 'request')
    const problems = [
      ...(response.status === testCase.status ? [] : [`status ${response.status}, expected ${testCase.status}`]),
      ...responseViolations.map((violation) => `response violation at ${violation.location.join('.')}: ${violation.message}`),
      ...(testCase.validRequest ? requestViolations.map((violation) => `request violation on a valid request: ${violation.message}`) : []),
      ...(!testCase.validRequest && requestViolations.length === 0
        ? ['Prism saw no request violation in a request meant to be invalid']
        : []),
    ]
    console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${testCase.method} ${testCase.path} -> ${response.status}  ${testCase.name}`)
    for (const problem of problems) console.log(`       ${problem}`)
    failures += problems.length === 0 ? 0 : 1
  }
} finally {
  prism.child.kill('SIGTERM')
  simulator.child.kill('SIGTERM')
}
console.log(`\nPrism: ${corpus.length - failures} passed, ${failures} failed`)

// A simulator of its own for the tools: defaults but for a key whose limits their ~270 requests never reach.
const toolsSimulator = await start(
  process.execPath,
  ['bin/petstore-sim.js', '--port', '0', '--log', 'silent', '--key', 'tools-key=enterprise:1000000/100000000'],
  /listening on (http:\/\/\S+)/,
)
let tools: { passed: number; failed: number }
try {
  tools = await runContractTools(new URL(toolsSimulator.match[1]!).origin, 'tools-key')
} finally {
  toolsSimulator.child.kill('SIGTERM')
}
const failed = failures + tools.failed
console.log(`\ncontract: ${corpus.length - failures + tools.passed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
