// `node --import` this file to print which msw the run resolves (test/recipes/node-test.test.ts checks the lane).
import { fileURLToPath } from 'node:url'

const file = fileURLToPath(import.meta.resolve('msw/node'))
console.log(`msw from ${file.slice(file.lastIndexOf('node_modules/'))}`)
