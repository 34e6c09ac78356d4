// What a CI script does all the time: `petstore-sim | head -1`, `petstore-sim --help | head -1`. Whatever reads the
// CLI's output may go away; the server must keep serving, and --help/--version must exit 0 quietly. Before the fix, the
// first log line after the reader left killed the server (`Error: write EPIPE … Unhandled 'error' event`).
import { afterEach, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../support/cli-process.ts'

const auth = { Authorization: 'Bearer demo-pro-key' }
const running: Array<{ stop(): Promise<unknown> }> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop()))
})

/** Waits (bounded) until the child's stdout pipe has been closed by this side and the child has had time to write into it. */
async function closeStdout(child: import('node:child_process').ChildProcess): Promise<void> {
  child.stdout!.destroy()
  await new Promise((resolve) => setTimeout(resolve, 50))
}

describe('a closed stdout', () => {
  it.each(['pretty', 'json'])(
    'with --log %s, the server keeps answering after the reader goes away, and says so once on stderr',
    async (log) => {
      const cli = await startCli(['--port', '0', '--log', log])
      running.push(cli)
      await closeStdout(cli.child)
      const statuses: number[] = []
      for (let request = 0; request < 5; request++) {
        const response = await fetch(`${cli.apiUrl}/pets?limit=1`, { headers: auth })
        statuses.push(response.status)
        await response.arrayBuffer()
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200])
      expect(cli.child.exitCode).toBeNull()
      const notes = cli
        .stderr()
        .split('\n')
        .filter((line) => line !== '')
      expect(notes).toEqual([
        expect.stringMatching(/^petstore-sim: standard output closed \(EPIPE\); request logs are dropped, serving goes on$/),
      ])
    },
  )

  it.each([['--help'], ['--version']])('%s into a closed pipe exits 0 without a stack trace', async (flag) => {
    const cli = runCli([flag])
    cli.child.stdout!.destroy()
    expect(await cli.exited).toBe(0)
    expect(cli.stderr()).toBe('')
  })
})
