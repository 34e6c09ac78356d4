#!/usr/bin/env -S node --max-semi-space-size=16
// petstore-sim's command line. Runs the compiled code when there is some
// (an installed package), else the TypeScript sources (a checkout), which
// Node >= 22.18 runs directly.
//
// The young generation is capped at 16 MiB per semi-space: V8 sizes it from
// the machine's memory otherwise, and a server's short-lived request objects
// then pile up into large, slow scavenges (p99 and peak RSS in `npm run bench`).
// V8 takes the flag only at launch (v8.setFlagsFromString at run time did not
// shrink it), hence the shebang; `node bin/petstore-sim.js` runs without it.
import { existsSync } from 'node:fs'
import module from 'node:module'

module.enableCompileCache?.()
const compiled = new URL('../dist/lib/cli.js', import.meta.url)
const { runCli } = await import(existsSync(compiled) ? compiled.href : new URL('../src/cli/run-cli.ts', import.meta.url).href)
await runCli(process.argv.slice(2))
