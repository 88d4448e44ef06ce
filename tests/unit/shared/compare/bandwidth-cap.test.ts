import { describe, expect, it } from 'vitest'
import { metricDefsOf } from '../../../../src/main/tools/describe-run'
import { capEvidenceText, readCap, sendsAtSetRate } from '../../../../src/shared/compare/bandwidth-cap'
import type { RunDocument } from '../../../../src/shared/model/run'
import { runMetrics } from '../../../../src/shared/run-metrics'

const M = 1e6
const G = 1e9

/** readCap over a network tool's figures (iperf3's goodput), in bit/s. */
const network = (values: number[]) => readCap(values, 'bit/s', 'network')

describe('readCap: the one rule of the bandwidth-cap check', () => {
  it('names a 30 Mbit/s tbf read 28.7, 28.8, 28.7 Mbit/s: every figure steady just below the limit', () => {
    expect(network([28.7 * M, 28.8 * M, 28.7 * M])).toEqual({ kind: 'held', capBits: 30 * M, values: [28.7 * M, 28.8 * M, 28.7 * M] })
    // the known-truth lab's four figures (two pairs, two repetitions) and its 1500-byte frames' widest pair
    expect(network([28.72 * M, 28.82 * M, 28.8 * M, 28.75 * M])?.kind).toBe('held')
    expect(network([28.5 * M, 28.9 * M])?.kind).toBe('held')
  })

  it('names nothing on a free path that wanders just below a round number: 2.41, 2.44, 2.47 Gbit/s (1.2 %)', () => {
    expect(network([2.41 * G, 2.44 * G, 2.47 * G])).toBeUndefined()
    // free 1 Gbit/s-ish paths under load: 951, 968, 985 Mbit/s
    expect(network([951 * M, 968 * M, 985 * M])).toBeUndefined()
    // study 001 lab's physical → VM cell, whose median (2.42 Gbit/s) alone was once named "2.5 Gbit/s"
    expect(network([2.68 * G, 2.21 * G, 2.61 * G, 2.22 * G])).toBeUndefined()
  })

  it('never names a cap from one figure: 29.9 Mbit/s alone cannot tell a limit from a coincidence', () => {
    expect(network([29.9 * M])).toEqual({ kind: 'single', capBits: 30 * M, values: [29.9 * M] })
    expect(network([2.44 * G])?.kind).toBe('single')
    expect(network([])).toBeUndefined()
  })

  it('names nothing above the limit, nor when one figure of several leaves the window', () => {
    expect(network([30.2 * M, 30.3 * M, 30.2 * M])).toBeUndefined()
    expect(network([28.7 * M, 28.8 * M, 31 * M])).toBeUndefined()
    expect(network([28.7 * M, 28.8 * M, 26.8 * M])).toBeUndefined()
    // steady figures, but below two different limits
    expect(network([99 * M, 99 * M, 198 * M])).toBeUndefined()
  })

  it('leaves saturated Ethernet alone, steady as it is: 941 Mbit/s on 1 GbE, 9.41 Gbit/s on 10 GbE, 949 Mbit/s without TCP timestamps', () => {
    expect(network([941 * M, 940 * M, 942 * M])).toBeUndefined()
    expect(network([9.41 * G, 9.4 * G])).toBeUndefined()
    expect(network([949 * M, 949 * M])).toBeUndefined()
  })

  it("takes a network tool's payload window (5 %), and 3 % for a bandwidth of unknown origin", () => {
    // 28.7 Mbit/s is 4.3 % below 30 Mbit/s: a TCP goodput through the cap, but too far for a figure counted on the wire
    expect(readCap([28.7 * M, 28.8 * M], 'bit/s', undefined)).toBeUndefined()
    expect(readCap([29.4 * M, 29.5 * M], 'bit/s', undefined)?.capBits).toBe(30 * M)
    expect(network([28.4 * M, 28.45 * M])).toBeUndefined()
  })

  it('reads byte rates as 8 bits per byte, and only network bandwidths', () => {
    expect(readCap([98e6 / 8, 98e6 / 8], 'B/s', 'network')?.capBits).toBe(100 * M)
    expect(readCap([98e6 / 8, 98e6 / 8], 'B/s', 'storage')).toBeUndefined()
    expect(readCap([28.7 * M, 28.7 * M], 'op/s', 'network')).toBeUndefined()
  })

  it("says what the figures read, for the cap's sentence", () => {
    expect(capEvidenceText(network([28.7 * M, 28.8 * M, 28.7 * M])!, 'bit/s', 'repetitions')).toBe('its 3 repetitions all read 28.7 to 28.8 Mbit/s')
    expect(capEvidenceText(network([28.7 * M, 28.7 * M])!, 'bit/s', 'figures')).toBe('its 2 figures all read 28.7 Mbit/s')
    expect(capEvidenceText(readCap([99.5e6 / 8, 99.9e6 / 8], 'B/s', 'network')!, 'B/s', 'repetitions')).toBe('its 2 repetitions all read 99.5 to 99.9 Mbit/s')
    expect(capEvidenceText({ kind: 'held', capBits: G, values: [999e6, 1e9] }, 'bit/s', 'figures')).toBe('its 2 figures all read 999 Mbit/s to 1 Gbit/s')
  })
})

describe('tests whose sender sets the pace', () => {
  it('are the UDP tests of iperf3 and iperf, and the run says so of their figures', () => {
    expect(sendsAtSetRate({ tool: 'iperf3', params: { protocol: 'udp', bitrate: 100000000 } })).toBe(true)
    expect(sendsAtSetRate({ tool: 'iperf', params: { protocol: 'udp' } })).toBe(true)
    expect(sendsAtSetRate({ tool: 'iperf3', params: { protocol: 'tcp' } })).toBe(false)
    expect(sendsAtSetRate({ tool: 'iperf3', params: {} })).toBe(false)
    expect(sendsAtSetRate({ tool: 'fio', params: { protocol: 'udp' } })).toBe(false)
    const test = (id: string, protocol: string): RunDocument['tests'][number] => ({ id, title: id, tool: 'iperf3', params: { protocol }, repetitions: 2, aggregate: 'best' })
    const metrics = runMetrics({ metrics: metricDefsOf(['iperf3']), tests: [test('udp', 'udp'), test('tcp', 'tcp')] })
    expect(metrics.factsOf('udp', 'iperf3.received.bandwidth')?.setRate).toBe(true)
    expect(metrics.factsOf('tcp', 'iperf3.received.bandwidth')?.setRate).toBeUndefined()
  })
})
