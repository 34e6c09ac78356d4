/**
 * The oldest Node.js the Node entry runs on: package.json's `engines` (a test keeps the two equal). Older ones start
 * and then fail in odd places (msw 3 in-process: `Promise.withResolvers is not a function` on Node 20), so the servers
 * say so plainly instead, when one is created. The CLI checks the same before anything else (bin/petstore-sim.js).
 */
export const requiredNodeVersion = '22.12.0'

/** Throws an Error naming the Node.js needed when `version` (default: this process's) is older. */
export function assertSupportedNode(version: string = process.versions.node): void {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  const [requiredMajor = 0, requiredMinor = 0] = requiredNodeVersion.split('.').map(Number)
  if (major < requiredMajor || (major === requiredMajor && minor < requiredMinor)) {
    throw new Error(`petstore-sim/node needs Node.js ${requiredNodeVersion} or later; this is Node.js ${version}`)
  }
}
