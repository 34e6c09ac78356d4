import type { PlainResponse } from '../../core/http/plain-http.ts'
import { dashboardScript } from './dashboard-script-bundle.ts'
import { coverageSection, detailExchange, journalPanelStyle } from './journal-panel.ts'

/**
 * The dashboard at `GET /__sim/`: one self-contained HTML document (inline
 * CSS and JS, no framework, fonts or CDN), shipped as this string, so it
 * works with no network and no install. It talks to the control endpoints
 * only: `GET /__sim/events` (read with `fetch`, not `EventSource`, so that it
 * can send the admin token like every other request), `GET /__sim/state`,
 * and the POSTs and DELETEs of `/__sim/clock`, `/__sim/reset`,
 * `/__sim/faults` and `/__sim/scenario` (with `GET /__sim/scenario`). When one answers 401 `admin_unauthorized`, it asks for
 * the token in a form and keeps it in `sessionStorage` (this tab only).
 *
 * This file is the page's markup and style. Its script is TypeScript of its own (`script/`, browser-only, type-checked
 * and linted like the rest), bundled at build time (rolldown.config.ts) and put in at its mark.
 *
 * `__NONCE__` is replaced per response by the nonce of the
 * Content-Security-Policy; the text holds no backtick, no `${` and no
 * backslash, so it is written as a template literal as it is.
 *
 * A function, not a module-level constant: a constant holding the page went
 * into every setupWorker app (`npm run size`; test/bench/HISTORY.md, "Figures
 * moved out of source comments") when the build made it a side effect (a raw
 * template then). Built per request of the page, it costs nothing to anyone
 * else.
 */
export function dashboardPage(): string {
  return insertParts(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>petstore-sim dashboard</title>
<link rel="icon" href="data:,">
<style nonce="__NONCE__">
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--muted:#555;--line:#c9c9c9;--card:#f5f5f6;--accent:#0b57d0;--on-accent:#fff;--ok:#1b6e2d;--warn:#8a5300;--bad:#b3261e;--bar:#e2e2e2;--fill:#0b57d0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
@media (prefers-color-scheme:dark){:root{--bg:#121212;--fg:#ececec;--muted:#b4b4b4;--line:#444;--card:#1d1d20;--accent:#8ab4f8;--on-accent:#0b1a33;--ok:#81c995;--warn:#f2b866;--bad:#f28b82;--bar:#3a3a3a;--fill:#8ab4f8}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg)}
header #error{flex-basis:100%;margin:0}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
h1{font-size:1.15rem;margin:0}
h2{font-size:1rem;margin:0 0 .5rem}
h3{font-size:.95rem;margin:0}
header nav{margin-left:auto;display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
a{color:var(--accent)}
main{display:grid;grid-template-columns:minmax(0,25rem) minmax(0,1fr);gap:1rem;padding:1rem;align-items:start}
@media (max-width:900px){main{grid-template-columns:minmax(0,1fr)}}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.8rem;margin-bottom:1rem}
.col>section:last-child{margin-bottom:0}
button,input,select{font:inherit;color:inherit}
button{background:var(--bg);border:1px solid var(--muted);border-radius:6px;padding:.3rem .65rem;cursor:pointer;min-height:2rem}
button.primary{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}
button.danger{color:var(--bad);border-color:var(--bad)}
input,select{background:var(--bg);border:1px solid var(--muted);border-radius:6px;padding:.25rem .4rem;min-height:2rem;max-width:100%}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.row{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.4rem 0}
.muted{color:var(--muted)}
.badge{display:inline-block;border:1px solid currentColor;border-radius:999px;padding:0 .5rem;font-size:.8rem}
.ok{color:var(--ok)}.warn{color:var(--warn)}.bad{color:var(--bad)}
.key{border-top:1px solid var(--line);padding:.5rem 0}
.key:first-child{border-top:0}
.key code{font-size:.9rem}
.window{display:grid;grid-template-columns:3.6rem minmax(0,1fr);gap:0 .5rem;align-items:center;font-size:.85rem;margin-top:.3rem}
.window .text{grid-column:2;font-size:.8rem}
.bar{height:.6rem;background:var(--bar);border-radius:4px;overflow:hidden}
.fill{height:100%;width:0;background:var(--fill)}
.fill.full{background:var(--bad)}
.clock{font-size:1.3rem;font-variant-numeric:tabular-nums}
table{width:100%;border-collapse:collapse;font-size:.85rem}
th,td{text-align:left;padding:.25rem .4rem;border-bottom:1px solid var(--line);vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:hover{background:var(--bg)}
td button{padding:0 .3rem;min-height:1.6rem;font-variant-numeric:tabular-nums;border-color:var(--line)}
.path{word-break:break-all}
.scroll{overflow-x:auto}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr));gap:.4rem .6rem}
.grid label{display:flex;flex-direction:column;font-size:.85rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
dialog{border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg);max-width:min(36rem,94vw)}
dialog::backdrop{background:rgb(0 0 0/.45)}
dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem .8rem;margin:.5rem 0}
dt{color:var(--muted)}dd{margin:0;word-break:break-all}
[role=alert]:empty{display:none}
/*JOURNAL_STYLE*/
</style>
</head>
<body>
<header>
<h1>petstore-sim</h1>
<p id="conn" role="status" class="badge warn">connecting</p>
<nav aria-label="Simulator">
<a href="/openapi.json">OpenAPI document</a>
<a href="/openapi.yaml">(YAML)</a>
<label for="scenario">Scenario</label><select id="scenario"></select>
<button id="reset" class="danger" type="button">Reset simulator</button>
</nav>
<p id="error" role="alert" class="bad"></p>
</header>
<main>
<div class="col">
<section aria-labelledby="clock-h">
<h2 id="clock-h">Clock</h2>
<p><time id="clock-now" class="clock">–</time> <span id="clock-mode" class="badge">–</span></p>
<div class="row" role="group" aria-label="Move the clock">
<button id="freeze" type="button" aria-pressed="false">Freeze</button>
<button type="button" data-advance="60000">+1 min</button>
<button type="button" data-advance="3600000">+1 h</button>
<button type="button" data-advance="86400000">+1 day</button>
<button id="to-sunset" type="button">To getPet sunset</button>
</div>
<form id="set-clock" class="row">
<label for="clock-input">Set to (UTC)</label>
<input id="clock-input" name="set" required placeholder="2030-12-05T00:00:00Z" size="22" autocomplete="off">
<button type="submit">Set</button>
</form>
</section>
<section aria-labelledby="keys-h">
<h2 id="keys-h">Keys and limits</h2>
<div id="keys"><p class="muted">Waiting for the simulator…</p></div>
<p id="anonymous" class="muted"></p>
</section>

</div>
<div class="col">
<section aria-labelledby="requests-h">
<h2 id="requests-h">Requests</h2>
<p id="counts" class="muted"></p>
<div class="row">
<label for="filter-status">Filter by status</label>
<select id="filter-status"><option value="">all</option><option value="2">2xx</option><option value="4">4xx</option><option value="429">429</option><option value="5">5xx</option><option value="0">no answer</option></select>
<label for="filter-operation">Filter by operation</label>
<select id="filter-operation"><option value="">all</option></select>
<label for="filter-key">Filter by key</label>
<select id="filter-key"><option value="">all</option><option value="anonymous">anonymous</option></select>
<label for="filter-request">Filter by request</label>
<input id="filter-request" type="search" size="28" spellcheck="false" autocomplete="off" placeholder="body.name=Rex&amp;header.x-id=abc" aria-describedby="filter-request-help filter-request-error">
<span id="filter-request-help" class="sr-only">The journal's query: body.name=, body=JSON, header.name=, header.name:contains=, query.name=</span>
<span id="filter-request-error" class="bad" role="status"></span>
<button id="download-har" type="button">Download HAR</button>
<span id="skipped" class="muted"></span>
</div>
<div class="scroll"><table>
<caption class="sr-only">Requests the API answered, newest first</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Operation</th><th scope="col">Caller</th><th scope="col" class="num">ms</th><th scope="col">Marker</th></tr></thead>
<tbody id="rows"></tbody>
</table></div>
<p id="no-rows" class="muted">No requests yet.</p>
</section>
<section aria-labelledby="faults-h">
<h2 id="faults-h">Faults</h2>
<div class="row" role="group" aria-labelledby="force-label">
<span id="force-label">Force the next API request:</span>
<button type="button" data-force="429">429</button>
<button type="button" data-force="503">503</button>
<button type="button" data-force="reset">connection reset</button>
</div>
<div class="scroll"><table>
<caption class="sr-only">Fault rules in force</caption>
<thead><tr><th scope="col">Rule</th><th scope="col">Matches</th><th scope="col">Does</th><th scope="col">How often</th><th scope="col"><span class="sr-only">Remove</span></th></tr></thead>
<tbody id="faults"></tbody>
</table></div>
<p id="no-faults" class="muted">No fault rules in force.</p>
<details>
<summary>Add a fault rule</summary>
<form id="fault-form">
<div class="grid">
<label>Operation<select name="operation"><option value="">any</option></select></label>
<label>Method<select name="method"><option value="">any</option></select></label>
<label>Path<input name="path" placeholder="/pets/{petId}" autocomplete="off"></label>
<label>Key<input name="key" placeholder="any key" autocomplete="off"></label>
<label>Status<input name="status" type="number" min="100" max="599" placeholder="503"></label>
<label>Transport fault<select name="fault"><option value="">none</option></select></label>
<label>Delay (ms)<input name="delay" type="number" min="0" max="600000"></label>
<label>Times<input name="times" type="number" min="1" placeholder="always"></label>
<label>Probability<input name="probability" type="number" min="0" max="1" step="any" placeholder="1"></label>
</div>
<div class="row"><button type="submit" class="primary">Add rule</button></div>
</form>
</details>
<p id="fault-error" role="alert" class="bad"></p>
</section>
<!--COVERAGE-->
<section aria-labelledby="clients-h" id="clients-panel" hidden>
<h2 id="clients-h">Clients</h2>
<p id="clients-summary" class="muted"></p>
<ul id="clients"></ul>
</section>
<section aria-labelledby="sandboxes-h" id="sandboxes-panel" hidden>
<h2 id="sandboxes-h">Sandboxes</h2>
<p id="sandboxes-summary" class="muted"></p>
<ul id="sandboxes"></ul>
</section>
</div>
</main>
<dialog id="detail" aria-labelledby="detail-h">
<h2 id="detail-h">Request</h2>
<dl id="detail-list"></dl>
<!--DETAIL_EXCHANGE-->
<form method="dialog"><button class="primary">Close</button></form>
</dialog>
<dialog id="token-dialog" aria-labelledby="token-h">
<form id="token-form">
<h2 id="token-h">Admin token</h2>
<p>This simulator was started with an admin token. It is kept for this tab only.</p>
<p class="row"><label for="token">Token</label><input id="token" type="password" required autocomplete="off"></p>
<p id="token-error" role="alert" class="bad"></p>
<button type="submit" class="primary">Use token</button>
</form>
</dialog>
<div id="announce" class="sr-only" aria-live="polite"></div>
<script nonce="__NONCE__">
//DASHBOARD_SCRIPT
</script>
</body>
</html>
`)
}

/** The journal's parts of the page (`journal-panel.ts`) and the script (`script/`, bundled), put in at their marks. */
function insertParts(page: string): string {
  return page
    .replace('/*JOURNAL_STYLE*/', journalPanelStyle)
    .replace('<!--COVERAGE-->', coverageSection)
    .replace('<!--DETAIL_EXCHANGE-->', detailExchange)
    .replace('//DASHBOARD_SCRIPT', dashboardScript)
}

/**
 * The page's response: a fresh CSP nonce each time, and the headers of a
 * page that must not be framed, cached or sniffed. Its data comes only from
 * the simulator's own origin (`connect-src 'self'`).
 */
export function dashboardResponse(): PlainResponse {
  const nonce = createNonce()
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    },
    body: dashboardPage().replaceAll('__NONCE__', nonce),
  }
}

/** 128 random bits, base64: Web Crypto, present in Node and in browsers alike. */
function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}
