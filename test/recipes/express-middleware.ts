// Recipe in docs/recipes.md: express, after your body parsers (run by test/node/middleware.test.ts).
// server.ts: your express app, with the simulator mounted in it
import express from 'express'
import { createMiddleware, createNodeApp } from 'petstore-sim/node'

export const app = express()
app.use(express.json())
app.use(createMiddleware({ app: createNodeApp({ seed: 1 }) })) // /v1/*, /__sim/*, /openapi.json and /openapi.yaml
app.get('/health', (_request, response) => void response.send('ok')) // every other path is still yours
// app.listen(3000)
