#!/usr/bin/env node
// petstore-sim's command line. Runs the compiled code when there is some
// (an installed package), else the TypeScript sources (a checkout), which
// Node >= 22.18 runs directly.
import { existsSync } from 'node:fs'
import module from 'node:module'

module.enableCompileCache?.()
const compiled = new URL('../dist/cli/run-cli.js', import.meta.url)
const { runCli } = await import(existsSync(compiled) ? compiled.href : new URL('../src/cli/run-cli.ts', import.meta.url).href)
await runCli(process.argv.slice(2))
