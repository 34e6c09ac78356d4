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
import { existsSync, readFileSync } from 'node:fs'
import module from 'node:module'

// Said plainly before anything else runs: on an older Node the CLI would start and then fail in odd places (msw 3
// needs Promise.withResolvers, the sources need type stripping). The version is the one package.json's engines names.
const required = /\d+\.\d+\.\d+/.exec(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node)[0]
const [major, minor] = process.versions.node.split('.').map(Number)
const [requiredMajor, requiredMinor] = required.split('.').map(Number)
if (major < requiredMajor || (major === requiredMajor && minor < requiredMinor)) {
  process.stderr.write(
    `petstore-sim needs Node.js ${required} or later; this is Node.js ${process.versions.node}. Install Node.js 22 or 24 (LTS) and run it again.\n`,
  )
  process.exit(1)
}

module.enableCompileCache?.()
const compiled = new URL('../dist/lib/cli.js', import.meta.url)
const { runCli } = await import(existsSync(compiled) ? compiled.href : new URL('../src/cli/run-cli.ts', import.meta.url).href)
await runCli(process.argv.slice(2))
