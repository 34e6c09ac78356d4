/**
 * Every check `petstore-sim verify` makes, once: its id, its title, the
 * section of the Animal Store specification it comes from, and, for a check
 * of a question the spec leaves open, why it is only advisory. The probes
 * (`*-probes.ts`) record outcomes against these ids; the reporters group by
 * `section`; the docs page lists this table.
 */
export interface CheckDefinition {
  readonly title: string
  /**
   * The spec's words the check rests on, quoted (a table row as "GET /pets: 200, …"). A hard check holds the target
   * to what they say; an advisory check quotes the "not shown" it is about, or the sentence that names no header.
   */
  readonly basis: string
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
    basis: 'When the key is missing or invalid, the response is 401 with an Error body.',
    section: 'Authentication',
  },
  'auth.invalid-key': {
    title: 'A Bearer token that is no API key gets 401 with the Error body',
    basis: 'When the key is missing or invalid, the response is 401 with an Error body.',
    section: 'Authentication',
  },
  'auth.every-operation': {
    title: 'GET /pets/{petId} without Authorization gets 401 too: the scheme applies to every endpoint',
    basis: 'The scheme applies to every listed endpoint.',
    section: 'Authentication',
  },
  'auth.valid-key': {
    title: 'The given key is accepted: GET /pets answers 200 with a JSON array',
    basis: 'The API key is passed as the bearer token in the `Authorization` header, in the form `Authorization: Bearer <API_KEY>`.',
    section: 'Authentication',
  },
  'errors.body-401': {
    title: 'A 401 Error body has code, message and status, and status is 401',
    basis:
      'Error responses carry the Error body (code, message, status) in `application/json`. The `status` field of the Error body repeats the HTTP status code.',
    section: 'Errors',
  },
  'errors.body-404': {
    title: 'A 404 Error body has code, message and status, and status is 404',
    basis:
      'Error responses carry the Error body (code, message, status) in `application/json`. The `status` field of the Error body repeats the HTTP status code.',
    section: 'Errors',
  },
  'errors.media-type': {
    title: 'Every 400, 401 and 404 of the run is Content-Type: application/json (not another JSON type)',
    basis: 'Error responses carry the Error body (code, message, status) in `application/json`.',
    section: 'Errors',
  },
  'errors.body-400': {
    title: 'A 400 Error body has code, message and status, and status is 400',
    basis:
      'Error responses carry the Error body (code, message, status) in `application/json`. The `status` field of the Error body repeats the HTTP status code.',
    section: 'Errors',
    needs: 'writes',
  },
  'listPets.items': {
    title: 'GET /pets answers application/json, each pet with an integer id, a name, an integer categoryId and a PetStatus',
    basis: 'GET /pets: 200, Pets (array of Pet). JSON is used for request and response bodies (content type `application/json`).',
    section: 'Endpoints: GET /pets (listPets)',
  },
  'listPets.status-filter': {
    title: 'GET /pets?status=<s> lists only pets with that status, for each PetStatus',
    basis: 'GET /pets, query parameter status (one of available, pending, sold): Filters animals by availability status.',
    section: 'Endpoints: GET /pets (listPets)',
  },
  'listPets.status-complete': {
    title: 'GET /pets?status=<s> lists every pet of that status that GET /pets?limit=100 lists (when the catalogue fits in that page)',
    basis: 'GET /pets, query parameter status (one of available, pending, sold): Filters animals by availability status.',
    section: 'Endpoints: GET /pets (listPets)',
  },
  'listPets.not-empty': {
    title: 'GET /pets lists at least one pet (with --writes, the one the run created): an empty listing hides the checks that need a pet',
    basis: 'The service keeps a catalogue of animals offered by a store.',
    section: 'Endpoints: GET /pets (listPets)',
    advisory: 'whether the catalogue holds any animal is not shown (an empty staging may be right)',
  },
  'listPets.status-invalid': {
    title: 'A status outside the enumeration is a 400 Error',
    basis: 'Response to a `limit` outside 1..100 or to a `status` outside the enumeration: not shown.',
    section: 'Endpoints: GET /pets (listPets)',
    advisory: 'the response to a status outside the enumeration is not shown',
  },
  'limit.default': {
    title: 'Without limit, GET /pets lists 20 pets (skipped when the target has no more than 20)',
    basis: 'GET /pets, query parameter limit: minimum 1, maximum 100, default 20; Maximum number of animals returned.',
    section: 'Limits: Page size',
  },
  'limit.honoured': {
    title: 'GET /pets?limit=3 lists 3 pets, never more (skipped when the target has no more than 3)',
    basis: 'GET /pets, query parameter limit: minimum 1, maximum 100, default 20; Maximum number of animals returned.',
    section: 'Limits: Page size',
  },
  'limit.minimum': {
    title: 'GET /pets?limit=1 answers 200 with exactly one pet',
    basis: 'GET /pets, query parameter limit: minimum 1, maximum 100, default 20; Maximum number of animals returned.',
    section: 'Limits: Page size',
  },
  'limit.maximum': {
    title: 'GET /pets?limit=100 answers 200 with at most 100 pets, and no fewer than limit=21 gave',
    basis: 'GET /pets, query parameter limit: minimum 1, maximum 100, default 20; Maximum number of animals returned.',
    section: 'Limits: Page size',
  },
  'limit.with-status': {
    title: 'GET /pets?status=<s>&limit=<n> lists n pets of that status: limit holds next to another parameter',
    basis: 'GET /pets, query parameter limit: minimum 1, maximum 100, default 20; Maximum number of animals returned.',
    section: 'Limits: Page size',
  },
  'limit.out-of-range': {
    title: 'limit=0 and limit=101 are 400 Errors, not clamped',
    basis: 'Response to a `limit` outside 1..100 or to a `status` outside the enumeration: not shown.',
    section: 'Limits: Page size',
    advisory: 'the response to a limit outside 1..100 is not shown',
  },
  'createPet.created': {
    title:
      'POST /pets answers 201, application/json, with the pet, its assigned integer id and the fields sent (a short name, a listed categoryId)',
    basis: 'POST /pets: 201, Pet (the created animal, including the assigned id).',
    section: 'Endpoints: POST /pets (createPet)',
    needs: 'writes',
  },
  'createPet.fetchable': {
    title: 'The created pet is then fetched by GET /pets/{petId}',
    basis: 'id: Unique identifier assigned by the service on creation. GET /pets/{petId}: Returns one animal by identifier.',
    section: 'Endpoints: POST /pets (createPet)',
    needs: 'writes',
  },
  'createPet.listed': {
    title: 'The created pet is then listed by GET /pets?status=<its status> (retried for up to 1.75 s: a replica may lag)',
    basis: 'Clients can list animals (optionally filtered by availability status), add an animal, and fetch one animal by its identifier.',
    section: 'Endpoints: POST /pets (createPet)',
    needs: 'writes',
  },
  'createPet.default-status': {
    title: 'A pet created without status is available',
    basis: 'Default status of an animal created without `status`: not shown.',
    section: 'Endpoints: POST /pets (createPet)',
    advisory: 'the default status of an animal created without status is not shown',
    needs: 'writes',
  },
  'createPet.location': {
    title: 'The 201 carries Location: <base path>/pets/{id}',
    basis: 'POST /pets: 201, Pet (the created animal, including the assigned id). (No header is named.)',
    section: 'Endpoints: POST /pets (createPet)',
    advisory: 'a Location header on 201 is not shown',
    needs: 'writes',
  },
  'createPet.long-name': {
    title: 'A 201 to a 255-character name carries that name as sent, not cut (skipped when the target refuses it with 400)',
    basis: "POST /pets: 201, Pet (the created animal, including the assigned id). NewPet's name: The animal's name.",
    section: 'Endpoints: POST /pets (createPet)',
    needs: 'writes',
  },
  'createPet.long-name-accepted': {
    title: 'A 255-character name is accepted (201), not refused with 400',
    basis: 'Constraints on name (length, uniqueness, allowed characters): not shown.',
    section: 'Endpoints: POST /pets (createPet)',
    advisory: 'constraints on name (its length) are not shown',
    needs: 'writes',
  },
  'createPet.missing-fields': {
    title: 'A body lacking categoryId is a 400 Error and creates nothing',
    basis: 'POST /pets: 400, Error (body lacks required fields or holds invalid values).',
    section: 'Endpoints: POST /pets (createPet)',
    needs: 'writes',
  },
  'getPet.found': {
    title: 'GET /pets/{petId} of a listed pet answers 200, application/json, with that pet',
    basis: 'GET /pets/{petId}: Returns one animal by identifier; 200, Pet.',
    section: 'Endpoints: GET /pets/{petId} (getPet)',
  },
  'getPet.not-found': {
    title: 'GET /pets/{petId} of an id no pet has answers 404 with the Error body',
    basis: 'GET /pets/{petId}: 404, Error (the resource could not be found).',
    section: 'Endpoints: GET /pets/{petId} (getPet)',
  },
  'getPet.deprecation': {
    title:
      'Before 5 December 2030 getPet is still served, any Sunset it sends names that date, and GET /pets?status=<s> lists the pet it returned',
    basis: 'This endpoint is deprecated and is to be removed on 5 December 2030. Its replacement is GET /pets with the `status` filter.',
    section: 'Versioning',
  },
  'getPet.deprecation-format': {
    title:
      'getPet says so in headers: Deprecation (RFC 9745, @<unix seconds>), and any Link is to GET /pets (successor-version) or a rel="deprecation" page',
    basis: 'This endpoint is deprecated and is to be removed on 5 December 2030. (No header is named.)',
    section: 'Versioning',
    advisory: 'no header is named for the deprecation, nor its form (Deprecation, Sunset, Link)',
  },
  'rateLimit.headers': {
    title: 'Every API response carries X-RateLimit-Limit, -Remaining and -Reset as whole numbers, Remaining <= Limit',
    basis: 'Rate limit headers (present on every API response): X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset.',
    section: 'Limits: Rate limit headers',
  },
  'rateLimit.reset-future': {
    title: 'X-RateLimit-Reset is a Unix time in the next day, not in the past',
    basis: 'X-RateLimit-Reset: Unix timestamp at which the limit resets.',
    section: 'Limits: Rate limit headers',
  },
  'rateLimit.remaining-decreases': {
    title: 'X-RateLimit-Remaining goes down from one request to the next in a window',
    basis: 'X-RateLimit-Remaining: Requests remaining in the current window.',
    section: 'Limits: Rate limit headers',
  },
  'rateLimit.plan-limit': {
    title: "X-RateLimit-Limit is the key's plan's per-minute or per-day limit (--plan)",
    basis: 'X-RateLimit-Limit: The limit in force for the caller (Rate limits by plan: requests per minute, per day).',
    section: 'Limits: Rate limit headers',
  },
  'limits.429': {
    title: "The request after the window's last allowed one gets 429, not sooner and not later",
    basis: 'A request beyond the limit receives status 429 (Too Many Requests).',
    section: 'Limits: Exceeding the limit',
    needs: 'limits',
  },
  'limits.retry-after': {
    title: 'The 429 carries Retry-After (delta-seconds or an HTTP date)',
    basis: 'The response carries a `Retry-After` header; the client is to wait the indicated time before retrying.',
    section: 'Limits: Exceeding the limit',
    needs: 'limits',
  },
  'limits.error-body': {
    title: 'The 429 carries the Error body with status 429',
    basis: 'Body of a 429 response: not shown.',
    section: 'Limits: Exceeding the limit',
    advisory: 'the body of a 429 is not shown',
    needs: 'limits',
  },
  'limits.recovers': {
    title: 'After waiting Retry-After, the next request is answered 200',
    basis: 'The response carries a `Retry-After` header; the client is to wait the indicated time before retrying.',
    section: 'Limits: Exceeding the limit',
    needs: 'limits',
  },
} as const satisfies Record<string, CheckDefinition>

export type CheckId = keyof typeof checkCatalogue

/** The check ids in catalogue order. */
export const checkIds = Object.keys(checkCatalogue) as CheckId[]
