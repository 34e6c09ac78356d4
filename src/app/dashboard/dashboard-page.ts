import type { PlainResponse } from '../../core/http/plain-http.ts'
import { coverageSection, detailExchange, journalPanelScript, journalPanelStyle } from './journal-panel.ts'

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
 * `__NONCE__` is replaced per response by the nonce of the
 * Content-Security-Policy; the text holds no backtick and no `${`, so it is
 * written as a raw template literal (its backslashes stay as they are).
 *
 * A function, not a module-level constant: the build rewrites a raw template
 * holding `</script>` into a helper call with a cached template object, which
 * bundlers must keep as a side effect, so a constant put the whole page into
 * every setupWorker app (10.9 kB gzipped, `npm run size`). Built per request
 * of the page, it costs nothing to anyone else.
 */
export function dashboardPage(): string {
  return insertJournalPanel(String.raw`<!doctype html>
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
(function () {
'use strict';
var base = '/__sim';
var tokenKey = 'petstore-sim-admin-token';
var maxRows = 300;
var state = null;
var stateAt = 0;
var entries = [];
var tokenWait = null;
var lastRefresh = 0;
function $(id) { return document.getElementById(id); }
function el(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = String(text);
  return node;
}
function announce(text) { $('announce').textContent = text; }
function utc(iso) { return iso ? iso.slice(0, 10) + ' ' + iso.slice(11, 19) + ' UTC' : '–'; }
function hms(iso) { return iso ? iso.slice(11, 19) : '–'; }
function authHeaders(extra) {
  var headers = extra || {};
  var token = sessionStorage.getItem(tokenKey);
  if (token) headers.Authorization = 'Bearer ' + token;
  return headers;
}
function askToken(again) {
  if (!tokenWait) {
    tokenWait = new Promise(function (resolve) {
      var dialog = $('token-dialog');
      $('token-error').textContent = again ? 'That token was refused. Try again.' : '';
      $('token-form').onsubmit = function (event) {
        event.preventDefault();
        sessionStorage.setItem(tokenKey, $('token').value);
        $('token').value = '';
        dialog.close();
        tokenWait = null;
        resolve();
      };
      if (!dialog.open) dialog.showModal();
    });
  }
  return tokenWait;
}
async function isAdminRefusal(response) {
  if (response.status !== 401) return false;
  var body = await response.clone().json().catch(function () { return null; });
  return body !== null && body.code === 'admin_unauthorized';
}
async function call(method, path, body) {
  for (var attempt = 0; attempt < 5; attempt++) {
    var init = { method: method, cache: 'no-store', headers: authHeaders(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) };
    if (method === 'POST') init.body = JSON.stringify(body === undefined ? {} : body);
    var response = await fetch(base + path, init);
    if (await isAdminRefusal(response)) {
      var had = sessionStorage.getItem(tokenKey) !== null;
      sessionStorage.removeItem(tokenKey);
      await askToken(had);
      continue;
    }
    var data = await response.json().catch(function () { return null; });
    if (!response.ok) throw new Error(data && data.message ? data.message : 'HTTP ' + response.status);
    return data;
  }
  throw new Error('No admin token');
}
function act(promise, done, errorTarget) {
  var target = $(errorTarget || 'error');
  target.textContent = '';
  return promise.then(function (data) { if (done) announce(done); return data; }, function (error) { target.textContent = error.message; });
}

function setConnected(connected) {
  var conn = $('conn');
  conn.textContent = connected ? 'live' : 'reconnecting…';
  conn.className = 'badge ' + (connected ? 'ok' : 'warn');
}

function renderState(next) {
  state = next;
  stateAt = performance.now();
  renderClock();
  renderKeys();
  renderFaults();
  renderChoices();
  var counts = state.requests.byStatusClass;
  $('counts').textContent = state.requests.total + ' requests: ' + counts['2xx'] + ' 2xx, ' + counts['4xx'] + ' 4xx, ' + counts['5xx'] + ' 5xx' + (counts.none ? ', ' + counts.none + ' without an answer' : '') + ' · ' + state.pets + ' pets';
}
function simulatedNow() {
  if (!state) return 0;
  return state.clock.epochMs + (state.clock.frozen ? 0 : Math.round(performance.now() - stateAt));
}
function renderClock() {
  if (!state) return;
  var iso = new Date(simulatedNow()).toISOString();
  var time = $('clock-now');
  time.textContent = utc(iso);
  time.dateTime = iso;
  var mode = $('clock-mode');
  mode.textContent = state.clock.frozen ? 'frozen' : 'running';
  mode.className = 'badge ' + (state.clock.frozen ? 'warn' : 'ok');
  var freeze = $('freeze');
  freeze.textContent = state.clock.frozen ? 'Unfreeze' : 'Freeze';
  freeze.setAttribute('aria-pressed', String(state.clock.frozen));
}
function windowRow(name, usage) {
  var wrap = el('div', 'window');
  var label = el('span', '', name);
  var bar = el('div', 'bar');
  var fill = el('div', 'fill' + (usage.remaining === 0 ? ' full' : ''));
  fill.style.width = Math.min(100, (usage.used / usage.limit) * 100) + '%';
  bar.appendChild(fill);
  bar.setAttribute('role', 'meter');
  bar.setAttribute('aria-valuemin', '0');
  bar.setAttribute('aria-valuemax', String(usage.limit));
  bar.setAttribute('aria-valuenow', String(usage.used));
  var text = usage.used + '/' + usage.limit + ' · ' + usage.remaining + ' left · resets ' + hms(usage.resetAt);
  bar.setAttribute('aria-label', name + ': ' + usage.used + ' of ' + usage.limit + ' used, ' + usage.remaining + ' left, resets at ' + hms(usage.resetAt) + ' UTC');
  bar.dataset.window = name.toLowerCase();
  var line = el('span', 'text muted', text);
  wrap.append(label, bar, line);
  return wrap;
}
function renderKeys() {
  var box = $('keys');
  box.textContent = '';
  state.keys.forEach(function (key) {
    var card = el('div', 'key');
    card.dataset.key = key.key;
    var title = el('h3');
    title.append(el('code', '', key.token || key.key), ' ', el('span', 'muted', key.plan));
    // A demo key's name and its fingerprint, as the Requests table shows its caller.
    if (key.token) title.append(' ', el('code', 'muted', key.key));
    noteKey(key);
    if (key.bannedUntil) title.append(' ', el('span', 'badge bad', 'banned until ' + hms(key.bannedUntil)));
    card.append(title, windowRow('Minute', key.minute), windowRow('Day', key.day));
    box.appendChild(card);
  });
  var anonymous = state.anonymous;
  $('anonymous').textContent = 'Callers without a valid key (' + anonymous.perMinute + '/min, ' + anonymous.perDay + '/day, one bucket per address): ' + anonymous.buckets + ' buckets, ' + anonymous.banned + ' banned.';
}
function describeMatch(rule) {
  var parts = [];
  if (rule.operation) parts.push(rule.operation);
  if (rule.method || rule.path) parts.push((rule.method || '*') + ' ' + (rule.path || ''));
  if (rule.key) parts.push('key ' + rule.key);
  return parts.length ? parts.join(', ') : 'every operation';
}
function describeAction(rule) {
  var parts = [];
  if (rule.status) parts.push(String(rule.status));
  if (rule.fault) parts.push(rule.fault + (rule.hangMs ? ' ' + rule.hangMs + ' ms' : ''));
  if (rule.delay !== undefined) parts.push('delay ' + (typeof rule.delay === 'number' ? rule.delay : rule.delay.min + '–' + rule.delay.max) + ' ms');
  return parts.join(', ');
}
function renderFaults() {
  var body = $('faults');
  body.textContent = '';
  state.faults.forEach(function (rule) {
    var row = el('tr');
    row.dataset.rule = rule.id;
    var often = [];
    if (rule.remaining !== undefined) often.push(rule.remaining + ' more');
    if (rule.probability !== undefined) often.push('p=' + rule.probability);
    often = often.length ? often.join(', ') : 'always';
    row.append(el('td', '', rule.id), el('td', '', describeMatch(rule)), el('td', '', describeAction(rule)), el('td', '', often));
    var cell = el('td');
    var remove = el('button', 'danger', 'Remove');
    remove.type = 'button';
    remove.setAttribute('aria-label', 'Remove fault rule ' + rule.id);
    remove.onclick = function () { act(call('DELETE', '/faults/' + encodeURIComponent(rule.id)), 'Fault rule ' + rule.id + ' removed', 'fault-error'); };
    cell.appendChild(remove);
    row.appendChild(cell);
    body.appendChild(row);
  });
  $('no-faults').hidden = state.faults.length > 0;
}

// The operations, methods and fault kinds come from the state (the route table and the fault-kind table), not from this page.
function addOption(select, value, title) {
  for (var index = 0; index < select.options.length; index++) if (select.options[index].value === value) return;
  var option = el('option', '', value);
  if (title) option.title = title;
  select.appendChild(option);
}
function renderChoices() {
  var form = $('fault-form');
  state.operations.forEach(function (route) {
    noteOperation(route.operation);
    addOption(form.elements.operation, route.operation);
    addOption(form.elements.method, route.method);
    // The route table answers HEAD on every GET route, and fault rules match it as its GET.
    if (route.method === 'GET') addOption(form.elements.method, 'HEAD');
  });
  state.faultKinds.forEach(function (fault) { addOption(form.elements.fault, fault.kind, fault.description); });
}
function statusClass(status) { return status === 0 ? 'bad' : status >= 500 ? 'bad' : status >= 400 ? 'warn' : 'ok'; }
function passes(entry) {
  var wanted = $('filter-status').value;
  if (wanted === '0' && entry.status !== 0) return false;
  if (wanted === '429' && entry.status !== 429) return false;
  if (wanted.length === 1 && wanted !== '0' && Math.floor(entry.status / 100) !== Number(wanted)) return false;
  var key = $('filter-key').value;
  if (key && entry.caller !== key) return false;
  var operation = $('filter-operation').value;
  return !operation || entry.operation === operation;
}
function rowFor(entry) {
  var row = el('tr');
  row.dataset.sequence = String(entry.sequence);
  row.dataset.status = String(entry.status);
  var timeCell = el('td');
  var open = el('button', '', hms(entry.at));
  open.type = 'button';
  open.setAttribute('aria-label', 'Details of request ' + entry.sequence + ', ' + entry.method + ' ' + entry.path);
  open.onclick = function () { showDetail(entry); };
  timeCell.appendChild(open);
  var marker = entry.fault ? 'fault ' + entry.fault : entry.forced ? 'forced' : '';
  row.append(timeCell, el('td', '', entry.method), el('td', 'path', entry.path), el('td', statusClass(entry.status), entry.status === 0 ? 'none' : entry.status), el('td', '', entry.operation), el('td', '', entry.keyName ? entry.keyName + ' (' + entry.caller + ')' : entry.caller), el('td', 'num', entry.durationMs.toFixed(1)));
  var markerCell = el('td');
  if (marker) {
    markerCell.appendChild(el('span', 'badge ' + (entry.fault ? 'bad' : 'warn'), marker));
    row.dataset.marker = marker;
  }
  row.appendChild(markerCell);
  return row;
}
function noteOperation(operation) { addOption($('filter-operation'), operation); }
function noteKey(key) {
  var select = $('filter-key');
  for (var index = 0; index < select.options.length; index++) if (select.options[index].value === key.key) return;
  var option = el('option', '', key.token ? key.token + ' (' + key.key + ')' : key.key);
  option.value = key.key;
  select.appendChild(option);
}
function renderRows() {
  var body = $('rows');
  body.textContent = '';
  var fragment = document.createDocumentFragment();
  for (var index = entries.length - 1; index >= 0; index--) if (passes(entries[index])) fragment.appendChild(rowFor(entries[index]));
  body.appendChild(fragment);
  $('no-rows').hidden = entries.length > 0;
}
function addRequests(payload, replace) {
  if (replace) entries = [];
  payload.requests.forEach(function (entry) { entries.push(entry); noteOperation(entry.operation); });
  if (entries.length > maxRows) entries = entries.slice(entries.length - maxRows);
  coverageSoon();
  $('skipped').textContent = payload.skipped ? payload.skipped + ' more requests came too fast to list' : '';
  if (replace) return renderRows();
  var body = $('rows');
  var fragment = document.createDocumentFragment();
  for (var index = payload.requests.length - 1; index >= 0; index--) if (passes(payload.requests[index])) fragment.appendChild(rowFor(payload.requests[index]));
  body.insertBefore(fragment, body.firstChild);
  while (body.rows.length > maxRows) body.deleteRow(body.rows.length - 1);
  $('no-rows').hidden = entries.length > 0;
}
function showDetail(entry) {
  var list = $('detail-list');
  list.textContent = '';
  Object.keys(entry).forEach(function (name) { list.append(el('dt', '', name), el('dd', '', entry[name])); });
  $('detail-h').textContent = 'Request ' + entry.sequence;
  $('detail').showModal();
  loadExchange(entry.sequence);
}

function handleEvent(block, fresh) {
  var type = 'message';
  var data = [];
  block.split('\n').forEach(function (line) {
    if (line.indexOf('event:') === 0) type = line.slice(6).trim();
    else if (line.indexOf('data:') === 0) data.push(line.slice(5).replace(/^ /, ''));
  });
  if (data.length === 0) return fresh;
  var payload = JSON.parse(data.join('\n'));
  if (type === 'state') renderState(payload);
  else if (type === 'requests') { addRequests(payload, fresh); return false; }
  else if (type === 'reset') { entries = []; renderRows(); announce('Simulator reset'); loadScenarios(); }
  return fresh;
}
function sleep(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }
async function stream() {
  var delay = 500;
  for (;;) {
    try {
      var response = await fetch(base + '/events', { cache: 'no-store', headers: authHeaders({ Accept: 'text/event-stream' }) });
      if (await isAdminRefusal(response)) {
        var had = sessionStorage.getItem(tokenKey) !== null;
        sessionStorage.removeItem(tokenKey);
        await askToken(had);
        continue;
      }
      if (!response.ok || !response.body) throw new Error('HTTP ' + response.status);
      setConnected(true);
      delay = 500;
      var reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      var buffer = '';
      var fresh = true;
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) break;
        buffer += chunk.value.replace(/\r\n?/g, '\n');
        var blocks = buffer.split('\n\n');
        buffer = blocks.pop();
        for (var index = 0; index < blocks.length; index++) fresh = handleEvent(blocks[index], fresh);
      }
    } catch (error) {
      // The simulator stopped or restarted: try again, a little later each time (at most every 5 s).
    }
    setConnected(false);
    await sleep(delay);
    delay = Math.min(delay * 2, 5000);
  }
}

function refreshIfDue() {
  if (!state || state.clock.frozen) return;
  var now = simulatedNow();
  var due = state.keys.some(function (key) {
    return (key.minute.used > 0 && Date.parse(key.minute.resetAt) <= now) || (key.bannedUntil && Date.parse(key.bannedUntil) <= now);
  });
  if (due && performance.now() - lastRefresh > 5000) {
    lastRefresh = performance.now();
    call('GET', '/state').then(renderState, function () {});
  }
}

$('reset').onclick = function () { act(call('POST', '/reset'), 'Simulator reset'); };
$('freeze').onclick = function () { act(call('POST', '/clock', { freeze: !(state && state.clock.frozen) }), state && state.clock.frozen ? 'Clock running' : 'Clock frozen'); };
Array.prototype.forEach.call(document.querySelectorAll('[data-advance]'), function (button) {
  button.onclick = function () { act(call('POST', '/clock', { advance: Number(button.dataset.advance) }), 'Clock advanced by ' + button.textContent.slice(1)); };
});
$('to-sunset').onclick = function () { if (state) act(call('POST', '/clock', { set: state.getPet.sunsetAt }), 'Clock set to the getPet sunset'); };
$('set-clock').onsubmit = function (event) {
  event.preventDefault();
  act(call('POST', '/clock', { set: $('clock-input').value.trim() }), 'Clock set');
};
Array.prototype.forEach.call(document.querySelectorAll('[data-force]'), function (button) {
  button.onclick = function () {
    var kind = button.dataset.force;
    var isFault = state !== null && state.faultKinds.some(function (fault) { return fault.kind === kind; });
    var rule = isFault ? { fault: kind, times: 1 } : { status: Number(kind), times: 1 };
    act(call('POST', '/faults', rule), 'The next API request will get ' + button.textContent, 'fault-error');
  };
});
$('fault-form').onsubmit = function (event) {
  event.preventDefault();
  var form = event.target;
  var rule = {};
  ['operation', 'method', 'path', 'key', 'fault'].forEach(function (name) { if (form.elements[name].value) rule[name] = form.elements[name].value; });
  ['status', 'delay', 'times', 'probability'].forEach(function (name) { if (form.elements[name].value !== '') rule[name] = Number(form.elements[name].value); });
  act(call('POST', '/faults', rule), 'Fault rule added', 'fault-error').then(function (data) { if (data) form.reset(); });
};
$('filter-status').onchange = renderRows;
$('filter-operation').onchange = renderRows;
// Scenarios (GET|POST /__sim/scenario): choosing one is a reset into it; a reset from anywhere re-reads the active one.
function loadScenarios() {
  return call('GET', '/scenario').then(function (data) {
    var select = $('scenario');
    select.textContent = '';
    data.available.forEach(function (scenario) {
      var option = el('option', '', scenario.name);
      option.value = scenario.name;
      option.title = scenario.description;
      select.append(option);
    });
    select.value = data.active;
  }, function () {});
}
$('scenario').onchange = function () {
  var name = $('scenario').value;
  act(call('POST', '/scenario', { name: name }), 'Scenario ' + name);
};
loadScenarios();
$('filter-key').onchange = renderRows;
//JOURNAL_SCRIPT
setInterval(function () { renderClock(); refreshIfDue(); }, 1000);
stream();
})();
</script>
</body>
</html>
`)
}

/** The journal's parts of the page (`journal-panel.ts`), put in at their marks. */
function insertJournalPanel(page: string): string {
  return page
    .replace('/*JOURNAL_STYLE*/', journalPanelStyle)
    .replace('<!--COVERAGE-->', coverageSection)
    .replace('<!--DETAIL_EXCHANGE-->', detailExchange)
    .replace('//JOURNAL_SCRIPT', journalPanelScript)
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
