// Fails early, with a clear message, when the Node.js running the tests is
// too old. `npm test` runs with node_modules/.bin on PATH, where the `node`
// dev dependency puts Node 24, whatever Node the machine has.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`petstore-sim needs Node.js >= 22.12 (running ${process.version}). Run "npm install" first: it installs Node 24 into node_modules/.bin.`)
  process.exit(1)
}
console.log(`Node.js ${process.version}`)
