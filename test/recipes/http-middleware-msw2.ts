// Recipe in docs/recipes.md: @mswjs/http-middleware on msw 2 (run by test/msw2/http-middleware.msw2-test.ts).
// mock-api.ts: the simulator's MSW handlers served over HTTP (msw 2 only)
import { createMiddleware } from '@mswjs/http-middleware'
import express from 'express'
import { createSimulator } from 'petstore-sim'

export const simulator = createSimulator({ seed: 1 })

export const app = express()
app.use(express.json()) // your body parsers may stay: the handlers get the body either way
app.use(createMiddleware(...simulator.handlers))
// app.listen(9090): http://localhost:9090/v1/pets is now answered by the simulator
