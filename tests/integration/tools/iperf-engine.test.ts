/**
 * iperf 2 and iperf3 through the whole engine against two real sshd on loopback (the lab of
 * tests/integration/engine/run-harness.ts) and this computer as the third machine:
 *
 * - iperf 2 -r with its default ports: the client cannot listen on the port its server already
 *   holds on this one machine (`listener bind failed`), as on every machine of study 000 where
 *   each ran `iperf -s`; the way back is then reported by the server alone, after the client ended.
 * - UDP clients run at once against one peer: the table adds each client's figure once (what
 *   arrived), not the sender's and the receiver's both.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRun } from '../../../src/main/engine/start-run'
import { readRun } from '../../../src/main/store/run-store'
import { TOOLS } from '../../../src/main/tools/registry'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import type { Job } from '../../../src/shared/model/run'
import { TargetSchema } from '../../../src/shared/model/target'
import { simultaneousTables } from '../../../src/shared/network-tables'
import { freePort } from '../../harness/free-port'
import { startLab, type Lab } from '../engine/run-harness'

describe('iperf through the engine on loopback', () => {
  let lab: Lab
  beforeAll(async () => {
    lab = await startLab()
  })
  afterAll(async () => {
    await lab?.stop()
  })

  const raw = (runDir: string, file: string | undefined): string => readFileSync(path.join(runDir, file!), 'utf8')

  it("iperf 2 -r whose client cannot listen for the way back: the server's own report of it is waited for and read", async () => {
    const port = await freePort()
    const plan = ComparisonPlanSchema.parse({
      name: 'way back',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      storage: { kind: 'directory', path: lab.workRoot },
      repetitions: 1,
      tests: [{ id: 'iperf-r', tool: 'iperf', params: { seconds: 1, port, format: 'text' } }]
    })
    const runDir = path.join(lab.dir, 'run-way-back')
    const started = await startRun(plan, runDir, lab.services())
    expect(await started.done).toBe('completed')
    const run = await readRun(runDir)
    for (const job of run.jobs) {
      const [server, client] = job.steps
      expect(raw(runDir, client!.stderrFile)).toContain('listener bind failed: Address already in use')
      // the server's "(reverse)" connection: the way back, reported when it ended
      const serverOut = raw(runDir, server!.stdoutFile)
      const id = /^\[\s*(\*\d+)\] local \S+ port \d+ connected with \S+ port (\d+) \(reverse\)/m.exec(serverOut)!
      expect(Number(id[2])).toBe(port)
      const line = new RegExp(`^\\[\\s*\\${id[1]}\\] 0\\.0+-[\\d.]+ sec\\s+[\\d.]+ \\w+\\s+([\\d.]+) (G|M)bits/sec`, 'm').exec(serverOut)!
      const back = job.samples.find((s) => s.metric === 'iperf.bandwidth' && s.labels.direction === 'peer->target')!
      expect(back.labels.measured_by).toBe('sender')
      expect(back.value).toBeCloseTo(Number(line[1]) * (line[2] === 'G' ? 1e9 : 1e6), 0)
      expect(job.samples.some((s) => s.metric === 'iperf.bandwidth' && s.labels.direction === 'target->peer')).toBe(true)
      expect(job.warnings.join('\n')).toMatch(/the way back \(peer->target\) is the server's own report .*listener bind failed: Address already in use/)
      expect(job.warnings.join('\n')).not.toMatch(/firewall/)
      // the raw files, the server's beside the client's, give the same samples again
      const tool = TOOLS.iperf
      const again = tool.parse(
        { stdout: raw(runDir, client!.stdoutFile), stderr: raw(runDir, client!.stderrFile), exitCode: 0, background: { stdout: serverOut, stderr: raw(runDir, server!.stderrFile) } },
        tool.params.parse(job.params)
      )
      expect(again.ok && again.samples).toEqual(job.samples.map(withoutRepetition))
    }
  })

  it('UDP clients at once (iperf 2 and iperf3): each client counted once in the total, by what arrived', async () => {
    const now = new Date().toISOString()
    const peer = TargetSchema.parse({ id: 't-peer', name: 'itb4', kind: 'local', role: 'host', createdAt: now, updatedAt: now })
    const plan = ComparisonPlanSchema.parse({
      name: 'udp contention',
      baseline: { target: 'host' },
      variants: [{ target: 'guest', label: 'vm' }],
      storage: { kind: 'directory', path: lab.workRoot },
      repetitions: 1,
      network: { peer: 'itb4', simultaneous: true },
      tests: [
        { id: 'iperf-udp', tool: 'iperf', params: { protocol: 'udp', direction: 'target->peer', seconds: 1, bitrate: 1_000_000, port: await freePort() } },
        { id: 'iperf3-udp', tool: 'iperf3', params: { protocol: 'udp', seconds: 1, bitrate: 1_000_000, port: await freePort() } }
      ]
    })
    const runDir = path.join(lab.dir, 'run-udp')
    const started = await startRun(plan, runDir, lab.services({ inventory: [...lab.inventory, peer] }))
    expect(await started.done).toBe('completed')
    const run = await readRun(runDir)
    const together = (testId: string): Job[] => run.jobs.filter((j) => j.kind === 'simultaneous' && j.testId === testId)
    const value = (job: Job, metric: string, measuredBy?: string): number =>
      job.samples.find((s) => s.metric === metric && s.labels.stream === undefined && s.labels.measured_by === measuredBy)!.value

    const iperf = simultaneousTables(run).find((t) => t.metric === 'iperf.bandwidth')!
    // about 1 Mbit/s each: two clients, not four figures (sender and receiver of each)
    expect(iperf.total!.value).toBeGreaterThan(1.5e6)
    expect(iperf.total!.value).toBeLessThan(2.5e6)
    // both ends measured each client: the table takes what arrived, once per client, and says so
    const received = together('iperf-udp').map((j) => value(j, 'iperf.bandwidth', 'receiver'))
    expect(iperf.total!.value).toBeCloseTo(received[0]! + received[1]!, 6)
    expect(iperf.clients.map((c) => [c.client, c.values])).toEqual([
      ['host', [received[0]]],
      ['vm', [received[1]]]
    ])
    expect(iperf.measuredBy).toBe('receiver')

    for (const metric of ['iperf3.received.bandwidth', 'iperf3.bandwidth']) {
      const table = simultaneousTables(run).find((t) => t.metric === metric)!
      const each = together('iperf3-udp').map((j) => value(j, metric))
      expect(table.clients.map((c) => c.values)).toEqual(each.map((v) => [v]))
      expect(table.total!.value).toBeCloseTo(each[0]! + each[1]!, 6)
    }
  })
})

function withoutRepetition<T extends { labels: Record<string, string | undefined> }>(sample: T): T {
  const { repetition: _dropped, ...labels } = sample.labels
  return { ...sample, labels }
}
