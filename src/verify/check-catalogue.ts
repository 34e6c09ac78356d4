/**
 * Every check `petstore-sim verify` makes, once: its id, its title, the
 * section of the Animal Store specification it comes from, and, for a check
 * of a question the spec leaves open, why it is only advisory. The probes
 * (`*-probes.ts`) record outcomes against these ids; the reporters group by
 * `section`; the docs page lists this table.
 */
export interface CheckDefinition {
  readonly title: string
  readonly section: SpecSection
  /**
   * Set when the spec is silent and the check holds the API to the
   * simulator's answer (README, "Where the spec is silent"): the real API may
   * choose differently, so a failure is reported but fails the run only with
   * `--strict`. The text names the silent question.
   */
  readonly advisory?: string
  /** What the run must allow before this check sends anything: `--writes` (creates pets) or `--limits` (spends a minute's quota). */
  readonly needs?: 'writes' | 'limits'
}

/** The spec's sections, in the order a reader meets them (the pretty reporter's order). */
export const specSections = [
  'Authentication',
  'Errors',
  'Endpoints: GET /pets (listPets)',
  'Limits: Page size',
  'Endpoints: POST /pets (createPet)',
  'Endpoints: GET /pets/{petId} (getPet)',
  'Versioning',
  'Limits: Rate limit headers',
  'Limits: Exceeding the limit',
] as const
export type SpecSection = (typeof specSections)[number]

export const checkCatalogue = {
  'auth.missing-key': {
    title: 'A request without Authorization gets 401 with the Error body',
    section: 'Authentication',
  },
  'auth.invalid-key': {
    title: 'A Bearer token that is no API key gets 401 with the Error body',
    section: 'Authentication',
  },
  'auth.every-operation': {
    title: 'GET /pets/{petId} without Authorization gets 401 too: the scheme applies to every endpoint',
    section: 'Authentication',
  },
  'auth.valid-key': {
    title: 'The given key is accepted: GET /pets answers 200 with a JSON array',
    section: 'Authentication',
  },
  'errors.body-401': {
    title: 'A 401 Error body has code, message and status, and status is 401',
    section: 'Errors',
  },
  'errors.body-404': {
    title: 'A 404 Error body has code, message and status, and status is 404',
    section: 'Errors',
  },
  'errors.body-400': {
    title: 'A 400 Error body has code, message and status, and status is 400',
    section: 'Errors',
    needs: 'writes',
  },
  'listPets.items': {
    title: 'GET /pets answers application/json, each pet with an integer id, a name, an integer categoryId and a PetStatus',
    section: 'Endpoints: GET /pets (listPets)',
  },
  'listPets.status-filter': {
    title: 'GET /pets?status=<s> lists only pets with that status, for each PetStatus',
    section: 'Endpoints: GET /pets (listPets)',
  },
  'listPets.status-invalid': {
    title: 'A status outside the enumeration is a 400 Error',
    section: 'Endpoints: GET /pets (listPets)',
    advisory: 'the response to a status outside the enumeration is not shown',
  },
  'limit.default': {
    title: 'Without limit, GET /pets lists 20 pets (skipped when the target has no more than 20)',
    section: 'Limits: Page size',
  },
  'limit.honoured': {
    title: 'GET /pets?limit=3 lists 3 pets, never more (skipped when the target has no more than 3)',
    section: 'Limits: Page size',
  },
  'limit.minimum': {
    title: 'GET /pets?limit=1 answers 200 with exactly one pet',
    section: 'Limits: Page size',
  },
  'limit.maximum': {
    title: 'GET /pets?limit=100 answers 200 with at most 100 pets, and no fewer than limit=21 gave',
    section: 'Limits: Page size',
  },
  'limit.out-of-range': {
    title: 'limit=0 and limit=101 are 400 Errors, not clamped',
    section: 'Limits: Page size',
    advisory: 'the response to a limit outside 1..100 is not shown',
  },
  'createPet.created': {
    title: 'POST /pets answers 201, application/json, with the pet, its assigned integer id and the fields sent',
    section: 'Endpoints: POST /pets (createPet)',
    needs: 'writes',
  },
  'createPet.fetchable': {
    title: 'The created pet is then fetched by GET /pets/{petId}',
    section: 'Endpoints: POST /pets (createPet)',
    needs: 'writes',
  },
  'createPet.listed': {
    title: 'The created pet is then listed by GET /pets?status=<its status>',
    section: 'Endpoints: POST /pets (createPet)',
    needs: 'writes',
  },
  'createPet.default-status': {
    title: 'A pet created without status is available',
    section: 'Endpoints: POST /pets (createPet)',
    advisory: 'the default status of an animal created without status is not shown',
    needs: 'writes',
  },
  'createPet.location': {
    title: 'The 201 carries Location: <base path>/pets/{id}',
    section: 'Endpoints: POST /pets (createPet)',
    advisory: 'a Location header on 201 is not shown',
    needs: 'writes',
  },
  'createPet.missing-fields': {
    title: 'A body lacking categoryId is a 400 Error and creates nothing',
    section: 'Endpoints: POST /pets (createPet)',
    needs: 'writes',
  },
  'getPet.found': {
    title: 'GET /pets/{petId} of a listed pet answers 200, application/json, with that pet',
    section: 'Endpoints: GET /pets/{petId} (getPet)',
  },
  'getPet.not-found': {
    title: 'GET /pets/{petId} of an id no pet has answers 404 with the Error body',
    section: 'Endpoints: GET /pets/{petId} (getPet)',
  },
  'getPet.deprecation': {
    title: 'getPet carries Deprecation, Sunset on 5 December 2030 and a Link to GET /pets',
    section: 'Versioning',
  },
  'getPet.deprecation-format': {
    title: 'Deprecation is an RFC 9745 date (@<unix seconds>) and the Link relation is successor-version',
    section: 'Versioning',
    advisory: "getPet's deprecation date and the headers' exact forms are not shown",
  },
  'rateLimit.headers': {
    title: 'Every API response carries X-RateLimit-Limit, -Remaining and -Reset as whole numbers, Remaining <= Limit',
    section: 'Limits: Rate limit headers',
  },
  'rateLimit.reset-future': {
    title: 'X-RateLimit-Reset is a Unix time in the next day, not in the past',
    section: 'Limits: Rate limit headers',
  },
  'rateLimit.remaining-decreases': {
    title: 'X-RateLimit-Remaining goes down from one request to the next in a window',
    section: 'Limits: Rate limit headers',
  },
  'rateLimit.plan-limit': {
    title: "X-RateLimit-Limit is the key's plan's per-minute or per-day limit (--plan)",
    section: 'Limits: Rate limit headers',
  },
  'limits.429': {
    title: "The request after the window's last allowed one gets 429, not sooner and not later",
    section: 'Limits: Exceeding the limit',
    needs: 'limits',
  },
  'limits.retry-after': {
    title: 'The 429 carries Retry-After (delta-seconds or an HTTP date)',
    section: 'Limits: Exceeding the limit',
    needs: 'limits',
  },
  'limits.error-body': {
    title: 'The 429 carries the Error body with status 429',
    section: 'Limits: Exceeding the limit',
    advisory: 'the body of a 429 is not shown',
    needs: 'limits',
  },
  'limits.recovers': {
    title: 'After waiting Retry-After, the next request is answered 200',
    section: 'Limits: Exceeding the limit',
    needs: 'limits',
  },
} as const satisfies Record<string, CheckDefinition>

export type CheckId = keyof typeof checkCatalogue

/** The check ids in catalogue order. */
export const checkIds = Object.keys(checkCatalogue) as CheckId[]
