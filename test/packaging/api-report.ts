// The public API, locked: API Extractor reads the declarations `npm run build` writes (dist/types) for each entry point
// of package.json `exports` that has types, and writes its report, `api-report/<entry>.api.md`: every exported name
// with its signature. `api-report.test.ts` fails when the build's surface differs from the committed report;
// `npm run api:update` rewrites the reports, and the diff is what a change does to the API, to be reviewed.
//
// API Extractor runs its own bundled TypeScript (6): this repo's TypeScript 7 has no JavaScript API, and the
// declarations it emits are plain .d.ts that any TypeScript reads.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor'

const root = fileURLToPath(new URL('../..', import.meta.url))
export const reportFolder = 'api-report'
export const updateCommand = 'npm run api:update'

export interface EntryPoint {
  /** The import specifier: `petstore-sim`, `petstore-sim/node`. */
  readonly specifier: string
  /** The built declaration file, relative to the repository. */
  readonly types: string
  /** The report's file name under `api-report/`. */
  readonly report: string
}

/** The entry points with types, read from package.json `exports`, the one place they are listed. */
export function entryPoints(): EntryPoint[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string
    exports: Record<string, string | Record<string, string | null>>
  }
  return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    const types = typeof target === 'object' ? target.types : undefined
    if (types === undefined || types === null) return []
    const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`
    return [{ specifier, types: types.replace(/^\.\//, ''), report: `${specifier.replace('/', '-')}.api.md` }]
  })
}

export interface ReportResult {
  readonly entry: EntryPoint
  /** The committed report equals what the build declares (after an update: it was already equal). */
  readonly unchanged: boolean
  /** API Extractor's errors and warnings: a type a public call takes or returns that the entry does not export, … */
  readonly problems: string[]
}

export interface ReportExport {
  readonly name: string
  /** As the report declares it: `function`, `const`, `class`, `interface`, `type`. */
  readonly kind: string
}

/** The names a report declares exported, with their kind, in the report's (alphabetical) order. */
export function reportExports(report: string): ReportExport[] {
  return [...report.matchAll(/^export (?:declare )?(?:abstract )?(function|const|class|interface|type|enum|namespace) (\w+)/gm)].map(
    ([, kind, name]) => ({ name: name!, kind: kind! }),
  )
}

/** The constants the declarations hold (`export declare const planNames`), wherever they are. */
function declaredConstants(folder: string): Set<string> {
  const names = new Set<string>()
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.d.ts')))
    for (const [, name] of readFileSync(join(folder, file), 'utf8').matchAll(/^(?:export )?declare const (\w+)/gm)) names.add(name!)
  return names
}

/**
 * Whether a symbol an entry's declarations name but the entry does not export is all right: a constant a type is
 * read from (`type PlanName = (typeof planNames)[number]`: the type is the API, its list of values the source it is
 * written from), or a type the main entry exports (`petstore-sim/node`'s `App` holds a `SimulatorCore`, exported by
 * `petstore-sim`: API Extractor reads one entry point at a time).
 */
function excused(name: string, entry: EntryPoint, mainExports: ReadonlySet<string>, constants: ReadonlySet<string>): boolean {
  return constants.has(name) || (entry.report !== entryPoints()[0]!.report && mainExports.has(name))
}

/** Runs API Extractor over one entry point; `update` writes the report, otherwise it is only compared. */
export function apiReport(entry: EntryPoint, update: boolean): ReportResult {
  const mainReport = readFileSync(join(root, reportFolder, entryPoints()[0]!.report), 'utf8')
  const mainExports = new Set(reportExports(mainReport).map((declared) => declared.name))
  const constants = declaredConstants(join(root, entry.types, '..'))
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: join(root, entry.types),
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'es2023',
            lib: ['es2023', 'dom', 'dom.iterable'],
            module: 'nodenext',
            moduleResolution: 'nodenext',
            types: ['node'],
            strict: true,
            skipLibCheck: true,
            allowImportingTsExtensions: true,
            noEmit: true,
          },
          files: [join(root, entry.types)],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.report,
        reportFolder: join(root, reportFolder),
        reportTempFolder: join(root, 'node_modules', '.cache', 'api-report'),
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      messages: {
        compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
        extractorMessageReporting: {
          default: { logLevel: ExtractorLogLevel.Warning },
          // Every type a public call takes or returns is exported, so users can name it (see `excused`).
          'ae-forgotten-export': { logLevel: ExtractorLogLevel.Error, addToApiReportFile: false },
          // No release tags (@public, @beta): everything an entry exports is public.
          'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
          // Doc comments are for editors: a member without one, or a {@link} to an internal name, is no API change.
          'ae-undocumented': { logLevel: ExtractorLogLevel.None },
          'ae-unresolved-link': { logLevel: ExtractorLogLevel.None },
        },
        // The doc comments are for editors, not an API Extractor documentation site.
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(root, 'package.json'),
  })
  const problems: string[] = []
  const result = Extractor.invoke(config, {
    localBuild: update,
    messageCallback(message: ExtractorMessage) {
      message.handled = true
      const forgotten = message.messageId === 'ae-forgotten-export' ? /The symbol "(\w+)"/.exec(message.text)?.[1] : undefined
      if (forgotten !== undefined && excused(forgotten, entry, mainExports, constants)) return
      // The report's own state (changed, copied, created) is `unchanged`, below.
      if (message.messageId.startsWith('console-')) return
      if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning)
        problems.push(message.formatMessageWithLocation(root))
    },
  })
  return { entry, unchanged: !result.apiReportChanged, problems }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const update = process.argv.includes('--update')
  let failed = false
  for (const entry of entryPoints()) {
    const { unchanged, problems } = apiReport(entry, update)
    for (const problem of problems) console.error(`${entry.specifier}: ${problem}`)
    const state = unchanged ? 'unchanged' : update ? 'updated' : `differs from the build: run \`${updateCommand}\``
    console.log(`${reportFolder}/${entry.report}: ${state}`)
    failed ||= problems.length > 0 || (!unchanged && !update)
  }
  process.exitCode = failed ? 1 : 0
}
