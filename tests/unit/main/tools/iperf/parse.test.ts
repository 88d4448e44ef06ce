import { describe, expect, it } from 'vitest'
import { iperfMetrics } from '../../../../../src/main/tools/iperf/metrics'
import { iperfParamsSchema } from '../../../../../src/main/tools/iperf/params'
import { parse } from '../../../../../src/main/tools/iperf/parse'
import type { StepOutput } from '../../../../../src/main/tools/types'
import { fixtureOutput, fixtureParams, reasonOf, samplesOf, table, warningsOf } from './fixtures'

const KiB = 1024
const MiB = 1024 ** 2
const GiB = 1024 ** 3

function text(stdout: string): StepOutput {
  return { stdout, stderr: '', exitCode: 0 }
}

describe('iperf parse: study 000 (iperf 2.0.x text, copied from the write-up)', () => {
  it('itb4 -> itb-kvm2 -r: 941 Mbits/sec out (client side), 932 Mbits/sec back (listener side)', () => {
    // "itb4 was able to connect at 941 Mbits/sec. The transfer rate from the physical server to itb4 was 932 Mbits/sec."
    const r = parse(fixtureOutput('study000-tcp-itb4-to-kvm2'))
    expect(samplesOf(r)).toEqual([
      { metric: 'iperf.bandwidth', value: 941e6, unit: 'bit/s', better: 'higher', labels: { direction: 'target->peer', measured_by: 'sender' } },
      { metric: 'iperf.bytes', value: 1.1 * GiB, unit: 'B', better: 'higher', labels: { direction: 'target->peer', measured_by: 'sender' } },
      { metric: 'iperf.bandwidth', value: 932e6, unit: 'bit/s', better: 'higher', labels: { direction: 'peer->target', measured_by: 'receiver' } },
      { metric: 'iperf.bytes', value: 1.09 * GiB, unit: 'B', better: 'higher', labels: { direction: 'peer->target', measured_by: 'receiver' } }
    ])
    expect(warningsOf(r)).toEqual([])
  })

  it('itb-kvm2 -> itb4 -r: 939 both ways; [ 4] is the client here and [ 5] the listener', () => {
    expect(table(parse(fixtureOutput('study000-tcp-kvm2-to-itb4')))).toEqual({
      'iperf.bandwidth target->peer sender': 939e6,
      'iperf.bytes target->peer sender': 1.09 * GiB,
      'iperf.bandwidth peer->target receiver': 939e6,
      'iperf.bytes peer->target receiver': 1.1 * GiB
    })
  })

  it('two clients at once, the second on port 12000 (read from the header): 626 out, 247 back', () => {
    expect(table(parse(fixtureOutput('study000-tcp-contention-p12000')))).toEqual({
      'iperf.bandwidth target->peer sender': 626e6,
      'iperf.bytes target->peer sender': 749 * MiB,
      'iperf.bandwidth peer->target receiver': 247e6,
      'iperf.bytes peer->target receiver': 296 * MiB
    })
  })

  it('a way back that took 10.2 s: 441 MBytes at 361 Mbits/sec', () => {
    expect(table(parse(fixtureOutput('study000-tcp-lvm-vm-10.2s')))).toEqual({
      'iperf.bandwidth target->peer sender': 696e6,
      'iperf.bytes target->peer sender': 832 * MiB,
      'iperf.bandwidth peer->target receiver': 361e6,
      'iperf.bytes peer->target receiver': 441 * MiB
    })
  })

  it('UDP -r: the sender line, the Server Report (0.002 ms, 0/ 893) and the listener (0.009 ms)', () => {
    // "a jitter of 0.002 ms (client) / 0.009 ms (serve)"
    expect(table(parse(fixtureOutput('study000-udp-itb4-to-kvm2')))).toEqual({
      'iperf.bandwidth target->peer sender': 1.05e6,
      'iperf.bytes target->peer sender': 1.25 * MiB,
      'iperf.bandwidth target->peer receiver': 1.05e6,
      'iperf.bytes target->peer receiver': 1.25 * MiB,
      'iperf.jitter target->peer receiver': 0.000002,
      'iperf.loss target->peer receiver': 0,
      'iperf.packets.lost target->peer receiver': 0,
      'iperf.packets.total target->peer receiver': 893,
      'iperf.bandwidth peer->target receiver': 1.05e6,
      'iperf.bytes peer->target receiver': 1.25 * MiB,
      'iperf.jitter peer->target receiver': 0.000009,
      'iperf.loss peer->target receiver': 0,
      'iperf.packets.lost peer->target receiver': 0,
      'iperf.packets.total peer->target receiver': 893
    })
  })

  it('UDP from itb-kvm2 and on port 12000: the jitters of each report', () => {
    const kvm2 = table(parse(fixtureOutput('study000-udp-kvm2-to-itb4')))
    expect([kvm2['iperf.jitter target->peer receiver'], kvm2['iperf.jitter peer->target receiver']]).toEqual([0.000004, 0.000007])
    const p12000 = table(parse(fixtureOutput('study000-udp-contention-p12000')))
    expect([p12000['iperf.jitter target->peer receiver'], p12000['iperf.jitter peer->target receiver']]).toEqual([0.000011, 0.000004])
  })

  it("agrees with the study's own counts: 893 datagrams of 1470 bytes in 10.0 s are the printed 1.25 MBytes and 1.05 Mbits/sec", () => {
    const t = table(parse(fixtureOutput('study000-udp-itb4-to-kvm2')))
    const bytes = 893 * 1470
    // iperf rounds to three digits: the printed figures are within half a unit of the last digit.
    expect(Math.abs(t['iperf.bytes target->peer sender']! - bytes)).toBeLessThanOrEqual(0.005 * MiB)
    expect(Math.abs(t['iperf.bandwidth target->peer sender']! - (bytes * 8) / 10)).toBeLessThanOrEqual(0.005e6)
    // With 1000-based bytes the transfer would have been printed as 1.31 MBytes.
    expect(bytes / 1e6).toBeCloseTo(1.31, 2)
  })

  it('names the directions from the target when the server ran on the target', () => {
    const params = iperfParamsSchema.parse({ serverOn: 'target', targetAddress: 'itb4.mwt2.org' })
    expect(table(parse(fixtureOutput('study000-tcp-itb4-to-kvm2'), params))).toEqual({
      'iperf.bandwidth peer->target sender': 941e6,
      'iperf.bytes peer->target sender': 1.1 * GiB,
      'iperf.bandwidth target->peer receiver': 932e6,
      'iperf.bytes target->peer receiver': 1.09 * GiB
    })
  })
})

describe('iperf parse: iperf 2.1.8 text (captured here)', () => {
  it('-r: the client connection (to the server port) and the listener told apart', () => {
    expect(table(parse(fixtureOutput('tcp-tradeoff'), fixtureParams('tcp-tradeoff')))).toEqual({
      'iperf.bandwidth target->peer sender': 27.7e9,
      'iperf.bytes target->peer sender': 3.23 * GiB,
      'iperf.bandwidth peer->target receiver': 28.9e9,
      'iperf.bytes peer->target receiver': 3.36 * GiB
    })
  })

  it('-u -r with -b 10M: a jitter printed as 0.000 ms is a measured 0', () => {
    expect(table(parse(fixtureOutput('udp-tradeoff-10m')))).toEqual({
      'iperf.bandwidth target->peer sender': 10.0e6,
      'iperf.bytes target->peer sender': 1.2 * MiB,
      'iperf.bandwidth target->peer receiver': 10.0e6,
      'iperf.bytes target->peer receiver': 1.2 * MiB,
      'iperf.jitter target->peer receiver': 0,
      'iperf.loss target->peer receiver': 0,
      'iperf.packets.lost target->peer receiver': 0,
      'iperf.packets.total target->peer receiver': 854,
      'iperf.bandwidth peer->target receiver': 10.0e6,
      'iperf.bytes peer->target receiver': 1.2 * MiB,
      'iperf.jitter peer->target receiver': 0.000001,
      'iperf.loss peer->target receiver': 0,
      'iperf.packets.lost peer->target receiver': 0,
      'iperf.packets.total peer->target receiver': 853
    })
  })

  it('-u -r in KBytes', () => {
    const t = table(parse(fixtureOutput('udp-tradeoff')))
    expect(t['iperf.bytes target->peer sender']).toBe(134 * KiB)
    expect(t['iperf.packets.total peer->target receiver']).toBe(92)
  })

  it('-e (enhanced): reads past the extra columns, and "%lo" after the address', () => {
    expect(table(parse(fixtureOutput('tcp-tradeoff-enhanced')))).toEqual({
      'iperf.bandwidth target->peer sender': 29.0e9,
      'iperf.bytes target->peer sender': 3.4 * GiB,
      'iperf.bandwidth peer->target receiver': 27.0e9,
      'iperf.bytes peer->target receiver': 3.14 * GiB
    })
    const udp = table(parse(fixtureOutput('udp-tradeoff-enhanced')))
    expect(udp['iperf.packets.total target->peer receiver']).toBeGreaterThan(0)
    expect(Object.keys(udp)).toContain('iperf.jitter peer->target receiver')
  })

  it('-R: a reverse client connection is data the target received', () => {
    expect(table(parse(fixtureOutput('tcp-reverse'), fixtureParams('tcp-reverse', { direction: 'peer->target' })))).toEqual({
      'iperf.bandwidth peer->target receiver': 24.6e9,
      'iperf.bytes peer->target receiver': 2.86 * GiB
    })
  })

  it('-P 2: each stream, and the [SUM] line as the total', () => {
    expect(table(parse(fixtureOutput('tcp-parallel2'), fixtureParams('tcp-parallel2', { direction: 'target->peer', parallel: 2 })))).toEqual({
      'iperf.bandwidth target->peer sender': 55.4e9,
      'iperf.bytes target->peer sender': 6.46 * GiB,
      'iperf.bandwidth target->peer sender 1': 25.2e9,
      'iperf.bytes target->peer sender 1': 2.95 * GiB,
      'iperf.bandwidth target->peer sender 2': 29.9e9,
      'iperf.bytes target->peer sender 2': 3.5 * GiB
    })
  })

  it('-u -P 2: [SUM] for the sending side; the Server Reports added up (loss from the counts, no total jitter)', () => {
    const t = table(parse(fixtureOutput('udp-parallel2'), fixtureParams('udp-parallel2', { protocol: 'udp', direction: 'target->peer', parallel: 2 })))
    expect(t['iperf.bandwidth target->peer sender']).toBe(2.14e6)
    expect(t['iperf.bytes target->peer sender']).toBe(267 * KiB)
    expect(t['iperf.bandwidth target->peer receiver 1']).toBe(1.07e6)
    expect(t['iperf.loss target->peer receiver 1']).toBe(1.1)
    expect(t['iperf.jitter target->peer receiver 1']).toBe(0.000004)
    expect(t['iperf.jitter target->peer receiver 2']).toBe(0.000006)
    expect(t['iperf.packets.out_of_order target->peer receiver 2']).toBe(1)
    expect(t['iperf.bandwidth target->peer receiver']).toBe(1.07e6 + 1.08e6)
    expect(t['iperf.bytes target->peer receiver']).toBe(132 * KiB + 135 * KiB)
    expect([t['iperf.packets.lost target->peer receiver'], t['iperf.packets.total target->peer receiver']]).toEqual([1, 186])
    expect(t['iperf.loss target->peer receiver']).toBe((100 * 1) / 186)
    expect(t['iperf.jitter target->peer receiver']).toBeUndefined()
    expect(t['iperf.packets.out_of_order target->peer receiver']).toBeUndefined()
  })

  it('leaves out an iperf 2.1 [SUM] that adds up both ways of -r -P (2.1 starts the way back early)', () => {
    const out = text(
      [
        'Client connecting to 127.0.0.1, TCP port 53507',
        '[  2] local 127.0.0.1 port 47950 connected with 127.0.0.1 port 53507',
        '[  1] local 127.0.0.1 port 47942 connected with 127.0.0.1 port 53507',
        '[  1] 0.0000-1.0037 sec  2.60 GBytes  22.2 Gbits/sec',
        '[  3] local 127.0.0.1 port 52911 connected with 127.0.0.1 port 48328',
        '[  4] local 127.0.0.1 port 52911 connected with 127.0.0.1 port 48330',
        '[  2] 0.0000-1.0043 sec  3.26 GBytes  27.9 Gbits/sec',
        '[  3] 0.0000-1.0040 sec  1.97 GBytes  16.9 Gbits/sec',
        '[  4] 0.0000-1.0004 sec  1.36 GBytes  11.6 Gbits/sec',
        '[SUM] 0.0000-2.0093 sec  9.19 GBytes  39.3 Gbits/sec',
        ''
      ].join('\n')
    )
    const t = table(parse(out))
    expect(t['iperf.bandwidth target->peer sender']).toBe(22.2e9 + 27.9e9)
    expect(t['iperf.bandwidth peer->target receiver']).toBe(16.9e9 + 11.6e9)
    expect(t['iperf.bytes peer->target receiver 2']).toBe(1.36 * GiB)
  })

  it("reads the text's MBytes as 2^20 bytes: the server's -y C counted 104857600 for the client's `100 MBytes`", () => {
    const serverCsv = fixtureOutput('units-100M-server.csv').stdout.trim().split(',')
    expect(serverCsv[7]).toBe('104857600')
    expect(table(parse(fixtureOutput('units-100M-client')))['iperf.bytes target->peer sender']).toBe(Number(serverCsv[7]))
  })

  it('reads every unit iperf prints: -f k, m, g, K, M, G, b, B', () => {
    const line = (transfer: string, rate: string) => text(`Client connecting to h, TCP port 5001\n[  1] local a port 1 connected with b port 5001\n[  1] 0.0000-0.0487 sec  ${transfer}  ${rate}\n`)
    const cases: [string, string, number, number][] = [
      ['102400 KBytes', '16989586 Kbits/sec', 102400 * KiB, 16989586e3],
      ['100 MBytes', '23373 Mbits/sec', 100 * MiB, 23373e6],
      ['0.098 GBytes', '23.7 Gbits/sec', 0.098 * GiB, 23.7e9],
      ['104857600 Bytes', '17209872187 bits/sec', 104857600, 17209872187],
      ['104857600 Bytes', '2154859127 Bytes/sec', 104857600, 2154859127 * 8],
      ['102400 KBytes', '2103879 KBytes/sec', 102400 * KiB, 2103879 * KiB * 8],
      ['100 MBytes', '2064 MBytes/sec', 100 * MiB, 2064 * MiB * 8],
      ['0.098 GBytes', '1.99 GBytes/sec', 0.098 * GiB, 1.99 * GiB * 8]
    ]
    for (const [transfer, rate, bytes, bits] of cases) {
      expect(table(parse(line(transfer, rate))), `${transfer} ${rate}`).toEqual({ 'iperf.bandwidth target->peer sender': bits, 'iperf.bytes target->peer sender': bytes })
    }
  })
})

describe('iperf parse: -y C (captured here)', () => {
  it('-r: the exact bytes and bits/s, told apart by the server port and the listen port', () => {
    const r = parse(fixtureOutput('tcp-tradeoff-csv'), fixtureParams('tcp-tradeoff-csv'))
    expect(table(r)).toEqual({
      'iperf.bandwidth target->peer sender': 31443009995,
      'iperf.bytes target->peer sender': 3953655868,
      'iperf.bandwidth peer->target receiver': 29378078065,
      'iperf.bytes peer->target receiver': 3671719936
    })
    expect(warningsOf(r)).toEqual([])
  })

  it('-u -r: the listener line has jitter, lost/total and out-of-order; the sender line (total -1) has none, with a warning', () => {
    const r = parse(fixtureOutput('udp-tradeoff-csv'), fixtureParams('udp-tradeoff-csv', { protocol: 'udp', format: 'csv' }))
    expect(table(r)).toEqual({
      'iperf.bandwidth target->peer sender': 1071516,
      'iperf.bytes target->peer sender': 136710,
      'iperf.bandwidth peer->target receiver': 1060037,
      'iperf.bytes peer->target receiver': 135240,
      'iperf.jitter peer->target receiver': 0.000005,
      'iperf.loss peer->target receiver': 0,
      'iperf.packets.lost peer->target receiver': 0,
      'iperf.packets.total peer->target receiver': 92,
      'iperf.packets.out_of_order peer->target receiver': 0
    })
    expect(warningsOf(r)).toEqual([
      "target->peer has only the sender's rate, not what arrived: iperf 2.1 leaves the Server Report out of -y C output (use the text format for UDP), so its jitter and loss were not measured"
    ])
  })

  it('-i 0.5: only the final line of each connection (0.0-1.0)', () => {
    expect(table(parse(fixtureOutput('tcp-tradeoff-interval-csv'), fixtureParams('tcp-tradeoff-interval-csv')))).toEqual({
      'iperf.bandwidth target->peer sender': 21344755047,
      'iperf.bytes target->peer sender': 2693398588,
      'iperf.bandwidth peer->target receiver': 24465068985,
      'iperf.bytes peer->target receiver': 3060531200
    })
  })

  it('-R: the server port is the source, so the target received', () => {
    expect(table(parse(fixtureOutput('tcp-reverse-csv'), fixtureParams('tcp-reverse-csv', { direction: 'peer->target' })))).toEqual({
      'iperf.bandwidth peer->target receiver': 26264400210,
      'iperf.bytes peer->target receiver': 3282436096
    })
  })

  it('-P 2: iperf 2.1 writes no sum line, so the total is the two streams added up', () => {
    expect(table(parse(fixtureOutput('tcp-parallel2-csv'), fixtureParams('tcp-parallel2-csv', { direction: 'target->peer', parallel: 2 })))).toEqual({
      'iperf.bandwidth target->peer sender': 24927212108 + 23683092806,
      'iperf.bytes target->peer sender': 3118989372 + 3011379260,
      'iperf.bandwidth target->peer sender 1': 24927212108,
      'iperf.bytes target->peer sender 1': 3118989372,
      'iperf.bandwidth target->peer sender 2': 23683092806,
      'iperf.bytes target->peer sender 2': 3011379260
    })
  })

  it('with the listen port equal to the server port: 2.1 (sender first) and 2.0 (local first) lines, told apart by address', () => {
    const params = iperfParamsSchema.parse({})
    const v21 = '20261120232245,10.0.0.2,48092,10.0.0.1,5001,1,0.0-10.0,1181116006,941000000\n20261120232255,10.0.0.1,45270,10.0.0.2,5001,2,0.0-10.0,1170378588,932000000\n'
    const v20 = '20110209120000,10.0.0.2,48092,10.0.0.1,5001,5,0.0-10.0,1181116006,941000000\n20110209120010,10.0.0.2,5001,10.0.0.1,45270,4,0.0-10.0,1170378588,932000000\n'
    const expected = {
      'iperf.bandwidth target->peer sender': 941000000,
      'iperf.bytes target->peer sender': 1181116006,
      'iperf.bandwidth peer->target receiver': 932000000,
      'iperf.bytes peer->target receiver': 1170378588
    }
    expect(table(parse(text(v21), params))).toEqual(expected)
    expect(table(parse(text(v20), params))).toEqual(expected)
    // The same address at both ends (one machine) and the same port: no way to tell.
    const loop = v21.replace(/10\.0\.0\.[12]/g, '127.0.0.1')
    expect(reasonOf(parse(text(loop), params))).toMatch(/^the -y C lines of the two directions cannot be told apart/)
  })

  it('reads iperf 2.0 UDP: the sender in the TCP layout, the Server Report (same ID) with the datagram fields', () => {
    const out = text(
      '20110209120000,10.0.0.2,43042,10.0.0.1,5001,4,0.0-10.0,1312710,1050000\n20110209120000,10.0.0.2,43042,10.0.0.1,5001,4,0.0-10.0,1312710,1049971,0.002,0,893,0.000,0\n'
    )
    expect(table(parse(out, iperfParamsSchema.parse({ protocol: 'udp', direction: 'target->peer' })))).toEqual({
      'iperf.bandwidth target->peer sender': 1050000,
      'iperf.bytes target->peer sender': 1312710,
      'iperf.bandwidth target->peer receiver': 1049971,
      'iperf.bytes target->peer receiver': 1312710,
      'iperf.jitter target->peer receiver': 0.000002,
      'iperf.loss target->peer receiver': 0,
      'iperf.packets.lost target->peer receiver': 0,
      'iperf.packets.total target->peer receiver': 893,
      'iperf.packets.out_of_order target->peer receiver': 0
    })
  })

  it('leaves out a last line without a line end (it may be cut short), and says so', () => {
    const full = fixtureOutput('tcp-tradeoff-csv').stdout
    const cut = full.slice(0, full.length - 5)
    const r = parse(text(cut), fixtureParams('tcp-tradeoff-csv'))
    expect(Object.keys(table(r))).toEqual(['iperf.bandwidth target->peer sender', 'iperf.bytes target->peer sender'])
    expect(warningsOf(r)[0]).toMatch(/^the last -y C line has no line end, so it may be cut short; it was left out/)
  })

  it('refuses a -y C line it cannot trust, quoting it', () => {
    expect(reasonOf(parse(text('19700101000000,127.0.0.1,1,127.0.0.1,5001,1,0.0-1.0,12\n')))).toBe('a -y C line has 8 fields; iperf 2 writes 9 (TCP, or a UDP sender) or 14 (a UDP receiver)')
    expect(reasonOf(parse(text('19700101000000,127.0.0.1,1,127.0.0.1,5001,1,0.0-1.0,12,-5\n')))).toBe('the bits/s field of a -y C line must be a whole number from 0 to 9007199254740991, not "-5"')
    expect(reasonOf(parse(text('19700101000000,127.0.0.1,1,127.0.0.1,5001,1,soon,12,5\n')))).toBe('the interval field of a -y C line must look like 0.0-10.0, not "soon"')
    expect(reasonOf(parse(text('19700101000000,127.0.0.1,40000,127.0.0.1,40001,1,0.0-1.0,12,5\n')))).toMatch(
      /^a -y C line connects ports 40000 and 40001, neither of which is the server port 5001/
    )
  })
})

describe('iperf parse: failures', () => {
  it('a refused connection (iperf exits 0): the reason quotes iperf', () => {
    expect(reasonOf(parse(fixtureOutput('refused-text')))).toBe('iperf printed no result; it said: tcp connect failed: Connection refused')
    expect(reasonOf(parse(fixtureOutput('refused-csv')))).toBe('iperf failed: tcp connect failed: Connection refused')
  })

  it('UDP with nobody answering: no numbers, even though the client printed its sending rate', () => {
    expect(reasonOf(parse(fixtureOutput('udp-no-server')))).toBe(
      'the iperf server did not answer the UDP test ("[  3] WARNING: did not receive ack of last datagram after 10 tries."): is iperf -s -u running there, and does its firewall let UDP in?'
    )
  })

  it("refuses the server's output, iperf3's, and other text", () => {
    expect(reasonOf(parse(fixtureOutput('server-side-tcp-tradeoff')))).toBe(
      "this is an iperf 2 server's output (a test ran before it connected back with -r); VirtBench reads the client's"
    )
    expect(reasonOf(parse(text('-----\nServer listening on TCP port 5001\nTCP window size: 85.3 KByte (default)\n')))).toBe(
      "this is an iperf 2 server's output; VirtBench reads the client's (iperf -c …)"
    )
    expect(reasonOf(parse(text('Connecting to host 10.0.0.1, port 5201\n[  5] local 10.0.0.2 port 1 connected to 10.0.0.1 port 5201\n')))).toBe(
      'this is iperf3 output; the iperf tool reads iperf 2 (use the iperf3 tool for it)'
    )
    expect(reasonOf(parse({ stdout: '', stderr: '', exitCode: 0 }))).toBe('iperf printed nothing on its standard output')
  })

  it('does not trust a run that ended badly', () => {
    const out = fixtureOutput('tcp-tradeoff')
    expect(reasonOf(parse({ ...out, exitCode: 1 }))).toBe('iperf exited with code 1')
    expect(reasonOf(parse({ ...out, exitCode: null, signal: 'SIGKILL' }))).toBe('iperf was stopped by SIGKILL before it finished')
  })

  it('refuses a UDP report cut in the middle of its datagram counts', () => {
    const cut = fixtureOutput('study000-udp-itb4-to-kvm2').stdout.replace('0.009 ms 0/ 893 (0%)', '0.009 ms 0/ 89')
    expect(reasonOf(parse(text(cut)))).toBe('a UDP report line ends in something VirtBench cannot read (cut short?): "0.009 ms 0/ 89"')
  })

  it('gives no jitter or loss when no datagram was counted (nan%)', () => {
    const none = fixtureOutput('study000-udp-itb4-to-kvm2').stdout.replace('0.009 ms 0/ 893 (0%)', '0.000 ms 0/ 0 (nan%)')
    const t = table(parse(text(none)))
    expect(t['iperf.packets.total peer->target receiver']).toBe(0)
    expect(t['iperf.jitter peer->target receiver']).toBeUndefined()
    expect(t['iperf.loss peer->target receiver']).toBeUndefined()
  })

  it('warns when the way back of -r is missing (the server could not connect back)', () => {
    const oneWay = fixtureOutput('study000-tcp-itb4-to-kvm2').stdout.split('\n').slice(0, 11).join('\n') + '\n'
    const r = parse(text(oneWay), iperfParamsSchema.parse({}))
    expect(Object.keys(table(r))).toEqual(['iperf.bandwidth target->peer sender', 'iperf.bytes target->peer sender'])
    expect(warningsOf(r)).toEqual(['the way back (peer->target) has no report: the server could not connect back to the listen port on the target (a firewall, or NAT?)'])
  })

  it('gives every sample the unit and direction of its metric definition', () => {
    const defs = new Map(iperfMetrics.map((m) => [m.name, m]))
    for (const name of ['study000-tcp-itb4-to-kvm2', 'study000-udp-itb4-to-kvm2', 'tcp-tradeoff', 'udp-tradeoff', 'udp-parallel2', 'tcp-tradeoff-enhanced', 'udp-tradeoff-enhanced']) {
      for (const s of samplesOf(parse(fixtureOutput(name)))) {
        const def = defs.get(s.metric)
        expect(def, s.metric).toBeDefined()
        expect([s.unit, s.better]).toEqual([def!.unit, def!.better])
        expect(Object.keys(s.labels).every((l) => def!.labels!.includes(l))).toBe(true)
      }
    }
  })
})
