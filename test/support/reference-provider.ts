/**
 * An independent provider of the Animal Store API, written from the spec
 * alone (not from the simulator: it imports nothing of src/), as a Fetch
 * handler. Wherever the spec is silent a variant chooses differently, as a
 * real provider may; `petstore-sim verify` must pass every variant with no
 * hard failure (issue 29). Time is `now()`, so a test moves it with verify's
 * sleep instead of waiting.
 */

const statuses = ['available', 'pending', 'sold'] as const
type Status = (typeof statuses)[number]

/** The spec's removal date of getPet, 5 December 2030, and a deprecation date of our choosing. */
const sunset = Date.UTC(2030, 11, 5)
const deprecatedAt = Date.UTC(2025, 11, 5)

/** The choices a provider makes where the spec is silent. Every field is optional: the defaults are plain ones. */
export interface ReferenceVariant {
  /** Pets in the catalogue at the start (default 30). */
  readonly pets?: number
  /** Seeded pets carry no `status`, and neither does a pet created without one. */
  readonly withoutStatus?: boolean
  /** The status of a pet created without one (default available); ignored with `withoutStatus`. */
  readonly defaultStatus?: Status
  /** A `limit` outside 1..100: refused with 400 (default) or clamped. */
  readonly outOfRange?: 'refuse' | 'clamp'
  /** A `status` outside the enumeration: refused with 400 (default) or an empty list. */
  readonly invalidStatus?: 'refuse' | 'empty'
  /** A Location header on 201 (default true). */
  readonly location?: boolean
  /** Retry-After as delta-seconds (default) or an HTTP date. */
  readonly retryAfter?: 'seconds' | 'http-date'
  /**
   * getPet's headers: Deprecation, Sunset and a successor Link (default); RFC 9745's Deprecation with a
   * `rel="deprecation"` Link to a documentation page; or none at all.
   */
  readonly deprecation?: 'successor' | 'rfc9745' | 'none'
  /** The categories that exist: a categoryId outside them is a 400. Default: any integer is accepted. */
  readonly categories?: readonly number[]
  /** The longest name accepted (default 255). */
  readonly maxNameLength?: number
  /** A drift, not a choice: names longer than this are accepted, then stored and answered cut to it. */
  readonly cutNamesAt?: number
  /** The first id assigned (default 1); ids above 2^53 are written and read exactly. */
  readonly firstId?: bigint
  /** A created pet shows in GET /pets only this long after its creation (a lagging replica). getPet sees it at once. */
  readonly listingLagMs?: number
  /** The first so many requests with a key get 429 with `Retry-After: 2`, as when another client shares the key. */
  readonly busyAtFirst?: number
}

interface Pet {
  readonly id: bigint
  readonly name: string
  readonly categoryId: bigint
  readonly status: Status | undefined
  /** When it shows in listings (epoch ms). */
  readonly listedFrom: number
}

interface Counter {
  window: number
  minute: number
  day: number
  dayStart: number
}

export interface ReferenceProvider {
  readonly fetch: (request: Request) => Promise<Response>
  /** The createPet bodies received, as sent. */
  readonly created: string[]
  /** Every request's method and path with query, in order. */
  readonly requests: string[]
  /** What a provider team's Pact state handlers do (issue 36): put the provider into a state, and back. */
  readonly states: ReferenceStates
}

export interface ReferenceStates {
  /** The pet exists with exactly these values (replacing one with its id). */
  putPet(pet: { id: number; name: string; categoryId: number; status?: Status }): void
  removePet(id: number): void
  /** No pets at all. */
  empty(): void
  /** The key has used its whole minute. */
  spendMinute(token: string): void
  /** The catalogue and the counters as they were at the start. */
  restore(): void
}

/** `keys` maps each API key to its plan's limits. The API is under `/v1`. */
export function createReferenceProvider(
  variant: ReferenceVariant,
  keys: Readonly<Record<string, { perMinute: number; perDay: number }>>,
  now: () => number,
): ReferenceProvider {
  const firstId = variant.firstId ?? 1n
  const pets: Pet[] = Array.from({ length: variant.pets ?? 30 }, (_, index) => ({
    id: firstId + BigInt(index),
    name: `Pet ${index}`,
    categoryId: BigInt(variant.categories?.[index % variant.categories.length] ?? (index % 5) + 1),
    status: variant.withoutStatus ? undefined : statuses[index % statuses.length],
    listedFrom: 0,
  }))
  let nextId = firstId + BigInt(pets.length)
  const counters = new Map<string, Counter>()
  const created: string[] = []
  const requests: string[] = []
  let busy = variant.busyAtFirst ?? 0

  function rateHeaders(bucket: string, limits: { perMinute: number; perDay: number }, spend: boolean) {
    const at = now()
    const window = Math.floor(at / 60_000) * 60_000
    const dayStart = Math.floor(at / 86_400_000) * 86_400_000
    const counter = counters.get(bucket) ?? { window, minute: 0, day: 0, dayStart }
    if (counter.window !== window) Object.assign(counter, { window, minute: 0 })
    if (counter.dayStart !== dayStart) Object.assign(counter, { dayStart, day: 0 })
    counters.set(bucket, counter)
    const over = counter.minute >= limits.perMinute || counter.day >= limits.perDay
    if (spend && !over) {
      counter.minute++
      counter.day++
    }
    const remaining = Math.max(0, Math.min(limits.perMinute - counter.minute, limits.perDay - counter.day))
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(limits.perMinute),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String((window + 60_000) / 1000),
    }
    return { headers, over, retryAt: window + 60_000 }
  }

  function retryAfter(at: number): string {
    return variant.retryAfter === 'http-date' ? new Date(at).toUTCString() : String(Math.max(1, Math.ceil((at - now()) / 1000)))
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url)
    requests.push(`${request.method} ${url.pathname}${url.search}`)
    const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1]
    const limits = token === undefined ? undefined : keys[token]
    if (limits === undefined) {
      // Rate-limit headers are on every API response: an unauthenticated caller counts in a bucket of its own.
      const { headers } = rateHeaders('anonymous', { perMinute: 60, perDay: 1000 }, true)
      return error(401, 'unauthorized', 'A valid API key is required', headers)
    }
    if (busy > 0) {
      busy--
      const { headers } = rateHeaders(token!, limits, false)
      return error(429, 'busy', 'Try again shortly', { ...headers, 'retry-after': '2' })
    }
    const { headers, over, retryAt } = rateHeaders(token!, limits, true)
    if (over) return error(429, 'too_many_requests', 'Rate limit exceeded', { ...headers, 'retry-after': retryAfter(retryAt) })
    if (url.pathname === '/v1/pets' && request.method === 'GET') return listPets(url, headers)
    if (url.pathname === '/v1/pets' && request.method === 'POST') return createPet(await request.text(), headers)
    const single = /^\/v1\/pets\/(\d{1,19})$/.exec(url.pathname)
    if (single && request.method === 'GET') return getPet(BigInt(single[1]!), headers)
    return error(404, 'not_found', 'No such resource', headers)
  }

  function listPets(url: URL, headers: Record<string, string>): Response {
    const limitText = url.searchParams.get('limit')
    let limit = 20
    if (limitText !== null) {
      if (!/^-?\d{1,9}$/.test(limitText)) return error(400, 'bad_limit', 'limit must be an integer', headers)
      limit = Number(limitText)
      if (limit < 1 || limit > 100) {
        if (variant.outOfRange !== 'clamp') return error(400, 'bad_limit', 'limit must be from 1 to 100', headers)
        limit = Math.min(100, Math.max(1, limit))
      }
    }
    const status = url.searchParams.get('status')
    if (status !== null && !(statuses as readonly string[]).includes(status)) {
      if (variant.invalidStatus === 'empty') return json(200, '[]', headers)
      return error(400, 'bad_status', 'status must be available, pending or sold', headers)
    }
    const at = now()
    const listed = pets.filter((pet) => pet.listedFrom <= at && (status === null || pet.status === status)).slice(0, limit)
    return json(200, `[${listed.map(petJson).join(',')}]`, headers)
  }

  function createPet(text: string, headers: Record<string, string>): Response {
    created.push(text)
    let body: unknown
    try {
      body = JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
        typeof value === 'number' && context?.source !== undefined && /^-?\d+$/.test(context.source) ? BigInt(context.source) : value,
      )
    } catch {
      return error(400, 'bad_body', 'The body is not JSON', headers)
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return error(400, 'bad_body', 'The body must be an object', headers)
    const { name, categoryId, status } = body as Record<string, unknown>
    const maxName = variant.maxNameLength ?? 255
    if (typeof name !== 'string' || name.length === 0 || name.length > maxName) {
      return error(400, 'bad_name', `name must be a string of 1 to ${maxName} characters`, headers)
    }
    if (typeof categoryId !== 'bigint' || categoryId < -(2n ** 63n) || categoryId >= 2n ** 63n) {
      return error(400, 'bad_category', 'categoryId must be an int64', headers)
    }
    if (variant.categories !== undefined && !variant.categories.some((known) => BigInt(known) === categoryId)) {
      return error(400, 'unknown_category', `There is no category ${categoryId}`, headers)
    }
    if (status !== undefined && !(statuses as readonly unknown[]).includes(status)) {
      return error(400, 'bad_status', 'status must be available, pending or sold', headers)
    }
    const pet: Pet = {
      id: nextId++,
      name: variant.cutNamesAt === undefined ? name : name.slice(0, variant.cutNamesAt),
      categoryId,
      status: (status as Status | undefined) ?? (variant.withoutStatus ? undefined : (variant.defaultStatus ?? 'available')),
      listedFrom: now() + (variant.listingLagMs ?? 0),
    }
    pets.push(pet)
    const location: Record<string, string> = variant.location === false ? {} : { location: `/v1/pets/${pet.id}` }
    return json(201, petJson(pet), { ...headers, ...location })
  }

  function getPet(id: bigint, headers: Record<string, string>): Response {
    const deprecation: Record<string, string> =
      variant.deprecation === 'none'
        ? {}
        : variant.deprecation === 'rfc9745'
          ? {
              deprecation: `@${deprecatedAt / 1000}`,
              sunset: new Date(sunset).toUTCString(),
              link: '<https://docs.animal-store.example/deprecations/get-pet>; rel="deprecation"; type="text/html"',
            }
          : {
              deprecation: `@${deprecatedAt / 1000}`,
              sunset: new Date(sunset).toUTCString(),
              link: '</v1/pets>; rel="successor-version"',
            }
    const pet = pets.find((item) => item.id === id)
    if (pet === undefined) return error(404, 'not_found', `No pet ${id}`, { ...headers, ...deprecation })
    return json(200, petJson(pet), { ...headers, ...deprecation })
  }

  const initialPets = [...pets]
  const initialNextId = nextId
  const states: ReferenceStates = {
    putPet(pet) {
      states.removePet(pet.id)
      pets.push({ id: BigInt(pet.id), name: pet.name, categoryId: BigInt(pet.categoryId), status: pet.status, listedFrom: 0 })
      if (nextId <= BigInt(pet.id)) nextId = BigInt(pet.id) + 1n
    },
    removePet(id) {
      const index = pets.findIndex((pet) => pet.id === BigInt(id))
      if (index !== -1) pets.splice(index, 1)
    },
    empty: () => void pets.splice(0),
    spendMinute(token) {
      const limits = keys[token]
      if (limits === undefined) throw new Error(`no key ${token}`)
      rateHeaders(token, limits, false)
      counters.get(token)!.minute = limits.perMinute
    },
    restore() {
      pets.splice(0, pets.length, ...initialPets)
      nextId = initialNextId
      counters.clear()
    },
  }
  return { fetch: handle, created, requests, states }
}

/** A pet as JSON text, ids as their digits (exact past 2^53). */
function petJson(pet: Pet): string {
  const status = pet.status === undefined ? '' : `,"status":${JSON.stringify(pet.status)}`
  return `{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}${status}}`
}

function json(status: number, body: string, headers: Record<string, string>): Response {
  return new Response(body, { status, headers: { ...headers, 'content-type': 'application/json' } })
}

function error(status: number, code: string, message: string, headers: Record<string, string>): Response {
  return json(status, JSON.stringify({ code, message, status }), headers)
}
