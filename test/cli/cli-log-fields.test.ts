// `--log json` lines lacked `level`, `operation` and the error `code`, and printed `durationMs: 3.9277470000000676`.
import { afterEach, expect, it } from 'vitest'
import { startCli } from '../support/cli-process.ts'

const running: Array<{ stop(): Promise<unknown> }> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop()))
})

it('--log json: level, operation and the Error code on each line, the duration in tenths of a millisecond', async () => {
  const cli = await startCli(['--port', '0', '--log', 'json'])
  running.push(cli)
  const headers = { Authorization: 'Bearer demo-pro-key' }
  for (const [path, init] of [
    ['/pets?limit=1', { headers }],
    ['/pets/999999', { headers }],
    ['/pets', {}],
  ] as const) {
    const response = await fetch(`${cli.apiUrl}${path}`, init)
    await response.arrayBuffer()
  }
  const deadline = Date.now() + 5000
  while (cli.stdout().trim().split('\n').length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  const lines = cli
    .stdout()
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  expect(lines.map(({ level, operation, status, code }) => ({ level, operation, status, code }))).toEqual([
    { level: 'info', operation: 'listPets', status: 200, code: undefined },
    { level: 'warn', operation: 'getPet', status: 404, code: 'pet_not_found' },
    { level: 'warn', operation: 'listPets', status: 401, code: 'missing_api_key' },
  ])
  for (const line of lines) expect(String(line.durationMs)).toMatch(/^\d+(\.\d)?$/)
})

it('--log pretty: the Error code after the status', async () => {
  const cli = await startCli(['--port', '0', '--log', 'pretty'])
  running.push(cli)
  const response = await fetch(`${cli.apiUrl}/pets/999999`, { headers: { Authorization: 'Bearer demo-pro-key' } })
  await response.arrayBuffer()
  const deadline = Date.now() + 5000
  while (!cli.stdout().includes('GET /v1/pets/999999') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  expect(cli.stdout()).toMatch(/\nGET \/v1\/pets\/999999 404 pet_not_found \d+\.\dms pro key#[0-9a-f]{8}\n/)
})

// Issue 36: Pact's verifier shows only `Invalid status code: 400` for a refused state, and the log line had no message.
it('logs a refused provider state with its message, on one line, naming the accepted phrases', async () => {
  const cli = await startCli(['--port', '0', '--log', 'pretty'])
  running.push(cli)
  const origin = new URL(cli.apiUrl).origin
  // A C1 control (CSI) and a line separator in the client's text: neither reaches the terminal.
  const response = await fetch(`${origin}/__sim/provider-states`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state: 'a pet called Rex exists\u009b2J\u2028fake line', action: 'setup' }),
  })
  expect(response.status).toBe(400)
  await response.arrayBuffer()
  const deadline = Date.now() + 5000
  while (!cli.stdout().includes('POST /__sim/provider-states') && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20))
  const line = cli
    .stdout()
    .split('\n')
    .find((candidate) => candidate.startsWith('POST /__sim/provider-states'))
  expect(line).toMatch(
    /^POST \/__sim\/provider-states 400 invalid_provider_state \d+\.\dms - - refused: Unknown provider state "a pet called Rex exists\?2J\?fake line"\. /,
  )
  for (const phrase of ['a pet with id {id} exists', 'no pet with id {id} exists', 'the catalogue is empty', 'getPet is past its sunset']) {
    expect(line).toContain(JSON.stringify(phrase))
  }
})
