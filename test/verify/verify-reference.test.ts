import { describe, expect, it } from 'vitest'
import { createManualClock } from '../../src/core/time/clock.ts'
import type { CheckId } from '../../src/verify/check-catalogue.ts'
import { renderReport } from '../../src/verify/reporters.ts'
import { verify, type VerifyOptions } from '../../src/verify/verify-runner.ts'
import { createReferenceProvider, type ReferenceVariant } from '../support/reference-provider.ts'

// Issue 29: verify against an independent provider written from the spec alone, in variants that choose differently
// wherever the spec is silent. Each must pass with no hard failure (exit 0); the advisory findings are the ones its
// choices explain, and no other. In-process, on a manual clock that verify's sleeps move.

const key = 'reference-free-key'

function run(variant: ReferenceVariant, extra: Partial<VerifyOptions> = {}) {
  const clock = createManualClock('2026-11-24T10:00:05.000Z')
  const provider = createReferenceProvider(variant, { [key]: { perMinute: 60, perDay: 1000 } }, () => clock.now())
  const sleeps: number[] = []
  const options: VerifyOptions = {
    baseUrl: 'http://reference.test/v1',
    key,
    writes: true,
    limits: true,
    clock,
    sleep: async (milliseconds) => {
      sleeps.push(milliseconds)
      clock.advance(milliseconds)
    },
    fetch: (input, init) => provider.fetch(new Request(input, init)),
    ...extra,
  }
  return { provider, sleeps, report: verify(options) }
}

function advisoryFailures(report: Awaited<ReturnType<typeof verify>>): CheckId[] {
  return report.checks.filter((check) => check.outcome === 'fail' && check.advisory !== undefined).map((check) => check.id)
}

describe('verify against a spec-following reference provider', () => {
  it.each<[string, ReferenceVariant, CheckId[]]>([
    ['plain choices', {}, []],
    ['a large catalogue (250 pets)', { pets: 250 }, []],
    ['pets without status', { withoutStatus: true }, ['createPet.default-status']],
    ['another default status (pending)', { defaultStatus: 'pending' }, ['createPet.default-status']],
    ['limit outside 1..100 clamped, not refused', { outOfRange: 'clamp' }, ['limit.out-of-range']],
    ['an unknown status answered with an empty list', { invalidStatus: 'empty' }, ['listPets.status-invalid']],
    ['no Location header on 201', { location: false }, ['createPet.location']],
    ['Retry-After as an HTTP date', { retryAfter: 'http-date' }, []],
    ['no deprecation headers at all', { deprecation: 'none' }, ['getPet.deprecation-format']],
    ['RFC 9745: Deprecation and a rel="deprecation" Link to a documentation page', { deprecation: 'rfc9745' }, []],
    ['unknown categoryIds refused', { categories: [3, 7] }, []],
    ['names of at most 16 characters', { maxNameLength: 16 }, ['createPet.long-name-accepted']],
    ['names of at most 200 characters', { maxNameLength: 200 }, ['createPet.long-name-accepted']],
    ['ids above 2^53', { firstId: 1_790_000_000_000_000_000n }, []],
    ['a listing that lags writes by 1 s', { listingLagMs: 1000 }, []],
    ['two 429s with Retry-After before the first answer', { busyAtFirst: 2 }, []],
    [
      'all of the odd choices at once',
      {
        pets: 120,
        categories: [42],
        maxNameLength: 16,
        firstId: 9_007_199_254_740_993n,
        listingLagMs: 900,
        deprecation: 'rfc9745',
        location: false,
        retryAfter: 'http-date',
        outOfRange: 'clamp',
      },
      ['limit.out-of-range', 'createPet.location', 'createPet.long-name-accepted'],
    ],
  ])('passes with %s, --writes and --limits included', async (_name, variant, advisory) => {
    const { report } = run(variant)
    const result = await report
    const hard = result.checks.filter((check) => check.outcome === 'fail' && check.advisory === undefined)
    expect(hard, renderReport(result, 'pretty')).toEqual([])
    expect(result.failed).toBe(0)
    expect(advisoryFailures(result).sort()).toEqual([...advisory].sort())
    expect(result.requests).toBeLessThanOrEqual(result.budget)
    // The key's minute was spent and recovered: the --limits checks were decided, not skipped.
    expect(result.checks.find((check) => check.id === 'limits.recovers')?.outcome).toBe('pass')
  })

  it('passes an empty catalogue without --writes, naming the checks it hid in an advisory finding', async () => {
    const result = await run({ pets: 0 }, { writes: false, limits: false }).report
    expect(result.failed).toBe(0)
    expect(advisoryFailures(result)).toEqual(['listPets.not-empty'])
    const finding = result.checks.find((check) => check.id === 'listPets.not-empty')!
    expect(finding.actual).toContain('listed none')
    expect(finding.actual).toContain('that hid listPets.items, listPets.status-filter, listPets.status-complete')
    expect(finding.actual).toContain('getPet.found')
    expect(finding.actual).toContain('(--writes creates a pet first)')
    expect(renderReport(result, 'pretty')).toContain('  ! listPets.not-empty')
  })

  it('with --writes, creates a pet first on an empty catalogue, falls back to categoryId 1 and says so', async () => {
    const { report, provider } = run({ pets: 0 })
    const result = await report
    expect(result.failed).toBe(0)
    expect(advisoryFailures(result)).toEqual([])
    // The created pet is what the reads then look at: getPet is checked rather than skipped.
    for (const id of ['getPet.found', 'getPet.deprecation', 'listPets.not-empty'] as const) {
      expect(result.checks.find((check) => check.id === id)?.outcome, id).toBe('pass')
    }
    expect(JSON.parse(provider.created[0]!)).toMatchObject({ categoryId: 1 })
    const created = result.checks.find((check) => check.id === 'createPet.created')!
    expect(created.note).toContain('categoryId 1 sent: the target listed no pet to take a categoryId from')
    expect(renderReport(result, 'pretty')).toContain('note: categoryId 1 sent')
  })

  it('creates its pet with a listed categoryId and a short name', async () => {
    const { report, provider } = run({ categories: [3, 7], maxNameLength: 16 })
    const result = await report
    const sent = JSON.parse(provider.created[0]!) as { name: string; categoryId: number }
    expect([3, 7]).toContain(sent.categoryId)
    expect(sent.name.length).toBeLessThanOrEqual(16)
    expect(result.checks.find((check) => check.id === 'createPet.created')).toMatchObject({ outcome: 'pass' })
    expect(result.checks.find((check) => check.id === 'createPet.created')?.note).toBeUndefined()
  })

  // Issue 36: a provider that cuts names answers a 201 a pact's createPet (the name as sent) fails on.
  it('fails createPet.long-name against a provider that cuts names to 100 characters, and only that check', async () => {
    const { report, provider } = run({ cutNamesAt: 100 }, { limits: false })
    const result = await report
    const sent = provider.created.map((body) => (JSON.parse(body) as { name: string }).name)
    expect(sent.map((name) => name.length)).toContain(255)
    const failed = result.checks.filter((check) => check.outcome === 'fail')
    expect(failed.map((check) => [check.id, check.advisory === undefined ? 'hard' : 'advisory'])).toEqual([['createPet.long-name', 'hard']])
    expect(failed[0]).toMatchObject({
      expected: 'the name as sent, all 255 characters',
      actual: 'the name cut to its first 100 characters',
    })
  })

  it('skips createPet.long-name when the long name is refused with 400, and says so in an advisory finding', async () => {
    const result = await run({ maxNameLength: 64 }, { limits: false }).report
    expect(result.checks.find((check) => check.id === 'createPet.long-name')).toMatchObject({
      outcome: 'skip',
      reason: 'the target refused the name with 400: see createPet.long-name-accepted',
    })
    expect(result.checks.find((check) => check.id === 'createPet.long-name-accepted')).toMatchObject({
      outcome: 'fail',
      advisory: 'constraints on name (its length) are not shown',
    })
    expect(result.failed).toBe(0)
  })

  it('asks for pets above 2^53 by their exact ids', async () => {
    const { report, provider } = run({ firstId: 1_790_000_000_000_000_000n })
    const result = await report
    expect(result.checks.find((check) => check.id === 'getPet.found')).toMatchObject({ outcome: 'pass' })
    expect(provider.requests).toContain('GET /v1/pets/1790000000000000000')
    // The created pet's id, fetched back exactly (30 seeded pets before it).
    expect(provider.requests).toContain('GET /v1/pets/1790000000000000030')
  })

  it('gives a lagging listing a few bounded retries, counted in the budget', async () => {
    const { report, sleeps, provider } = run({ listingLagMs: 1000 }, { limits: false })
    const result = await report
    expect(result.checks.find((check) => check.id === 'createPet.listed')).toMatchObject({ outcome: 'pass' })
    expect(sleeps).toEqual([250, 500, 1000])
    expect(provider.requests.length).toBe(result.requests)
    expect(result.requests).toBeLessThanOrEqual(result.budget)
  })

  it('fails createPet.listed when the pet never shows, after the same bounded retries', async () => {
    const { report, sleeps } = run({ listingLagMs: 60_000 }, { limits: false })
    const result = await report
    expect(sleeps).toEqual([250, 500, 1000])
    expect(result.checks.find((check) => check.id === 'createPet.listed')).toMatchObject({ outcome: 'fail', actual: 'not listed' })
  })
})
