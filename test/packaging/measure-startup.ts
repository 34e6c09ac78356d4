// Time from spawning the CLI (`node bin/petstore-sim.js --port 0`) to its
// first answered API request, median over several runs after one warm-up
// run (which fills Node's compile cache, as a user's second start would).
// Usage: node test/packaging/measure-startup.ts [runs] [cli.js …]; with
// several CLI scripts the runs alternate between them, so that a busy
// machine slows each of them alike.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const runs = Number(process.argv[2] ?? 9)
const scripts = process.argv.length > 3 ? process.argv.slice(3) : ['bin/petstore-sim.js']

async function startupMs(script: string): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, [script, '--port', '0', '--log', 'silent'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    let out = ''
    const apiUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL line within 10 s: ${out}`)), 10_000)
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk
        const match = /listening on (http:\/\/\S+)/.exec(out)
        if (match) {
          clearTimeout(timer)
          resolve(match[1]!)
        }
      })
    })
    const response = await fetch(`${apiUrl}/pets?limit=1`, { headers: { authorization: 'Bearer demo-pro-key' } })
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`first answer was ${response.status}`)
    return performance.now() - started
  } finally {
    child.kill('SIGKILL')
  }
}

const times = new Map<string, number[]>(scripts.map((script) => [script, []]))
for (const script of scripts) await startupMs(script)
for (let run = 0; run < runs; run++) {
  for (const script of scripts) times.get(script)!.push(await startupMs(script))
}
for (const [script, list] of times) {
  list.sort((a, b) => a - b)
  const median = list[Math.floor(list.length / 2)]!
  console.log(
    `${script}: spawn to first API answer, ${runs} runs: median ${median.toFixed(0)} ms, min ${list[0]!.toFixed(0)}, max ${list.at(-1)!.toFixed(0)}`,
  )
}
