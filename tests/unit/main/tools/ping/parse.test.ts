import { describe, expect, it } from 'vitest'
import { parse } from '../../../../../src/main/tools/ping/parse'
import { fixtureOutput, reasonOf, samplesOf, valuesOf, warningsOf } from './fixtures'

/** Round-trip times in ms as ping printed them, in seconds. */
function rtt(min: string, avg: string, max: string, mdev?: string) {
  const seconds = (ms: string) => Number(`${ms}e-3`)
  const values: Record<string, number> = { 'ping.rtt.min': seconds(min), 'ping.rtt.avg': seconds(avg), 'ping.rtt.max': seconds(max) }
  if (mdev !== undefined) values['ping.rtt.mdev'] = seconds(mdev)
  return values
}

function counts(transmitted: number, received: number, loss: number) {
  return { 'ping.transmitted': transmitted, 'ping.received': received, 'ping.loss': loss }
}

describe('ping parse: iputils 20221126', () => {
  it('study 000 form (ping -c 10): counts, loss and min/avg/max/mdev in seconds', () => {
    const result = parse(fixtureOutput('iputils-10-loopback-study000'))
    expect(valuesOf(result)).toEqual({ ...counts(10, 10, 0), ...rtt('0.01', '0.023', '0.028', '0.004') })
    expect(warningsOf(result)).toEqual([])
  })

  it('gives units and directions from the metric table', () => {
    expect(samplesOf(parse(fixtureOutput('iputils-3-loopback')))).toEqual([
      { metric: 'ping.transmitted', value: 3, unit: 'count', better: 'higher', labels: {} },
      { metric: 'ping.received', value: 3, unit: 'count', better: 'higher', labels: {} },
      { metric: 'ping.loss', value: 0, unit: '%', better: 'lower', labels: {} },
      { metric: 'ping.rtt.min', value: 0.000016, unit: 's', better: 'lower', labels: {} },
      { metric: 'ping.rtt.avg', value: 0.000021, unit: 's', better: 'lower', labels: {} },
      { metric: 'ping.rtt.max', value: 0.000024, unit: 's', better: 'lower', labels: {} },
      { metric: 'ping.rtt.mdev', value: 0.000003, unit: 's', better: 'lower', labels: {} }
    ])
  })

  it('reads -q, -s 1000 and -w runs', () => {
    expect(valuesOf(parse(fixtureOutput('iputils-size-1000-quiet')))).toEqual({ ...counts(5, 5, 0), ...rtt('0.012', '0.024', '0.031', '0.006') })
    expect(valuesOf(parse(fixtureOutput('iputils-deadline')))).toEqual({ ...counts(4, 4, 0), ...rtt('0.009', '0.022', '0.027', '0.007') })
  })

  it('keeps a fractional loss exactly as printed', () => {
    const result = parse(fixtureOutput('iputils-partial-loss'))
    expect(valuesOf(result)).toEqual({ ...counts(7, 3, 57.1429), ...rtt('0.025', '0.063', '0.135', '0.05') })
    expect(warningsOf(result)).toEqual([])
  })

  it('takes 100 % loss (exit code 1) as a result with a warning and no round-trip times', () => {
    const out = fixtureOutput('iputils-100-loss')
    expect(out.exitCode).toBe(1)
    const result = parse(out)
    expect(valuesOf(result)).toEqual(counts(3, 0, 100))
    expect(warningsOf(result)).toEqual(['no replies from 127.0.0.1: 100 % packet loss, so there are no round-trip times'])
  })

  it('records "+N errors" and warns about them', () => {
    const result = parse(fixtureOutput('iputils-errors'))
    expect(valuesOf(result)).toEqual({ ...counts(8, 0, 100), 'ping.errors': 1 })
    expect(warningsOf(result)).toEqual([
      'no replies from 10.9.9.2: 100 % packet loss, so there are no round-trip times',
      'ping counted 1 ICMP error (such as Destination Host Unreachable) from the way to 10.9.9.2'
    ])
  })

  it('records "+N duplicates" and the extra "pipe"/"ipg/ewma" parts iputils may print', () => {
    const stdout = [
      '--- 10.0.0.2 ping statistics ---',
      '4 packets transmitted, 4 received, +1 duplicates, 0% packet loss, time 3004ms',
      'rtt min/avg/max/mdev = 0.100/0.200/0.300/0.050 ms, pipe 2, ipg/ewma 1001.234/0.210 ms'
    ].join('\n')
    const result = parse({ stdout, stderr: '', exitCode: 0 })
    expect(valuesOf(result)).toEqual({ ...counts(4, 4, 0), 'ping.duplicates': 1, ...rtt('0.1', '0.2', '0.3', '0.05') })
    expect(warningsOf(result)).toEqual([expect.stringContaining('1 duplicate reply')])
  })

  it('fails with what ping said when it sent nothing', () => {
    expect(reasonOf(parse(fixtureOutput('iputils-network-unreachable')))).toMatch(/printed no statistics .* it said: ping: connect: Network is unreachable$/)
    expect(reasonOf(parse(fixtureOutput('iputils-unknown-host')))).toMatch(/it said: ping: no-such-host.invalid: Temporary failure in name resolution$/)
  })
})

describe('ping parse: BusyBox 1.35 and BSD', () => {
  it('reads round-trip min/avg/max (no mdev)', () => {
    const result = parse(fixtureOutput('busybox-3-loopback'))
    expect(valuesOf(result)).toEqual({ ...counts(3, 3, 0), ...rtt('0.032', '0.047', '0.063') })
  })

  it('takes BusyBox 100 % loss as a result', () => {
    expect(valuesOf(parse(fixtureOutput('busybox-100-loss')))).toEqual(counts(3, 0, 100))
  })

  it("records BSD's stddev as mdev and says so", () => {
    const stdout = '--- h ping statistics ---\n3 packets transmitted, 3 packets received, 0.0% packet loss\nround-trip min/avg/max/stddev = 0.041/0.055/0.069/0.011 ms\n'
    const result = parse({ stdout, stderr: '', exitCode: 0 })
    expect(valuesOf(result)).toEqual({ ...counts(3, 3, 0), ...rtt('0.041', '0.055', '0.069', '0.011') })
    expect(warningsOf(result)).toEqual([expect.stringContaining('stddev')])
  })
})

describe('ping parse: FreeBSD 12 and macOS 10.14 ping and ping6 (jc test data)', () => {
  const stdDev = 'ping printed std-dev (BSD or macOS ping); it is recorded as ping.rtt.mdev, which is the same statistic in iputils'

  it("reads FreeBSD ping6's round-trip min/avg/max/std-dev", () => {
    const result = parse(fixtureOutput('jc-freebsd12-ping6-ip'))
    expect(valuesOf(result)).toEqual({ ...counts(3, 3, 0), ...rtt('0.034', '0.044', '0.053', '0.008') })
    expect(warningsOf(result)).toEqual([stdDev])
  })

  it("reads macOS ping6's round-trip min/avg/max/std-dev", () => {
    const result = parse(fixtureOutput('jc-macos-10.14.6-ping6-ip'))
    expect(valuesOf(result)).toEqual({ ...counts(3, 3, 0), ...rtt('0.071', '0.115', '0.153', '0.034') })
    expect(warningsOf(result)).toEqual([stdDev])
  })

  it('reads "+58 duplicates" of a macOS ping6 to a multicast group', () => {
    const result = parse(fixtureOutput('jc-macos-10.14.6-ping6-ip-dup'))
    expect(valuesOf(result)).toEqual({ ...counts(5, 5, 0), 'ping.duplicates': 58, ...rtt('0.302', '180.260', '749.182', '250.393') })
    expect(warningsOf(result)).toEqual([stdDev, 'ping received 58 duplicate replies: is there a network loop or a misbehaving bridge?'])
  })

  it("reads FreeBSD ping's stddev", () => {
    const result = parse(fixtureOutput('jc-freebsd12-ping-ip'))
    expect(valuesOf(result)).toEqual({ ...counts(3, 3, 0), ...rtt('0.022', '0.033', '0.041', '0.008') })
    expect(warningsOf(result)).toEqual([stdDev.replace('std-dev', 'stddev')])
  })

  it('takes 100 % loss of a macOS ping answered by "Destination Host Unreachable" as a result', () => {
    const result = parse(fixtureOutput('jc-macos-10.14.6-ping-ip-unreachable'))
    expect(valuesOf(result)).toEqual(counts(8, 0, 100))
    expect(warningsOf(result)).toEqual(['no replies from 192.168.1.220: 100 % packet loss, so there are no round-trip times'])
  })

  it("names the host of a ping6 summary, and takes BSD's exit code 2 (no reply) as ping's normal answer", () => {
    const { stdout } = fixtureOutput('jc-freebsd12-ping6-ip')
    const lost = stdout.replace('3 packets received, 0.0% packet loss', '0 packets received, 100.0% packet loss').replace(/^round-trip.*\n/m, '')
    expect(lost).not.toMatch(/round-trip/)
    expect(warningsOf(parse({ stdout: lost, stderr: '', exitCode: 2 }))).toEqual(['no replies from ::1: 100 % packet loss, so there are no round-trip times'])
    expect(warningsOf(parse({ stdout: lost, stderr: '', exitCode: 68 }))).toContain('ping exited with code 68 after printing its statistics')
  })
})

describe('ping parse: Windows ping.exe (constructed from its documented format, CRLF)', () => {
  it('reads Sent/Received/Lost and Minimum/Maximum/Average', () => {
    const result = parse(fixtureOutput('constructed-windows-10-slow-link'))
    expect(valuesOf(result)).toEqual({ ...counts(10, 9, 10), 'ping.rtt.min': 0.011, 'ping.rtt.avg': 0.013, 'ping.rtt.max': 0.019 })
    expect(warningsOf(result)).toEqual([])
  })

  it("leaves out Windows' 0 ms (a reply under 1 ms) instead of recording 0 s", () => {
    const result = parse(fixtureOutput('constructed-windows-4-replies'))
    expect(valuesOf(result)).toEqual({ ...counts(4, 4, 0), 'ping.rtt.max': 0.002 })
    expect(warningsOf(result)).toEqual([expect.stringContaining('showed 0 ms for min, avg')])
  })

  it('takes 100 % loss as a result', () => {
    expect(valuesOf(parse(fixtureOutput('constructed-windows-100-loss')))).toEqual(counts(4, 0, 100))
  })

  it('does not count "Destination host unreachable" answers as replies', () => {
    const result = parse(fixtureOutput('constructed-windows-unreachable'))
    expect(valuesOf(result)).toEqual(counts(4, 0, 100))
    expect(warningsOf(result)[0]).toMatch(/counted 4 "Destination host unreachable" answers as received \(Received = 4\); VirtBench counts only the 0 real echo replies/)
  })

  it('fails with what ping.exe said about an unknown host', () => {
    expect(reasonOf(parse(fixtureOutput('constructed-windows-unknown-host')))).toMatch(/it said: Ping request could not find host/)
  })
})

describe('ping parse: damaged output', () => {
  const line = (counts: string, rttLine = '') => ({ stdout: `${counts}\n${rttLine}\n`, stderr: '', exitCode: 0 })

  it('refuses statistics that cannot be', () => {
    const rttLine = 'rtt min/avg/max/mdev = 0.1/0.2/0.3/0.0 ms'
    expect(reasonOf(parse(line('3 packets transmitted, 4 received, 0% packet loss, time 2ms', rttLine)))).toMatch(/4 replies for 3 requests/)
    expect(reasonOf(parse(line('0 packets transmitted, 0 received, 0% packet loss, time 0ms')))).toMatch(/sent no requests/)
    expect(reasonOf(parse(line('3 packets transmitted, 3 received, 0% packet loss, time 2ms', 'rtt min/avg/max/mdev = 0.3/0.2/0.1/0.0 ms')))).toMatch(/not in order/)
    expect(reasonOf(parse(line('3 packets transmitted, 3 received, 1000% packet loss, time 2ms', rttLine)))).toMatch(/outside 0-100/)
    expect(reasonOf(parse(line('3 packets transmitted, 3 received, lots of loss')))).toMatch(/does not know: "lots of loss"/)
    expect(reasonOf(parse(line('3 packets transmitted, 3 received, 0% packet loss, time 2ms')))).toMatch(/round-trip summary .* is missing/)
    expect(reasonOf(parse(line('3 packets transmitted, 3 received, 0% packet loss', rttLine)))).toMatch(/ends before ", time …ms"/)
  })

  it('refuses two runs in one output', () => {
    const one = fixtureOutput('iputils-3-loopback')
    expect(reasonOf(parse({ ...one, stdout: one.stdout + one.stdout }))).toMatch(/found 2 ping statistics blocks/)
  })

  it('warns when the printed loss disagrees with the counts', () => {
    expect(warningsOf(parse(line('4 packets transmitted, 2 received, 10% packet loss, time 3ms', 'rtt min/avg/max/mdev = 0.1/0.2/0.3/0.05 ms')))).toEqual([
      'ping printed 10% loss, but 2 of 4 replies is 50% loss'
    ])
  })
})

describe('ping parse: values below the resolution', () => {
  it('leaves out a round-trip figure printed as 0 rather than recording 0 s', () => {
    const stdout = '3 packets transmitted, 3 received, 0% packet loss, time 2ms\nrtt min/avg/max/mdev = 0.010/0.010/0.010/0.000 ms\n'
    const result = parse({ stdout, stderr: '', exitCode: 0 })
    expect(valuesOf(result)).toEqual({ ...counts(3, 3, 0), 'ping.rtt.min': 0.00001, 'ping.rtt.avg': 0.00001, 'ping.rtt.max': 0.00001 })
    expect(warningsOf(result)).toEqual(['ping printed 0 for mdev (below its resolution of 1 µs); it is not recorded'])
  })
})
