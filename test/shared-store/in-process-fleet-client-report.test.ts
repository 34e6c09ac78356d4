import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRedisServer, type RedisServer } from '../support/redis-server.ts'
import { startFleet, type Fleet } from './fleet.ts'

// The client report across a fleet (`--store`, issue 48): requests split over two instances of one store are graded
// as one caller's, and both instances answer the same report (each grades the fleet's journal as it arrives).
let redis: RedisServer
let fleet: Fleet
beforeAll(async () => {
  redis = await startRedisServer()
  fleet = await startFleet(2, { url: redis.socketUrl }, { seed: 7, pets: 5, keys: { 'k-limited': 'enterprise:3/1000', 'k-pro': 'pro' } })
})
afterAll(async () => {
  await fleet?.close()
  await redis?.stop()
})

describe('the client report on two instances of one store', () => {
  it('grades a caller whose requests went to both, and answers the same report on each', async () => {
    await fleet.control(0, '/__sim/clock', 'POST', { set: '2030-06-15T10:00:00Z', freeze: true })
    // Alternating instances: three allowed, a 429, then an immediate retry through the other instance.
    for (let index = 0; index < 5; index++) await fleet.api(index % 2, '/pets?limit=1', { key: 'k-limited' })
    await fleet.api(1, '/pets?limit=500', { key: 'k-pro' })
    const read = async (index: number) => (await fleet.control(index, '/__sim/clients')).json()
    // Each instance's journal takes in the other's requests as the store hands them over: bounded wait, 5 s at most.
    const deadline = Date.now() + 5000
    const complete = (report: { callers: { requests: number }[] }) => report.callers.reduce((sum, grade) => sum + grade.requests, 0) === 6
    let reports = await Promise.all([read(0), read(1)])
    while (!(complete(reports[0]) && complete(reports[1])) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      reports = await Promise.all([read(0), read(1)])
    }
    expect(reports[1]).toEqual(reports[0])
    const [report] = reports
    expect(
      report.callers.map((grade: { requests: number; findings: { rule: string }[] }) => [
        grade.requests,
        grade.findings.map((finding) => finding.rule),
      ]),
    ).toEqual([
      [5, ['retry-after-ignored']],
      [1, ['invalid-request']],
    ])
  })
})
