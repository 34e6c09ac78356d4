/**
 * The spec's rules for clients, as data: each rule's id, its severity, the spec's words it rests on and what a
 * client that broke it should change. The grader, the reports and docs/grading-clients.md read this table; an id
 * is never renamed (CI gates and ignore lists name them).
 */
export const clientRules = {
  'retry-after-ignored': {
    found: "sent before the Retry-After of the caller's last 429 had passed",
    severity: 'violation',
    spec: 'The response carries a `Retry-After` header; the client is to wait the indicated time before retrying.',
    change: "wait the 429's Retry-After (or until its X-RateLimit-Reset) before sending the next request",
  },
  'no-backoff': {
    found: 'retries after 429s whose delay did not grow (by 1.5 times the one before, or to the full Retry-After)',
    severity: 'violation',
    spec: 'Clients are expected to retry with exponential backoff.',
    change: 'grow the delay between retries after 429s (exponential backoff), or wait the full Retry-After each time',
  },
  banned: {
    found: 'sent after 429s until the API key was banned, or during the ban',
    severity: 'violation',
    spec: 'Continued requests after a 429 may lead to a temporary ban of the API key.',
    change: 'stop sending after a 429 until its Retry-After has passed; requests during a ban only prolong the outage',
  },
  'deprecated-operation': {
    found: 'calls of the deprecated getPet',
    severity: 'advice',
    spec: 'This endpoint is deprecated and is to be removed on 5 December 2030. Its replacement is GET /pets with the `status` filter.',
    change: 'replace getPet (GET /pets/{petId}) with GET /pets?status= before its removal date',
  },
  'removed-operation': {
    found: 'calls of getPet on or after its removal date',
    severity: 'violation',
    spec: 'GET /pets/{petId} is deprecated with a removal date of 5 December 2030.',
    change: 'getPet is removed: use GET /pets?status= instead',
  },
  'invalid-request': {
    found: 'requests refused as malformed (400)',
    severity: 'violation',
    spec: 'limit: maximum number of results (1 to 100); status: available, pending or sold; the body of POST /pets is a NewPet.',
    change: 'send only what the contract accepts: limit within 1..100, a known status, a NewPet body',
  },
  unauthenticated: {
    found: 'requests without a key or with a key the API does not know (401)',
    severity: 'violation',
    spec: 'Every call is made over HTTP with JSON bodies and needs a bearer credential.',
    change: 'send a valid key as `Authorization: Bearer <key>` on every request',
  },
  'retry-storm': {
    found: 'retries after a 5xx or a broken connection whose delay did not grow',
    severity: 'advice',
    spec: 'The spec is silent on retrying after 5xx answers and broken connections.',
    change: 'grow the delay between retries after a 5xx or a broken connection',
  },
  'duplicate-create': {
    found: 'createPet bodies sent again after a failed or unanswered attempt',
    severity: 'advice',
    spec: 'The spec is silent on retrying POST /pets, which is not idempotent.',
    change: 'check whether the pet exists (GET /pets) before sending createPet again after a failed or unanswered attempt',
  },
} as const satisfies Readonly<Record<string, ClientRule>>

/** One rule of {@link clientRules}. */
export interface ClientRule {
  /** What the offending requests were, for the finding's message. */
  readonly found: string
  /** `violation` fails the caller's verdict; `advice` does not. */
  readonly severity: ClientRuleSeverity
  /** The spec's words the rule rests on (or that the spec is silent). */
  readonly spec: string
  /** What a client that broke the rule should change. */
  readonly change: string
}

/** `violation` fails a caller's verdict; `advice` does not. */
export type ClientRuleSeverity = 'violation' | 'advice'

/** A rule's id: a key of {@link clientRules}. */
export type ClientRuleId = keyof typeof clientRules

/** The ids in the table's order (the order findings are listed in). */
export const clientRuleIds = Object.freeze(Object.keys(clientRules) as ClientRuleId[])

/**
 * Among consecutive retries after 429s (or after 5xx and broken connections), each gap after the first must be at
 * least this many times the one before it, unless the client waited the full Retry-After. 1.5: exponential
 * backoff with factor 2 stays above it with up to 30% jitter (axios-retry adds 20%, p-retry none by default).
 */
export const backoffRatio = 1.5
