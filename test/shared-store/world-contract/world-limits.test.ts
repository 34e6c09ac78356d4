import { expect, it } from 'vitest'
import { describeWorlds, frozenAt, tinyKey, type Answer, type Instance } from './targets.ts'

// The world contract: the rate limits and bans, one count for the world however its requests are spread over its
// instances, refused on every instance once spent, and given back by a reset made through a. The clock is frozen, so
// every figure is exact. The tiny key's plan is 3 a minute and 5 a day; a ban comes after 2 refusals in a row, for 30 s.
const banMs = 30_000

interface Seen {
  readonly by: string
  readonly status: number
  readonly code: string | undefined
  readonly remaining: number
  readonly reset: number
  readonly retryAfter: number | undefined
}

const seen = (reader: Instance, answer: Answer): Seen => ({
  by: reader.name,
  status: answer.status,
  code: answer.status >= 400 ? answer.body?.code : undefined,
  remaining: Number(answer.headers.get('x-ratelimit-remaining')),
  reset: Number(answer.headers.get('x-ratelimit-reset')),
  retryAfter: answer.headers.has('retry-after') ? Number(answer.headers.get('retry-after')) : undefined,
})

/** `count` requests with `key`, sent to the instances in turn, starting with the one after `a` when there are two. */
async function spread(readers: readonly Instance[], count: number, key: string | null, path = '/pets?limit=1'): Promise<Seen[]> {
  const answers: Seen[] = []
  for (let index = 0; index < count; index++) {
    const reader = readers[(index + 1) % readers.length]!
    answers.push(seen(reader, await reader.api(path, { key })))
  }
  return answers
}

const epochSeconds = (iso: string, plusMs = 0) => Math.ceil((Date.parse(iso) + plusMs) / 1000)
const minuteEnd = Math.ceil((Math.floor(Date.parse(frozenAt) / 60_000) + 1) * 60)

describeWorlds(
  'the world contract: rate limits and bans',
  (world) => {
    const freeze = () => world().a.controlOk('/clock', { method: 'POST', body: { set: frozenAt, freeze: true } })

    it('counts one minute window over every instance, then refuses on each', async () => {
      await freeze()
      const answers = await spread(world().readers, 5, tinyKey)
      expect(answers.map(({ status, remaining }) => [status, remaining])).toEqual([
        [200, 2],
        [200, 1],
        [200, 0],
        [429, 0],
        [429, 0],
      ])
      expect(answers.map((answer) => answer.reset)).toEqual(answers.map(() => minuteEnd))
      expect(answers.slice(3).map((answer) => [answer.code, answer.retryAfter])).toEqual([
        ['rate_limit_exceeded', minuteEnd - epochSeconds(frozenAt)],
        ['rate_limit_exceeded', minuteEnd - epochSeconds(frozenAt)],
      ])
      // Every instance is refused, not only the ones that counted.
      for (const reader of world().readers) expect((await reader.api('/pets?limit=1', { key: tinyKey })).status, reader.name).toBe(429)
    })

    it('bans after refusals in a row, on every instance, until the ban ends', async () => {
      await freeze()
      const answers = await spread(world().readers, 6, tinyKey)
      expect(answers.map(({ status, code }) => [status, code])).toEqual([
        [200, undefined],
        [200, undefined],
        [200, undefined],
        [429, 'rate_limit_exceeded'],
        [429, 'rate_limit_exceeded'],
        [429, 'api_key_banned'],
      ])
      expect(answers[5]).toMatchObject({ retryAfter: banMs / 1000, reset: epochSeconds(frozenAt, banMs) })
      for (const reader of world().readers) {
        const banned = seen(reader, await reader.api('/pets?limit=1', { key: tinyKey }))
        expect([banned.status, banned.code, banned.retryAfter], reader.name).toEqual([429, 'api_key_banned', banMs / 1000])
        const state = await reader.controlOk('/state')
        const tiny = (state.keys as { plan: string; bannedUntil?: string }[]).find((key) => key.plan === 'enterprise:3/5')
        expect(tiny?.bannedUntil, `${reader.name}: /__sim/state`).toBe(new Date(Date.parse(frozenAt) + banMs).toISOString())
      }
      // Past the ban (and into the next minute): served again, on every instance.
      await world().a.controlOk('/clock', { method: 'POST', body: { advance: banMs + 30_000 } })
      const after = await spread(world().readers, 2, tinyKey)
      expect(after.map(({ status, remaining }) => [status, remaining])).toEqual([
        [200, 1],
        [200, 0],
      ])
    })

    it('binds the day window across minutes and instances', async () => {
      await freeze()
      expect((await spread(world().readers, 3, tinyKey)).map((answer) => answer.status)).toEqual([200, 200, 200])
      await world().a.controlOk('/clock', { method: 'POST', body: { advance: '1m' } })
      const answers = await spread(world().readers, 3, tinyKey)
      expect(answers.map(({ status, remaining }) => [status, remaining])).toEqual([
        [200, 1],
        [200, 0],
        [429, 0],
      ])
      const dayEnd = (Math.floor(Date.parse(frozenAt) / 86_400_000) + 1) * 86_400
      expect(answers[2]).toMatchObject({ reset: dayEnd, retryAfter: dayEnd - epochSeconds(frozenAt, 60_000) })
    })

    it('gives every count and ban back with a reset through a', async () => {
      await freeze()
      await spread(world().readers, 6, tinyKey)
      expect((await world().readers.at(-1)!.api('/pets?limit=1', { key: tinyKey })).status).toBe(429)
      await world().a.controlOk('/reset', { method: 'POST' })
      await freeze()
      const answers = await spread(world().readers, 3, tinyKey)
      expect(answers.map(({ status, remaining }) => [status, remaining])).toEqual([
        [200, 2],
        [200, 1],
        [200, 0],
      ])
    })

    it('counts a keyless client in one anonymous bucket over every instance', async () => {
      await freeze()
      const answers = await spread(world().readers, 4, null)
      expect(answers.map(({ status, code, remaining }) => [status, code, remaining])).toEqual([
        [401, 'missing_api_key', 59],
        [401, 'missing_api_key', 58],
        [401, 'missing_api_key', 57],
        [401, 'missing_api_key', 56],
      ])
      const { anonymous } = await world().readers.at(-1)!.controlOk('/state')
      expect(anonymous).toMatchObject({ buckets: 1, banned: 0 })
    })

    it('answers a forced status without counting it, on every instance', async () => {
      await freeze()
      const forced = []
      for (const reader of world().readers) {
        forced.push(seen(reader, await reader.api('/pets/1', { key: tinyKey, headers: { prefer: 'code=404' } })))
      }
      expect(forced.map(({ status, remaining }) => [status, remaining])).toEqual(forced.map(() => [404, 3]))
      const counted = await spread(world().readers, 1, tinyKey)
      expect(counted.map(({ status, remaining }) => [status, remaining])).toEqual([[200, 2]])
    })
  },
  { ban: { after: 2, durationMs: banMs } },
)
