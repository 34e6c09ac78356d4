/** Playwright's JSON report (`--reporter json`), the parts the recipes' tests read. */
export interface PlaywrightJsonReport {
  readonly stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  readonly suites: readonly PlaywrightJsonSuite[]
}

interface PlaywrightJsonSuite {
  readonly suites?: readonly PlaywrightJsonSuite[]
  readonly specs?: ReadonlyArray<{
    readonly tests: ReadonlyArray<{
      readonly annotations: ReadonlyArray<{ type: string; description?: string }>
      readonly results: ReadonlyArray<{ workerIndex: number }>
    }>
  }>
}

/** The API URLs each worker's tests were served by, from the `petstore-api` annotation the recipes' fixtures add. */
export function apiUrlsByWorker(report: PlaywrightJsonReport): Map<number, Set<string>> {
  const specs = (suite: PlaywrightJsonSuite): NonNullable<PlaywrightJsonSuite['specs']> => [
    ...(suite.specs ?? []),
    ...(suite.suites ?? []).flatMap(specs),
  ]
  const servedBy = new Map<number, Set<string>>()
  for (const test of report.suites.flatMap(specs).flatMap((spec) => spec.tests)) {
    const apiUrl = test.annotations.find((annotation) => annotation.type === 'petstore-api')!.description!
    for (const result of test.results) servedBy.set(result.workerIndex, (servedBy.get(result.workerIndex) ?? new Set()).add(apiUrl))
  }
  return servedBy
}
