// Imports nothing: every floor of the core may read it (test/architecture/layers.test.ts).

/**
 * Every default of the simulator, in one place: the library's options and
 * the CLI's flags both read them from here (a test keeps the CLI's equal).
 */
export const defaults = Object.freeze({
  /** The seed used when none is given, so every run is reproducible. */
  seed: 20301205,
  /** How many pets are generated when no count is given. */
  pets: 50,
  /** The API prefix: any origin, under `/v1` (the spec's version segment). */
  basePath: '/v1',
  defaultStatus: 'available' as const,
  journalSize: 1000,
  /**
   * The most bytes the journal's exchanges hold (estimated, an over-estimate);
   * past it the oldest are evicted. 16 MiB: 1000 ordinary exchanges take about
   * 2 MiB; bodies at the 64 KiB cap fill it at about 120 entries.
   */
  journalMaxBytes: 16 * 1024 * 1024,
  /** The most bytes the journal keeps of each request and response body: 64 KiB, the rest cut and marked `truncated`. */
  journalBodyCapBytes: 64 * 1024,
  /**
   * The most bytes of JSON one page of the journal takes (`journal.page`, `GET /__sim/requests`): 1 MiB. At the
   * default body cap an entry's JSON is at most about 800 KiB (two 64 KiB bodies of control characters, each escaped to
   * six bytes, and 16 KiB of headers), so a page always holds a whole entry; a page is read on loopback in a few ms;
   * and a client that asks and never reads holds at most this (twice: the text and its bytes) until the send timeout.
   * Such clients asking for a large journal whole grew RSS manyfold (issue #20; test/bench/HISTORY.md, "Figures moved
   * out of source comments").
   */
  journalPageBytes: 1024 * 1024,
  /**
   * The most `GET /__sim/requests/wait` long polls pending at once; one more that would wait is 503 `too_many_waits`
   * with `Retry-After: 1`. A test runner waits for a request or two per worker; abandoned waits held some KiB each
   * (issue #26; test/bench/HISTORY.md, "Figures moved out of source comments"), so this many hold under 2 MiB. A wait
   * whose client goes away is dropped at once and frees its place.
   */
  maxPendingWaits: 256,
  /** The parties a pact exported from the journal names (`journal.toPact`, `GET /__sim/requests.pact`, `--pact`). */
  pact: Object.freeze({
    consumer: 'animal-store-consumer',
    provider: 'animal-store',
    /**
     * The most distinct interactions a simulator keeps for its pact until they are cleared (issue 36): a test suite
     * has some dozens; a client sending ever new query names would have as many. Past it an export fails, saying so.
     */
    maxInteractions: 500,
    /**
     * The most bytes (estimated, pact-example.ts) the kept interactions hold in one world: 4 MiB. Only what a pact
     * reads is kept: some 6.6 kB estimated an interaction of a createPet with a query, so 500 fit; before (issue 45)
     * the whole exchange was kept, and shapes with large bodies and headers held far more in every world (the
     * figures: test/bench/HISTORY.md, "Figures moved out of source comments"). Past it a new shape is not kept, and an
     * export fails, saying so, until the pact is cleared.
     */
    maxKeptBytes: 4 * 1024 * 1024,
    /** The most bytes of an exported pact's interactions (UTF-16 units of their JSON): some 8 MB, past it `pact_too_large`. */
    maxBytes: 8 * 1024 * 1024,
  }),
  ban: Object.freeze({ after: 10, durationMs: 10 * 60_000 }),
  /**
   * The most callers the client report grades at once (`simulator.clientReport()`); past it the least recently seen
   * is forgotten. Some 1 KiB each with every rule broken: about 1 MiB at this default.
   */
  maxGradedCallers: 1000,
  /**
   * The most rate-limit buckets kept for callers without a valid key (one per
   * client address); past it the least recently used is forgotten (lenient,
   * like nginx's limit_req). About 180 bytes each: ~17 MiB at this default.
   */
  maxAnonymousBuckets: 100_000,
  /** The most pets createPet may add until a reset: about 6 MB of pets (columns, some 60 bytes each with a 10-character name: created-pets.ts). */
  maxPets: 100_000,
  /** The largest request body: 1 MiB. */
  bodyLimit: 1024 * 1024,
  /**
   * The sandboxes one simulator holds at once (`/sandboxes/<name>/…`, docs/sharing.md). Each is a whole simulator: a
   * generated catalogue of 50 pets is some 100 kB, but a busy sandbox's journal may reach `journalMaxBytes`, so the
   * cap bounds memory as much as it bounds callers. 0 turns sandboxes off.
   */
  maxSandboxes: 50,
  /** A sandbox no request has reached for this long is forgotten; the next request starts it fresh: 30 minutes. */
  sandboxIdleMs: 30 * 60_000,
  port: 4010,
  /** Loopback only: exposing a simulator to the network is the user's explicit choice. */
  host: '127.0.0.1',
  /** The CLI logs one line per request; the library is silent unless asked. */
  cliLog: 'pretty' as const,
  libraryLog: 'silent' as const,
  /** The Node server answers without msw unless asked (see `Engine`). */
  engine: 'direct' as const,
  /** How long the CLI waits for requests in flight after SIGTERM/SIGINT. */
  shutdownGraceMs: 4500,
  /**
   * How long a client may take to send a request's headers: 10 s. Real clients
   * send them in one packet within milliseconds, even on a loaded CI machine;
   * a client that dribbles them (slowloris) holds a connection for this long
   * at most. Node's default is 60 s (nginx's `client_header_timeout` too).
   */
  headersTimeoutMs: 10_000,
  /**
   * How long a client may take to send a whole request, body included: 30 s.
   * The largest body is 1 MiB (`bodyLimit`), which takes 30 s only below
   * 35 KiB/s, far slower than any loopback or CI network; a `Content-Length`
   * that promises more than is sent ends here instead of Node's 300 s.
   */
  requestTimeoutMs: 30_000,
  /**
   * Requests a connection may have waiting (HTTP/1.1 pipelining) behind the one
   * being answered; past it the connection is closed. Browsers and fetch never
   * pipeline; benchmark tools that do use depths of 1-10.
   */
  maxPipelinedRequests: 16,
  /**
   * Bytes of request bodies a Node server holds in memory at once; past it a
   * body waits, unread, for its turn (TCP holds its client back). 32 MiB: 32
   * bodies at the 1 MiB limit, or some 300,000 ordinary createPet bodies.
   */
  maxBufferedBodyBytes: 32 * 1024 * 1024,
  /**
   * The minimum data rate of a request body on a Node server: a byte at least
   * every 5 s while it is read, or a 408 `request_timeout` (within 6.25 s: one
   * sweep per server each quarter of it, see `node/body-budget.ts`). A client on
   * loopback or CI sends a 1 MiB body in milliseconds; 34 clients that sent
   * all but the last byte of 1 MiB bodies held the body budget for the whole
   * 30 s request timeout.
   */
  bodyIdleTimeoutMs: 5000,
  /**
   * How often a `--state` file is written when something changed: a crash
   * loses at most this much. 5 s: several times what writing a million pets
   * (64 MB) took on the development machine (test/bench/HISTORY.md, "Figures
   * moved out of source comments"), so writes stay a small share of it.
   */
  stateIntervalMs: 5000,
  /**
   * How long a Node server gives a client to take an answer, from its first
   * byte written to its last handed to the kernel: 10 s, then the connection
   * is dropped. A loopback client takes a 15 MB journal in milliseconds; one
   * that never reads held every answer in memory, and RSS stayed high after
   * (test/bench/HISTORY.md, "Figures moved out of source comments"). Event
   * streams are not bound by it (they write only while the client takes them).
   */
  sendTimeoutMs: 10_000,
  /**
   * How long the CLI waits for a `--handlers` module to load (its top-level
   * await included) before it exits 2 naming the module: 10 s, a hundred
   * times what loading msw and a module of handlers takes.
   */
  handlersLoadTimeoutMs: 10_000,
  /**
   * The largest file the CLI reads as input (`--config`, `--keys`, `--faults`, `--fixtures`): 128 MiB, twice a
   * million fixture pets. Only regular files are read: `--config /dev/zero` grew RSS without end (test/bench/HISTORY.md,
   * "Figures moved out of source comments"), and a FIFO hung start-up.
   */
  maxInputFileBytes: 128 * 1024 * 1024,
  /**
   * The largest `--state` file read: 512 MiB, about 8 million pets, and about the longest string Node can hold
   * (a longer file could not be parsed anyway).
   */
  maxStateFileBytes: 512 * 1024 * 1024,
  /**
   * The shared store (`--store`, docs/sharing.md): the prefix of its keys; the longest a request waits on it (past it
   * the API answers 503, so a load balancer's retry goes elsewhere within a typical 2-5 s client timeout); and how long
   * start-up retries one that does not answer (a store started by the same compose file is up well within 30 s).
   */
  store: Object.freeze({ namespace: 'petstore-sim', timeoutMs: 1000, waitMs: 30_000 }),
  /** Processes serving the port (`--workers`): one; more need the shared store, else each would count limits on its own. */
  workers: 1,
})
