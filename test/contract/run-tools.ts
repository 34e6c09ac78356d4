// The contract tools teams point at the served document, run against the
// simulator with that document (GET /openapi.yaml, /openapi.json) as it is
// served, its first server being the simulator: Specmatic's generative tests
// and Portman's contract and variation tests run by newman. A failure that is
// the tool's own (its generator sent a request its own test misjudges, as the
// document shows) is listed with the request and the reason; any other fails the run.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const toolDeadlineMs = 150_000

interface Run {
  readonly code: number | null
  readonly output: string
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command} ${args.join(' ')} took over ${toolDeadlineMs} ms:\n${output.slice(-3000)}`))
    }, toolDeadlineMs)
    child.once('error', reject)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

interface Exchange {
  readonly verdict: 'SUCCEEDED' | 'FAILED'
  readonly scenario: string
  readonly positive: boolean
  readonly request: string
  readonly method: string
  readonly path: string
  readonly requestBody: unknown
  readonly status: number
  readonly responseBody: unknown
}

function jsonOrUndefined(text: string): unknown {
  try {
    // Specmatic logs the control characters its generator made as they are, which JSON does not allow raw in a string.
    return JSON.parse(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the raw control characters is the point
      text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    )
  } catch {
    return undefined
  }
}

/** Specmatic's console log as exchanges: each request and response, then the verdict on it. */
function specmaticExchanges(log: string): Exchange[] {
  return log
    .split(/^-{20}$/m)
    .slice(1)
    .flatMap((chunk) => {
      const verdict = /^([+-]ve) +Scenario: (.*) has (SUCCEEDED|FAILED)$/m.exec(chunk)
      const request = /Request to \S+ at [^\n]*\n {4}(\S+) (\S+)\n([\s\S]*?)\n\n {2}Response at/.exec(chunk)
      const response = /Response at [^\n]*\n {4}(\d{3}) [^\n]*\n([\s\S]*?)\n\n(?=[+-]ve +Scenario)/.exec(chunk)
      if (verdict === null || request === null) return []
      const bodyOf = (text: string) => jsonOrUndefined(text.slice(text.indexOf('\n    \n') + 6).trim())
      return [
        {
          verdict: verdict[3] as Exchange['verdict'],
          scenario: verdict[2]!,
          positive: verdict[1] === '+ve',
          request: `${request[1]} ${request[2]} ${JSON.stringify(bodyOf(request[3]!)) ?? ''}`.trim(),
          method: request[1]!,
          path: request[2]!,
          requestBody: bodyOf(request[3]!),
          status: Number(response?.[1] ?? 0),
          responseBody: response === null ? undefined : bodyOf(response[2]!),
        },
      ]
    })
}

/**
 * Why a Specmatic failure is the tool's own, or undefined when it is not.
 * Each reason is checked on the exchange against the served document itself.
 */
function specmaticOwnFailure(exchange: Exchange, newPetIsValid: (body: unknown) => boolean): string | undefined {
  const code = (exchange.responseBody as { code?: string } | undefined)?.code
  const createsPet = exchange.method === 'POST' && /\/pets$/.test(exchange.path)
  const read = exchange.requestBody !== undefined
  if (createsPet && read && exchange.positive && exchange.status === 400 && code === 'invalid_body' && !newPetIsValid(exchange.requestBody))
    return (
      'Its positive test sent a body the document forbids: its generator does not follow the name pattern’s ' +
      'class for characters past U+FFFF ([^\\u0000-\\uFFFF]) and produced control characters; the simulator rightly answers 400.'
    )
  if (createsPet && read && !exchange.positive && exchange.status === 201 && newPetIsValid(exchange.requestBody))
    return (
      'Its negative test sent a body the document allows: it makes an "invalid" name by appending _ to the pattern, ' +
      'which the name pattern already allows; the simulator rightly creates the pet.'
    )
  if (
    exchange.method === 'GET' &&
    /\/pets\/-?\d+$/.test(exchange.path) &&
    exchange.positive &&
    exchange.status === 404 &&
    code === 'pet_not_found'
  )
    return 'Its 200 test makes up a petId (it does not use the parameter’s example) that no pet has; the simulator answers the documented 404.'
  return undefined
}

/** What a tool's run came to: checks passed, and failures not explained as the tool's own. */
interface Outcome {
  readonly passed: number
  readonly failed: number
}

/** Specmatic's generative contract tests. */
async function runSpecmatic(apiUrl: string, yamlDocument: string, apiKey: string, workDir: string): Promise<Outcome> {
  writeFileSync(join(workDir, 'openapi.yaml'), yamlDocument)
  const jar = fileURLToPath(new URL('specmatic.jar', import.meta.resolve('specmatic/package.json')))
  // The security scheme's name carries its token; SPECMATIC_GENERATIVE_TESTS adds the boundary and negative tests.
  const result = await run('java', ['-jar', jar, 'test', `--testBaseURL=${apiUrl}`, 'openapi.yaml'], workDir, {
    bearerAuth: apiKey,
    SPECMATIC_GENERATIVE_TESTS: 'true',
  })
  const totals = /Tests run: (\d+), Successes: (\d+), Failures: (\d+), WIP: \d+, Errors: (\d+)/.exec(result.output)
  if (totals === null) {
    console.log(`FAIL Specmatic did not run its tests:\n${result.output.slice(-3000)}`)
    return { passed: 0, failed: 1 }
  }
  const ajv = new Ajv2020({ strict: false })
  ajv.addFormat('int64', { type: 'number', validate: (value: number) => Number.isInteger(value) })
  ajv.addSchema({ ...(jsonOrUndefined(readFileSync(join(workDir, 'openapi.json'), 'utf8')) as object), $id: 'served' })
  const newPet = ajv.getSchema('served#/components/schemas/NewPet')!
  const failed = specmaticExchanges(result.output).filter((exchange) => exchange.verdict === 'FAILED')
  const own = new Map<string, Exchange[]>()
  const unexplained: Exchange[] = []
  for (const exchange of failed) {
    const reason = specmaticOwnFailure(exchange, (body) => newPet(body) as boolean)
    if (reason === undefined) unexplained.push(exchange)
    else own.set(reason, [...(own.get(reason) ?? []), exchange])
  }
  const [, total, passed, failures, errors] = totals.map(Number)
  console.log(`Specmatic: ${total} generative tests, ${passed} passed, ${failures} failed, ${errors} errors`)
  for (const [reason, exchanges] of own) {
    console.log(`  tool's own (${exchanges.length}): ${reason}`)
    console.log(`       e.g. ${exchanges[0]!.request.slice(0, 200)} -> ${exchanges[0]!.status}`)
  }
  for (const exchange of unexplained)
    console.log(
      `FAIL ${exchange.scenario}\n       ${exchange.request.slice(0, 300)} -> ${exchange.status} ${JSON.stringify(exchange.responseBody)}`,
    )
  // Every failure counted must have been read from the log, or one could hide behind an unparsed block.
  const unread = (failures ?? 0) + (errors ?? 0) - failed.length
  if (unread !== 0) console.log(`FAIL ${unread} Specmatic failures could not be read from its log`)
  return { passed: passed ?? 0, failed: unexplained.length + Math.abs(unread) }
}

/** Portman's contract and variation tests (test/contract/portman-config.json), run by newman. */
async function runPortman(apiUrl: string, apiKey: string, workDir: string): Promise<Outcome> {
  const converted = await run(
    process.execPath,
    [
      fileURLToPath(import.meta.resolve('@apideck/portman/bin/portman')),
      '-l',
      'openapi.json',
      '-b',
      apiUrl,
      '-c',
      join(root, 'test/contract/portman-config.json'),
      '-o',
      'collection.json',
    ],
    workDir,
  )
  if (converted.code !== 0) {
    console.log(`FAIL Portman could not convert the document:\n${converted.output.slice(-3000)}`)
    return { passed: 0, failed: 1 }
  }
  await run(
    process.execPath,
    [
      fileURLToPath(import.meta.resolve('newman/bin/newman.js')),
      'run',
      'collection.json',
      '--env-var',
      `apiKey=${apiKey}`,
      '--reporters',
      'json',
      '--reporter-json-export',
      'newman.json',
    ],
    workDir,
  )
  const report = JSON.parse(readFileSync(join(workDir, 'newman.json'), 'utf8')) as {
    run: {
      stats: { requests: { total: number }; assertions: { total: number; failed: number } }
      failures: Array<{ error: { message: string; test?: string }; source?: { name?: string } }>
    }
  }
  const { stats, failures } = report.run
  console.log(`Portman + newman: ${stats.requests.total} requests, ${stats.assertions.total} assertions, ${stats.assertions.failed} failed`)
  for (const failure of failures) console.log(`FAIL ${failure.source?.name ?? ''}: ${failure.error.test ?? ''} ${failure.error.message}`)
  return { passed: stats.assertions.total - stats.assertions.failed, failed: failures.length + (stats.assertions.total === 0 ? 1 : 0) }
}

/**
 * Runs both tools against the simulator at `apiUrl` with the document it
 * serves at `origin`: the checks passed and the failures not explained as a tool's own.
 */
export async function runContractTools(origin: string, apiKey: string): Promise<Outcome> {
  const workDir = mkdtempSync(join(tmpdir(), 'petstore-sim-tools-'))
  try {
    const [json, yaml] = await Promise.all(
      ['/openapi.json', '/openapi.yaml'].map(async (path) =>
        (await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(10_000) })).text(),
      ),
    )
    writeFileSync(join(workDir, 'openapi.json'), json!)
    // The tools are pointed at the document's first server: the simulator that served it.
    const apiUrl = (JSON.parse(json!) as { servers: Array<{ url: string }> }).servers[0]!.url
    console.log(`\nContract tools against ${apiUrl}, with the document served at ${origin}/openapi.json`)
    const portman = await runPortman(apiUrl, apiKey, workDir)
    const specmatic = await runSpecmatic(apiUrl, yaml!, apiKey, workDir)
    return { passed: portman.passed + specmatic.passed, failed: portman.failed + specmatic.failed }
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}
