import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { networkMatrixText, simultaneousText } from '../../../src/main/report/text-table'
import { describeRun, metricDefsOf } from '../../../src/main/tools/describe-run'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { networkMatrices, simultaneousTables } from '../../../src/shared/network-tables'

/** The real run, described as main serves it (its metric definitions say which figures the tables show). */
const run = (): RunDocument =>
  describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/runs/loopback-quick/run.json'), 'utf8'))))

/** The median of the iperf3 received bandwidth of the matrix jobs from `from` to the target named `to`, read from the document by hand. */
function medianOf(doc: RunDocument, from: string, to: string, metric: string): number {
  const values = doc.jobs
    .filter((j) => j.kind === 'matrix' && j.testId === 'iperf3' && j.side === from && j.peer === to)
    .map((j) => j.samples.find((s) => s.metric === metric && s.labels.stream === undefined)!.value)
    .sort((a, b) => a - b)
  expect(values).toHaveLength(3)
  return values[1]!
}

describe('networkMatrices on a real run (host and guest on loopback, 3 repetitions)', () => {
  it('gives a source-by-destination table of the median bandwidth and ping round trip', () => {
    const doc = run()
    const matrices = networkMatrices(doc)
    expect(matrices.map((m) => [m.testId, m.metric, m.direction])).toEqual([
      ['ping', 'ping.rtt.avg', undefined],
      ['iperf3', 'iperf3.received.bandwidth', 'target->peer']
    ])
    const bw = matrices[1]!
    expect(bw.targets).toEqual(['host', 'guest (cache=none)'])
    expect(bw.unit).toBe('bit/s')
    const cell = (from: string, to: string) => bw.cells.find((c) => c.from === from && c.to === to)!
    expect(cell('host', 'guest (cache=none)').value).toBe(medianOf(doc, 'host', 'guest', 'iperf3.received.bandwidth'))
    expect(cell('guest (cache=none)', 'host').value).toBe(medianOf(doc, 'guest (cache=none)', 'host', 'iperf3.received.bandwidth'))
    expect(bw.cells).toHaveLength(2)
  })

  it('prints each matrix as a grid for the terminal', () => {
    const text = networkMatrixText(networkMatrices(run()))
    expect(text).toContain('iperf3.received.bandwidth (target->peer)  (rows: from, columns: to)')
    expect(text).toMatch(/^host +· +\d+\.\d Gbit\/s$/m)
    expect(text).toMatch(/^guest \(cache=none\) +\d+\.\d Gbit\/s +·$/m)
  })

  it('runs a peer->target flow (iperf3 -R) from the server machine to the client, so rows are always the sender', () => {
    const doc = run()
    doc.jobs = doc.jobs.map((j) =>
      j.kind === 'matrix' && j.testId === 'iperf3'
        ? { ...j, samples: j.samples.map((s) => (s.labels.direction ? { ...s, labels: { ...s.labels, direction: 'peer->target' } } : s)) }
        : j
    )
    const bw = networkMatrices(doc).find((m) => m.metric === 'iperf3.received.bandwidth')!
    expect(bw.direction).toBe('peer->target')
    // the jobs whose client was the host and whose server was the guest sent from the guest to the host
    const cell = bw.cells.find((c) => c.from === 'guest (cache=none)' && c.to === 'host')!
    expect(cell.value).toBe(medianOf(doc, 'host', 'guest', 'iperf3.received.bandwidth'))
  })

  it('has no simultaneous table when the run had none', () => {
    expect(simultaneousTables(run())).toEqual([])
  })
})

describe('simultaneousTables', () => {
  it("gives each client's share and the sum of each repetition, leaving failed jobs out", () => {
    const doc = run()
    const sample = (value: number) => ({ metric: 'iperf.bandwidth', value, unit: 'bit/s' as const, better: 'higher' as const, labels: { direction: 'target->peer' } })
    const base = doc.jobs[0]!
    const job = (id: string, side: string, group: string, repetition: number, value: number, status: 'succeeded' | 'failed' = 'succeeded') => ({
      ...base,
      id,
      testId: 'iperf',
      title: 'iperf TCP',
      tool: 'iperf' as const,
      target: side,
      side,
      peer: 'itb4',
      kind: 'simultaneous' as const,
      group,
      repetition,
      status,
      samples: [sample(value)]
    })
    // study 000: "iperf against the physical system started first": 340 and 626 Mbit/s
    doc.jobs = [
      job('j0001', 'phys', 'iperf/r1', 1, 340e6),
      job('j0002', 'vm', 'iperf/r1', 1, 626e6),
      job('j0003', 'phys', 'iperf/r2', 2, 685e6),
      job('j0004', 'vm', 'iperf/r2', 2, 309e6),
      job('j0005', 'vm', 'iperf/r3', 3, 1e9, 'failed')
    ]
    doc.tests = [{ id: 'iperf', title: 'iperf TCP', tool: 'iperf', params: {}, repetitions: 2, aggregate: 'mean' }]
    doc.targets = [...doc.targets, { name: 'itb4', role: 'peer', label: 'itb4', kind: 'ssh' }]
    // the definitions of the tools this document now uses (iperf)
    doc.metrics = metricDefsOf(['iperf'])
    const [table] = simultaneousTables(doc)
    expect(table!.peer).toBe('itb4')
    expect(table!.clients).toEqual([
      { client: 'phys', values: [340e6, 685e6], value: 512.5e6 },
      { client: 'vm', values: [626e6, 309e6], value: 467.5e6 }
    ])
    expect(table!.total).toEqual({ values: [966e6, 994e6], value: 980e6 })
    const text = simultaneousText([table!])
    expect(text).toContain('all clients at once against itb4')
    expect(text).toMatch(/^all clients together +980 Mbit\/s +2$/m)
  })
})
