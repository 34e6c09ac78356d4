// Preloaded with --import by the CLI test for old Node versions: the CLI then sees the version Node 20 reports.
Object.defineProperty(process.versions, 'node', { value: '20.20.2' })
