import { describe, expect, it } from 'vitest'
import { iperfPrimaryMetrics } from '../../../../../src/main/tools/iperf/describe'
import { iperfMetrics } from '../../../../../src/main/tools/iperf/metrics'
import { iperfParamsSchema } from '../../../../../src/main/tools/iperf/params'
import { parse } from '../../../../../src/main/tools/iperf/parse'
import { fixtureOutput, samplesOf } from './fixtures'

describe('iperf (v2) primary figures', () => {
  it('TCP: the bandwidth of each direction', () => {
    expect(iperfPrimaryMetrics(iperfParamsSchema.parse({}))).toEqual(['iperf.bandwidth'])
  })

  it('UDP: bandwidth, jitter and loss', () => {
    expect(iperfPrimaryMetrics(iperfParamsSchema.parse({ protocol: 'udp' }))).toEqual(['iperf.bandwidth', 'iperf.jitter', 'iperf.loss'])
  })

  it('UDP: jitter (s, lower is better, a ratio) and loss (%, lower is better, a difference) are what the parser gives from study 000', () => {
    const defs = new Map(iperfMetrics.map((d) => [d.name, d]))
    expect(defs.get('iperf.jitter')).toMatchObject({ unit: 's', better: 'lower', comparison: 'ratio' })
    expect(defs.get('iperf.loss')).toMatchObject({ unit: '%', better: 'lower', comparison: 'difference' })
    const parsed = new Set(samplesOf(parse(fixtureOutput('study000-udp-itb4-to-kvm2'))).map((s) => s.metric))
    for (const name of iperfPrimaryMetrics(iperfParamsSchema.parse({ protocol: 'udp' }))) expect(parsed, name).toContain(name)
  })
})
