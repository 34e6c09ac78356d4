/**
 * The markup and style of the dashboard's journal parts (issue #16), inserted into the page by `dashboard-page.ts`: a
 * request's whole exchange in its detail dialog (headers, bodies, error code, `Retry-After`) with "Copy as curl", the
 * HAR download, and the contract coverage panel; their script is `script/journal-view.ts`. Like the page, these are
 * template literals with no backtick, no `${` and no backslash.
 */
export function journalPanelStyle(): string {
  return `
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
  return `<section aria-labelledby="coverage-h">
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
  return `<div id="detail-exchange" class="exchange"></div>
<div class="row"><button id="copy-curl" type="button">Copy as curl</button><span id="copy-status" class="muted" role="status"></span></div>
<pre id="curl-text" hidden></pre>
`
}
