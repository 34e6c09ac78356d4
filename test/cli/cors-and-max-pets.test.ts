import { describe, expect, it } from 'vitest'
import { runCli, startCli } from '../support/cli-process.ts'

// Issue #22, items 2 and 3 (the app and core side): defects a hostile review found, each answered as a user sees it.
// This file: the CLI side of the origin policy and the store bound (test/hostile-review.test.ts, split by area).

const pro = { Authorization: 'Bearer demo-pro-key' }

describe('the CLI: --cors-origin, PETSTORE_SIM_CORS_ORIGIN and --max-pets', () => {
  it('refuses foreign pages on both engines unless allowed, and bounds the created pets', async () => {
    for (const engine of ['direct', 'msw']) {
      const cli = await startCli(
        ['--port', '0', '--log', 'silent', '--engine', engine, '--max-pets', '1', '--cors-origin', 'http://app.test:5173'],
        {
          PETSTORE_SIM_CORS_ORIGIN: 'https://preview.example',
        },
      )
      try {
        const get = (origin: string) => fetch(`${cli.apiUrl}/pets?limit=1`, { headers: { ...pro, origin } })
        const refused = await get('https://evil.example')
        expect(refused.status, engine).toBe(403)
        expect((await refused.json()).code).toBe('origin_not_allowed')
        expect(refused.headers.get('access-control-allow-origin')).toBeNull()
        // The flag wins over the environment variable, as for every flag.
        expect((await get('http://app.test:5173')).headers.get('access-control-allow-origin')).toBe('http://app.test:5173')
        expect((await get('http://localhost:3000')).status).toBe(200)
        const create = () =>
          fetch(`${cli.apiUrl}/pets`, {
            method: 'POST',
            headers: { ...pro, 'content-type': 'application/json' },
            body: '{"name":"Rex","categoryId":1}',
          })
        expect((await create()).status).toBe(201)
        expect((await create()).status, engine).toBe(507)
      } finally {
        await cli.stop()
      }
    }
    const fromEnvironment = await startCli(['--port', '0', '--log', 'silent'], {
      PETSTORE_SIM_CORS_ORIGIN: 'https://preview.example,http://app.test:5173',
    })
    try {
      const response = await fetch(`${fromEnvironment.apiUrl}/pets?limit=1`, { headers: { ...pro, origin: 'https://preview.example' } })
      expect(response.headers.get('access-control-allow-origin')).toBe('https://preview.example')
    } finally {
      await fromEnvironment.stop()
    }
  })

  it('refuses a --cors-origin that is not an origin, naming it (exit 2)', async () => {
    const cli = runCli(['--port', '0', '--cors-origin', 'http://app.test:5173/path'])
    expect(await cli.exited).toBe(2)
    expect(cli.stderr()).toContain('Not an origin: "http://app.test:5173/path"')
  })
})
