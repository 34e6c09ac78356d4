// `npm run size`: what petstore-sim adds, gzipped, to a browser app that
// uses it under msw's setupWorker (Vite production builds; see browser-size.ts).
import { gzipSync } from 'node:zlib'
import { dashboardPage } from '../../src/app/dashboard/dashboard-page.ts'
import { measureBrowserWeight, type BundleSize } from './browser-size.ts'

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const weight = await measureBrowserWeight()
const line = (label: string, size: BundleSize) =>
  console.log(`${label.padEnd(28)}${kB(size.bytes).padStart(10)} min${kB(size.gzipBytes).padStart(10)} gzip`)
line('msw alone', weight.mswOnly)
line('msw + petstore-sim', weight.withSimulator)
console.log(
  `${'petstore-sim adds'.padEnd(28)}${kB(weight.withSimulator.bytes - weight.mswOnly.bytes).padStart(10)} min${kB(weight.addedGzipBytes).padStart(10)} gzip`,
)
console.log(`${'  of which zod'.padEnd(28)}${''.padStart(14)}${kB(weight.zodGzipBytes).padStart(10)} gzip`)
console.log(`${'  of which faker'.padEnd(28)}${''.padStart(14)}${kB(weight.fakerGzipBytes).padStart(10)} gzip`)
console.log('\nbytes per package with petstore-sim, after tree-shaking, before minification:')
for (const { name, bytes } of weight.withSimulator.byPackage) console.log(`  ${name.padEnd(26)}${kB(bytes).padStart(10)}`)

// The dashboard at /__sim/ is served by the simulator, never bundled into an app: its own size, as sent.
console.log(
  `\n${'dashboard page (/__sim/)'.padEnd(28)}${kB(Buffer.byteLength(dashboardPage())).padStart(10)} raw${kB(gzipSync(dashboardPage()).length).padStart(10)} gzip (budget 50 kB)`,
)
