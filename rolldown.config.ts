// One build for the library's two entries and the CLI, so that what they
// share (the core, zod, the YAML parser) is bundled once, in shared chunks.
// Only msw, the peer dependency, stays outside: users bring their own.
import { defineConfig } from 'rolldown'

export default defineConfig({
  input: { index: 'src/index.ts', node: 'src/node.ts', verify: 'src/verify.ts', cli: 'src/cli/run-cli.ts' },
  platform: 'node',
  external: [/^msw(\/.*)?$/],
  logLevel: 'warn',
  output: { dir: 'dist/lib', format: 'esm', chunkFileNames: 'chunks/[name]-[hash].js' },
})
