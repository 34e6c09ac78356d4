import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { bundleDashboardScript, dashboardScriptBundle, dashboardScriptModule } from '../../rolldown.config.ts'
import { dashboardPage } from '../../src/app/dashboard/dashboard-page.ts'

// The dashboard's script is TypeScript of its own (src/app/dashboard/script/), bundled into the page at build time
// (rolldown.config.ts). The sources, which the tests and a checkout's CLI run, take the bundle from
// dashboard-script-bundle.ts: it must be the bundle of the script as it is now. Its Chromium tests are dashboard.test.ts.

describe("the dashboard's script", () => {
  it('is bundled in dashboard-script-bundle.ts as the sources are now (else: npm run build:dashboard)', async () => {
    const fresh = dashboardScriptModule(await bundleDashboardScript())
    expect(readFileSync(dashboardScriptBundle, 'utf8') === fresh, 'dashboard-script-bundle.ts is stale: run npm run build:dashboard').toBe(
      true,
    )
  })

  it('is one classic script in the page, under its nonce, with nothing of the TypeScript left', async () => {
    const page = dashboardPage()
    const scripts = [...page.matchAll(/<script nonce="__NONCE__">\n([\s\S]*?)<\/script>/g)]
    expect(scripts).toHaveLength(1)
    const script = scripts[0]![1]!
    expect(script).toBe(`${await bundleDashboardScript()}\n`)
    expect(script).toMatch(/^"use strict";\n\(function\(\) \{\n/)
    expect(script).not.toMatch(/\bimport\b|\bexport\b|: HTMLElement|as HTML/)
    // The journal panel's script is in it (script/journal-view.ts), and the page's markup still holds its marks' parts.
    expect(script).toContain('function renderCoverage(')
    expect(page).not.toMatch(/\/\/DASHBOARD_SCRIPT|\/\*JOURNAL_STYLE\*\/|<!--COVERAGE-->|<!--DETAIL_EXCHANGE-->/)
  })

  it('type-checks with the DOM and without Node: a Node API in it fails (its own tsconfig.json)', async () => {
    const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url))
    const project = fileURLToPath(new URL('../../src/app/dashboard/script/tsconfig.json', import.meta.url))
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', project])
    expect(stdout).toBe('')
  }, 60_000)
})
