import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRun } from '../../../src/main/engine/start-run'
import { readRun } from '../../../src/main/store/run-store'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { TargetSchema } from '../../../src/shared/model/target'
import { simultaneousTables } from '../../../src/shared/network-tables'
import { freePort } from '../../harness/free-port'
import { startLab, type Lab } from './run-harness'

describe('simultaneous clients (study 000) and servers bound to the chosen address', () => {
  let lab: Lab
  beforeAll(async () => {
    lab = await startLab()
  })
  afterAll(async () => {
    await lab?.stop()
  })

  it('runs the host and the guest as iperf3 clients at the same time against a third machine, each with a server of its own', async () => {
    const now = new Date().toISOString()
    // the third machine on the same switch: this computer, serving on loopback
    const peer = TargetSchema.parse({ id: 't-peer', name: 'itb4', kind: 'local', role: 'host', createdAt: now, updatedAt: now })
    const port = await freePort()
    const plan = ComparisonPlanSchema.parse({
      name: 'contention',
      baseline: { target: 'host' },
      variants: [{ target: 'guest', label: 'vm' }],
      storage: { kind: 'directory', path: lab.workRoot },
      repetitions: 1,
      network: { peer: 'itb4', simultaneous: true },
      tests: [{ id: 'iperf3', tool: 'iperf3', params: { seconds: 2, port } }]
    })
    const runDir = path.join(lab.dir, 'run-simultaneous')
    const started = await startRun(plan, runDir, lab.services({ inventory: [...lab.inventory, peer] }))
    expect(await started.done).toBe('completed')
    const run = await readRun(runDir)

    const together = run.jobs.filter((j) => j.kind === 'simultaneous')
    expect(together.map((j) => [j.side, j.group, j.status])).toEqual([
      ['host', 'iperf3/r1', 'succeeded'],
      ['vm', 'iperf3/r1', 'succeeded']
    ])
    // both clients measured at the same time: each started before the other ended
    const [a, b] = together.map((j) => ({ start: Date.parse(j.startedAt!), end: Date.parse(j.endedAt!) }))
    expect(a!.start).toBeLessThan(b!.end)
    expect(b!.start).toBeLessThan(a!.end)
    // a server each on the peer, on its own port, listening on the address the client was given
    const servers = together.map((j) => j.steps.find((s) => s.id === 'server')!)
    expect(servers.map((s) => s.on)).toEqual(['itb4', 'itb4'])
    expect(servers[0]!.command).toContain(`-p ${port}`)
    expect(servers[1]!.command).toContain(`-p ${port + 1}`)
    for (const s of servers) expect(s.command).toContain('--bind 127.0.0.1')
    // ordinary jobs bind too
    const compareServer = run.jobs.find((j) => j.kind === 'compare')!.steps.find((s) => s.id === 'server')!
    expect(compareServer.command).toContain('--bind 127.0.0.1')

    // the table: each client's bandwidth as recorded, and their sum
    const [table] = simultaneousTables(run)
    const received = (side: string) =>
      together.find((j) => j.side === side)!.samples.find((s) => s.metric === 'iperf3.received.bandwidth' && s.labels.stream === undefined)!.value
    expect(table!.metric).toBe('iperf3.received.bandwidth')
    expect(table!.peer).toBe('itb4')
    expect(table!.clients.map((c) => [c.client, c.value])).toEqual([
      ['host', received('host')],
      ['vm', received('vm')]
    ])
    expect(table!.total!.value).toBeCloseTo(received('host') + received('vm'), 6)
  })
})
