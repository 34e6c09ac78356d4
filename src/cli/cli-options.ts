import { Command, Option } from 'commander'
import packageJson from '../../package.json' with { type: 'json' }
import { planHelp } from '../core/access/plans.ts'
import { transportFaults } from '../core/http/fault-kinds.ts'
import { petStatuses, type PetStatus } from '../core/model/pet-types.ts'
import { defaults } from '../core/defaults.ts'
import type { Latency } from '../core/operations/operation-context.ts'
import { engines, type Engine } from '../node/lane-types.ts'
import { logFormats, type LogFormat } from '../node/request-log.ts'
import {
  collectFaults,
  collectKeys,
  collectOrigins,
  collectProxies,
  formatDuration,
  parseBanAfter,
  parseBasePath,
  parseDurationFlag,
  parseLatency,
  wholeNumber,
  partyName,
} from './cli-flag-parsers.ts'
import { withStateOptions, type StateCliOptions } from './state-options.ts'
import { withStoreOptions, type StoreCliOptions } from './store-options.ts'

/** What the command line asks for, before any file is read. */
export interface CliOptions extends StateCliOptions, StoreCliOptions {
  port: number
  host: string
  seed?: number
  pets?: number
  fixtures?: string
  key: string[]
  keys?: string
  latency?: Latency
  basePath: string
  banAfter: number | 'off'
  banFor: number
  bodyLimit: number
  log: LogFormat
  adminToken?: string
  defaultStatus: PetStatus
  engine: Engine
  handlers?: string
  fault: string[]
  faults?: string
  allowedHost: string[]
  prefer: boolean
  headersTimeout: number
  requestTimeout: number
  maxPipelined: number
  coverage?: string
  pact?: string
  pactConsumer: string
  pactProvider: string
  readyFile?: string
  pactSimulatorChoices?: boolean
  clientReport?: string
  failOnClientViolations?: boolean
  providerStates?: string
  corsOrigin: string[]
  trustProxy: string[]
  maxPets: number
  maxSandboxes: number
  sandboxIdle: number
  sandboxHeader?: boolean
}

const envPrefix = 'PETSTORE_SIM_'

/**
 * The `petstore-sim` command. Every flag can also come from an environment
 * variable `PETSTORE_SIM_<NAME>`; flags win.
 */
export function createProgram(): Command {
  const option = (flags: string, description: string, envName: string) => new Option(flags, description).env(`${envPrefix}${envName}`)
  const program = new Command('petstore-sim')
    .description('Simulates the Animal Store API over HTTP for frontend development and contract tests.')
    .addOption(
      option('-p, --port <n>', 'port to listen on; 0 picks a free port', 'PORT')
        .argParser(wholeNumber('port', 0, 65535))
        .default(defaults.port),
    )
    .addOption(option('--host <addr>', 'address to bind; 0.0.0.0 exposes the simulator to the network', 'HOST').default(defaults.host))
    .addOption(
      option('--seed <n>', 'seed of the generated catalogue', 'SEED')
        .argParser(wholeNumber('seed', 0, Number.MAX_SAFE_INTEGER))
        .default(defaults.seed),
    )
    .addOption(
      option('--pets <n>', 'how many pets to generate', 'PETS')
        .argParser(wholeNumber('pets', 0, 1_000_000))
        .default(defaults.pets),
    )
    .addOption(option('--fixtures <file>', 'JSON array of pets to serve instead of generated ones', 'FIXTURES'))
    .addOption(
      option(
        '--key <token=plan>',
        `an API key and its plan (${planHelp}); repeatable; the env variable takes a comma-separated list`,
        'KEY',
      )
        .argParser(collectKeys)
        .default([], 'the demo keys'),
    )
    .addOption(option('--keys <file>', 'JSON object of API keys: {"token": "plan"}', 'KEYS'))
    .addOption(option('--latency <ms>', 'delay every API response: fixed ms, or a min-max range', 'LATENCY').argParser(parseLatency))
    .addOption(option('--base-path <path>', 'the API prefix', 'BASE_PATH').argParser(parseBasePath).default(defaults.basePath))
    .addOption(
      option('--ban-after <n>', 'ban a caller after this many 429s in a row; "off" to never ban', 'BAN_AFTER')
        .argParser(parseBanAfter)
        .default(defaults.ban.after),
    )
    .addOption(
      option(
        '--ban-for <duration>',
        'how long a ban lasts, with its unit (500ms, 30s, 10m, 1h); a JSON number in the config file is ms',
        'BAN_FOR',
      )
        .argParser(parseDurationFlag)
        .default(defaults.ban.durationMs, formatDuration(defaults.ban.durationMs)),
    )
    .addOption(
      option('--body-limit <bytes>', 'largest request body; larger gets 413', 'BODY_LIMIT')
        .argParser(wholeNumber('body-limit', 1, 2 ** 31))
        .default(defaults.bodyLimit, `${defaults.bodyLimit} (1 MiB)`),
    )
    .addOption(option('--log <format>', 'request log: one line per request', 'LOG').choices(logFormats).default(defaults.cliLog))
    .addOption(
      option(
        '--admin-token <token>',
        'require "Authorization: Bearer <token>" on /__sim control endpoints (needed to enable them on a non-loopback --host)',
        'ADMIN_TOKEN',
      ),
    )
    .addOption(
      option('--default-status <status>', 'status of a pet created without one', 'DEFAULT_STATUS')
        .choices(petStatuses)
        .default(defaults.defaultStatus),
    )
    .addOption(
      option(
        '--handlers <module>',
        'your own MSW handlers (a module exporting them as default or `handlers`), answered before the simulator; loads msw',
        'HANDLERS',
      ),
    )
    .addOption(
      option(
        '--engine <engine>',
        'direct: the simulator answers without msw (fast); msw: everything through msw getResponse (comparison, fallback)',
        'ENGINE',
      )
        .choices(engines)
        .default(defaults.engine),
    )
    .addOption(
      option(
        '--headers-timeout <duration>',
        "how long a client may take to send a request's headers, with its unit (10s); then 408",
        'HEADERS_TIMEOUT',
      )
        .argParser(parseDurationFlag)
        .default(defaults.headersTimeoutMs, formatDuration(defaults.headersTimeoutMs)),
    )
    .addOption(
      option(
        '--request-timeout <duration>',
        'how long a client may take to send a whole request, body included, with its unit (30s); then 408',
        'REQUEST_TIMEOUT',
      )
        .argParser(parseDurationFlag)
        .default(defaults.requestTimeoutMs, formatDuration(defaults.requestTimeoutMs)),
    )
    .addOption(
      option(
        '--fault <rule>',
        `a fault rule: <operation | METHOD /path | *> <status | ${transportFaults.join(' | ')}> [delay=<ms>|<min>-<max>] [times=<n>] [p=<0..1>] [key=<API key>]; repeatable; the env variable takes a ;-separated list`,
        'FAULT',
      )
        .argParser(collectFaults)
        .default([], 'none'),
    )
    .addOption(option('--faults <file>', 'JSON array of fault rules (the rule model of POST /__sim/faults)', 'FAULTS'))
    .addOption(
      option(
        '--allowed-host <name>',
        'a host name accepted in Host besides loopback names (.example.test: a domain and its subdomains; * for any); repeatable',
        'ALLOWED_HOST',
      )
        .argParser((value: string, previous: string[]) => [
          ...previous,
          ...value
            .split(',')
            .map((name) => name.trim().toLowerCase())
            .filter((name) => name !== ''),
        ])
        .default([], 'none'),
    )
    .addOption(
      option(
        '--no-prefer',
        'ignore "Prefer: code=<status>" (by default it forces the operation\'s documented answer for that status)',
        'NO_PREFER',
      ),
    )
    .addOption(
      option('--max-pipelined <n>', 'requests a connection may have waiting behind the one being answered; more closes it', 'MAX_PIPELINED')
        .argParser(wholeNumber('max-pipelined', 0, 10_000))
        .default(defaults.maxPipelinedRequests),
    )
    .addOption(option('--coverage <file>', 'write contract coverage at shutdown: Markdown if the name ends in .md, else JSON', 'COVERAGE'))
    .addOption(option('--pact <file>', "write the requests' Pact 4 file at shutdown (GET /__sim/requests.pact's pact)", 'PACT'))
    .addOption(
      option('--pact-consumer <name>', "the consumer's name in the --pact file", 'PACT_CONSUMER')
        .argParser(partyName('consumer'))
        .default(defaults.pact.consumer),
    )
    .addOption(
      option('--pact-provider <name>', "the provider's name in the --pact file", 'PACT_PROVIDER')
        .argParser(partyName('provider'))
        .default(defaults.pact.provider),
    )
    .addOption(
      option(
        '--pact-simulator-choices',
        "also write the answers the spec does not define (the simulator's own 400s, 410) to the --pact file, marked as such",
        'PACT_SIMULATOR_CHOICES',
      ),
    )
    .addOption(
      option(
        '--client-report <file>',
        'write the client report at shutdown: JUnit XML if the name ends in .xml, else JSON',
        'CLIENT_REPORT',
      ),
    )
    .addOption(
      option(
        '--fail-on-client-violations',
        "exit 1 at shutdown when a caller broke the spec's rules for clients",
        'FAIL_ON_CLIENT_VIOLATIONS',
      ),
    )
    .addOption(
      option(
        '--provider-states <file>',
        'JSON object of your own provider states: state name -> { scenario, snapshot (a file), states (built-in ones, with params) }',
        'PROVIDER_STATES',
      ),
    )
    .addOption(
      option('--ready-file <file>', "once listening, write the API's URL to this file (removed at start and at exit)", 'READY_FILE'),
    )
    .addOption(
      option(
        '--cors-origin <origin>',
        "a web origin whose pages may call the simulator, besides this machine's (localhost, 127.x, [::1]); * for any; repeatable",
        'CORS_ORIGIN',
      )
        .argParser(collectOrigins)
        .default([], 'none'),
    )
    .addOption(
      option(
        '--trust-proxy <list>',
        'proxies (addresses, CIDR ranges, loopback, linklocal, uniquelocal) whose X-Forwarded-For or Forwarded names the client; repeatable',
        'TRUST_PROXY',
      )
        .argParser(collectProxies)
        .default([], 'none'),
    )
    .addOption(
      option('--max-pets <n>', 'the most pets createPet may add until a reset; then 507 store_full', 'MAX_PETS')
        .argParser(wholeNumber('max-pets', 0, 100_000_000))
        .default(defaults.maxPets),
    )
    .addOption(
      option('--max-sandboxes <n>', 'the most sandboxes (/sandboxes/<name>/v1) held at once; 0 turns them off', 'MAX_SANDBOXES')
        .argParser(wholeNumber('max-sandboxes', 0, 10_000))
        .default(defaults.maxSandboxes),
    )
    .addOption(
      option('--sandbox-idle <duration>', 'how long a sandbox no request reaches is kept, with its unit (30s, 10m, 1h)', 'SANDBOX_IDLE')
        .argParser(parseDurationFlag)
        .default(defaults.sandboxIdleMs, formatDuration(defaults.sandboxIdleMs)),
    )
    .addOption(
      option(
        '--sandbox-header',
        'also pick a sandbox by the X-Petstore-Sandbox header (the path wins; a conflict is a 400)',
        'SANDBOX_HEADER',
      ),
    )
    .helpOption('-h, --help', 'show this help')
    .version(packageVersion, '-V, --version', 'show the version')
    .addHelpText(
      'after',
      `
Examples:
  $ petstore-sim
  $ petstore-sim --port 0 --log json --seed 7 --pets 200
  $ petstore-sim --key my-key=pro --key big-key=enterprise:5000/2000000
  $ PETSTORE_SIM_PORT=9000 petstore-sim --latency 20-80 --ban-after off
  $ petstore-sim --store redis://127.0.0.1:6379 --workers 4   # one API on every core, state in Redis

Control endpoints (no API key; loopback clients only, unless --admin-token is given):
  GET /__sim/health   POST /__sim/reset   GET|POST /__sim/clock   GET /__sim/requests   GET|POST|DELETE /__sim/faults
The OpenAPI document: GET /openapi.json, GET /openapi.yaml`,
    )
  return withStoreOptions(withStateOptions(program, { option, parseDuration: parseDurationFlag, formatDuration }), { option })
}

const packageVersion: string = packageJson.version
