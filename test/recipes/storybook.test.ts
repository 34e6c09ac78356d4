// Runs the Storybook recipe's runtime path in Node: msw-storybook-addon's own
// preview annotations (what `addonMsw()` installs), with a Node setup in place
// of the browser worker, as Storybook's portable stories do in Vitest.
import { setupServer } from 'msw/node'
import type { SetupWorker } from 'msw/browser'
import { createPreviewAnnotations } from 'msw-storybook-addon/preview'
import type { StoryContext } from 'storybook/internal/csf'
import { afterAll, expect, it, vi } from 'vitest'
import { withPetstore } from './storybook-story.ts'

const server = setupServer()
afterAll(() => server.close())

it('serves a story from petstore-sim through the addon, and resets after it', async () => {
  const annotations = createPreviewAnnotations(() => {
    server.listen({ onUnhandledFrame: 'error' })
    return server as unknown as SetupWorker
  })
  const context = {} as StoryContext
  const cleanup = await (annotations.beforeEach as (context: StoryContext) => Promise<() => void>)(context)
  withPetstore(7)(context)
  const response = await fetch('http://localhost:6006/v1/pets?limit=3', { headers: { Authorization: 'Bearer demo-pro-key' } })
  expect(response.status).toBe(200)
  expect(await response.json()).toHaveLength(3)
  cleanup()
  // After the story, msw refuses the request (onUnhandledFrame: 'error') and says so: captured and checked, not printed.
  const reported = vi.spyOn(console, 'error').mockImplementation(() => {})
  await expect(fetch('http://localhost:6006/v1/pets')).rejects.toThrow()
  expect(reported.mock.calls.map((args) => args.map(String).join(' '))).toEqual([
    expect.stringContaining('GET http://localhost:6006/v1/pets'),
  ])
  reported.mockRestore()
})
