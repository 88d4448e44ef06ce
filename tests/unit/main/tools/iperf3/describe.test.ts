import { describe, expect, it } from 'vitest'
import { iperf3PrimaryMetrics } from '../../../../../src/main/tools/iperf3/describe'
import { iperf3Metrics } from '../../../../../src/main/tools/iperf3/metrics'
import { iperf3ParamsSchema } from '../../../../../src/main/tools/iperf3/params'
import { parse } from '../../../../../src/main/tools/iperf3/parse'
import { fixtureOutput, samplesOf } from './fixtures'

describe('iperf3 primary figures', () => {
  it('TCP: what arrived at the receiver', () => {
    expect(iperf3PrimaryMetrics(iperf3ParamsSchema.parse({}))).toEqual(['iperf3.received.bandwidth'])
    expect(iperf3PrimaryMetrics(iperf3ParamsSchema.parse({ protocol: 'tcp', reverse: true }))).toEqual(['iperf3.received.bandwidth'])
  })

  it('UDP: what arrived, jitter and loss', () => {
    expect(iperf3PrimaryMetrics(iperf3ParamsSchema.parse({ protocol: 'udp' }))).toEqual(['iperf3.received.bandwidth', 'iperf3.jitter', 'iperf3.loss'])
  })

  it('UDP: jitter (s, lower is better, a ratio) and loss (%, lower is better, a difference) are what the parser gives', () => {
    const defs = new Map(iperf3Metrics.map((d) => [d.name, d]))
    expect(defs.get('iperf3.jitter')).toMatchObject({ unit: 's', better: 'lower', comparison: 'ratio' })
    expect(defs.get('iperf3.loss')).toMatchObject({ unit: '%', better: 'lower', comparison: 'difference' })
    const parsed = new Set(samplesOf(parse(fixtureOutput('udp-10m'))).map((s) => s.metric))
    for (const name of iperf3PrimaryMetrics(iperf3ParamsSchema.parse({ protocol: 'udp' }))) expect(parsed, name).toContain(name)
  })
})
