import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { defaults } from '../../src/core/defaults.ts'

// Issue 45, Low 15: what the journal keeps of a Node request is its own, within its estimate. A Node Buffer's `slice`
// is a view, so a body cut to the 64 KiB cap kept the whole body (up to the 1 MiB limit) alive, counted as 64 KiB.

describe("the journal's capture of Node requests", () => {
  it('holds no more than its estimate, no IncomingMessage, and no more of a cut body than the cap', () => {
    const script = fileURLToPath(new URL('./journal-retention.ts', import.meta.url))
    const large = 30
    const line = execFileSync(process.execPath, ['--expose-gc', script, '1000', String(large)], { encoding: 'utf8', timeout: 120_000 })
    const figures = JSON.parse(line) as Record<string, number>
    expect(figures.entries).toBe(1000)
    // No kept entry reaches Node's request objects once the connection is gone.
    expect(figures.messagesAlive).toBe(0)
    // Before: 3.0 MB of array buffers (each 120 KB body whole) and 4.4 MB held, against an estimate of 3.5 MB.
    expect(figures.bufferBytes).toBeLessThanOrEqual(large * defaults.journalBodyCapBytes + 256 * 1024)
    expect(figures.heldBytes).toBeLessThanOrEqual(figures.estimated!)
  }, 120_000)

  it('leaves no body reachable from its request once the body is handed on', () => {
    const script = fileURLToPath(new URL('./body-retention.ts', import.meta.url))
    const line = execFileSync(process.execPath, ['--expose-gc', script, '40'], { encoding: 'utf8', timeout: 120_000 })
    const figures = JSON.parse(line) as Record<string, unknown>
    expect(figures).toMatchObject({ heldRequests: 40, statuses: [201] })
    // Before: 9,603,200 bytes, each request's chunks and its whole body (twice 120 KB) reached from the request's
    // listeners, which a promoted request keeps until a full collection. Now none: at most one body's slack.
    expect(figures.bufferBytes).toBeLessThan(figures.bodyBytes as number)
  }, 120_000)
})
