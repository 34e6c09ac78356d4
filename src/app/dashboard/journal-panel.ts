/**
 * The dashboard's journal parts (issue #16), inserted into the page by
 * `dashboard-page.ts`: a request's whole exchange in its detail dialog
 * (headers, bodies, error code, `Retry-After`) with "Copy as curl", the
 * HAR download, and the contract coverage panel. Like the page, these are
 * raw strings with no backtick and no `${`, run under the page's CSP nonce.
 * The exchange is fetched when a row is opened (the event stream carries
 * summaries only): `GET /__sim/requests/wait?since=<sequence>&timeoutMs=0`
 * answers the entry itself while the journal still holds it.
 */
export function journalPanelStyle(): string {
  return String.raw`
.exchange h3{margin:.8rem 0 .3rem}
.exchange table{font-size:.8rem}
.exchange th{width:12rem;word-break:break-all;font-weight:normal;color:var(--muted)}
.exchange td{word-break:break-all}
pre{white-space:pre-wrap;word-break:break-all;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.4rem;margin:.3rem 0;font-size:.8rem;max-height:16rem;overflow:auto}
#detail{max-width:min(52rem,96vw)}
.never{color:var(--bad);font-weight:600}
`
}

export function coverageSection(): string {
  return String.raw`<section aria-labelledby="coverage-h">
<h2 id="coverage-h">Contract coverage</h2>
<p id="coverage-summary" class="muted">Waiting for the simulator…</p>
<p id="coverage-deprecated" class="warn" hidden></p>
<div class="row"><button id="coverage-refresh" type="button">Refresh coverage</button></div>
<div class="scroll"><table>
<caption class="sr-only">Each operation's documented statuses and how often each was answered</caption>
<thead><tr><th scope="col">Operation</th><th scope="col">Status</th><th scope="col" class="num">Answered</th><th scope="col" class="num">Behaviour</th><th scope="col" class="num">Forced</th><th scope="col" class="num">Fault</th></tr></thead>
<tbody id="coverage-rows"></tbody>
</table></div>
</section>
`
}

export function detailExchange(): string {
  return String.raw`<div id="detail-exchange" class="exchange"></div>
<div class="row"><button id="copy-curl" type="button">Copy as curl</button><span id="copy-status" class="muted" role="status"></span></div>
<pre id="curl-text" hidden></pre>
`
}

export function journalPanelScript(): string {
  return String.raw`
var detailSequence = 0;
var coverageTimer = null;
function headerTable(title, headers) {
  var wrap = el('div');
  wrap.appendChild(el('h3', '', title));
  var names = Object.keys(headers || {});
  if (names.length === 0) { wrap.appendChild(el('p', 'muted', 'none')); return wrap; }
  var table = el('table');
  names.forEach(function (name) {
    var row = el('tr');
    var key = el('th', '', name);
    key.scope = 'row';
    row.append(key, el('td', '', headers[name]));
    table.appendChild(row);
  });
  wrap.appendChild(table);
  return wrap;
}
function bodyBlock(title, body) {
  var wrap = el('div');
  wrap.appendChild(el('h3', '', title));
  if (!body) { wrap.appendChild(el('p', 'muted', 'none')); return wrap; }
  var text = body.text;
  if (body.encoding === 'utf8') { try { text = JSON.stringify(JSON.parse(text), null, 2); } catch (error) { /* not JSON: as sent */ } }
  var note = body.size + ' bytes' + (body.encoding === 'base64' ? ', not UTF-8: base64' : '') + (body.truncated ? ', truncated to the journal\'s cap' : '');
  wrap.append(el('p', 'muted', note), el('pre', '', text));
  return wrap;
}
function shellQuote(text) { return "'" + String(text).replace(/'/g, "'\\''") + "'"; }
function curlFor(entry) {
  var request = entry.request;
  var host = request.headers.host || location.host;
  var query = entry.path.indexOf('?') === -1 ? '' : entry.path.slice(entry.path.indexOf('?'));
  var parts = ['curl', '-X', request.method, shellQuote(location.protocol + '//' + host + request.path + query)];
  Object.keys(request.headers).forEach(function (name) {
    if (name === 'host' || name === 'content-length' || name === 'connection') return;
    parts.push('-H', shellQuote(name + ': ' + request.headers[name]));
  });
  if (request.body && request.body.encoding === 'utf8') parts.push('--data-raw', shellQuote(request.body.text));
  return parts.join(' ');
}
function renderExchange(entry) {
  var box = $('detail-exchange');
  box.textContent = '';
  if (!entry) { box.appendChild(el('p', 'muted', 'This request is no longer in the journal.')); $('copy-curl').disabled = true; return; }
  var list = $('detail-list');
  var code = null;
  if (entry.response.body && entry.response.body.encoding === 'utf8') { try { code = JSON.parse(entry.response.body.text).code || null; } catch (error) { code = null; } }
  if (code) list.append(el('dt', '', 'error code'), el('dd', '', code));
  if (entry.response.headers['retry-after']) list.append(el('dt', '', 'Retry-After'), el('dd', '', entry.response.headers['retry-after'] + ' s'));
  box.append(headerTable('Request headers', entry.request.headers), bodyBlock('Request body', entry.request.body), headerTable('Response headers', entry.response.headers), bodyBlock('Response body', entry.response.body));
  $('copy-curl').disabled = false;
  $('curl-text').textContent = curlFor(entry);
}
function loadExchange(sequence) {
  detailSequence = sequence;
  $('detail-exchange').textContent = 'Loading the exchange…';
  $('curl-text').hidden = true;
  $('copy-status').textContent = '';
  call('GET', '/requests/wait?since=' + sequence + '&timeoutMs=0').then(function (data) {
    if (detailSequence !== sequence) return;
    renderExchange(data && data.request && data.request.sequence === sequence ? data.request : null);
  }, function () { if (detailSequence === sequence) renderExchange(null); });
}
$('copy-curl').onclick = function () {
  var text = $('curl-text').textContent;
  $('curl-text').hidden = false;
  var done = function () { $('copy-status').textContent = 'Copied'; };
  var shown = function () { $('copy-status').textContent = 'Select and copy the command below'; };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, shown); else shown();
};
$('download-har').onclick = function () {
  act(call('GET', '/requests.har').then(function (har) {
    var link = el('a');
    link.href = URL.createObjectURL(new Blob([JSON.stringify(har, null, 2)], { type: 'application/json' }));
    link.download = 'petstore-sim.har';
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
    return har;
  }), 'HAR downloaded');
};
function renderCoverage(coverage) {
  var summary = coverage.summary;
  $('coverage-summary').textContent = summary.spec.met + ' of the spec\'s ' + summary.spec.documented + ' answers met, and ' + summary.simulator.met + ' of the simulator\'s own ' + summary.simulator.documented + (summary.undocumented ? ', ' + summary.undocumented + ' undocumented statuses answered' : '') + '.';
  var deprecated = coverage.deprecatedCalls.map(function (called) { return called.operation + ' (removed ' + (called.removal || '').slice(0, 10) + ') called ' + called.calls + ' times'; });
  $('coverage-deprecated').textContent = deprecated.length ? 'Deprecated: ' + deprecated.join('; ') : '';
  $('coverage-deprecated').hidden = deprecated.length === 0;
  var body = $('coverage-rows');
  body.textContent = '';
  coverage.operations.forEach(function (operation) {
    operation.statuses.forEach(function (status, index) {
      var row = el('tr');
      row.dataset.operation = operation.operation;
      row.dataset.status = String(status.status);
      row.append(el('td', '', index === 0 ? operation.operation + (operation.deprecated ? ' (deprecated)' : '') : ''), el('td', status.documented ? '' : 'bad', status.status + (status.documented ? (status.origin === 'simulator' ? ' (simulator)' : '') : ' undocumented')), el('td', 'num' + (status.count === 0 ? ' never' : ''), status.count === 0 ? 'never' : status.count), el('td', 'num', status.behaviour), el('td', 'num', status.forced), el('td', 'num', status.fault));
      body.appendChild(row);
    });
  });
}
function refreshCoverage() {
  coverageTimer = null;
  call('GET', '/coverage').then(renderCoverage, function () {});
}
function coverageSoon() { if (coverageTimer === null) coverageTimer = setTimeout(refreshCoverage, 1000); }
$('coverage-refresh').onclick = function () { act(call('GET', '/coverage').then(renderCoverage), 'Coverage refreshed'); };
refreshCoverage();
`
}
