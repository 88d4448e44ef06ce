import { describe, expect, it } from 'vitest'
import { iperf3Metrics } from '../../../../../src/main/tools/iperf3/metrics'
import { iperf3ParamsSchema } from '../../../../../src/main/tools/iperf3/params'
import { parse } from '../../../../../src/main/tools/iperf3/parse'
import type { StepOutput } from '../../../../../src/main/tools/types'
import { fixtureJson, fixtureOutput, reasonOf, samplesOf, valueOf, warningsOf } from './fixtures'

const UP = { direction: 'target->peer' }
const DOWN = { direction: 'peer->target' }
const serverOnTarget = iperf3ParamsSchema.parse({ serverOn: 'target', targetAddress: '10.1.5.102' })

function withStdout(stdout: string): StepOutput {
  return { stdout, stderr: '', exitCode: 0 }
}

describe('iperf3 parse: TCP', () => {
  it('reads a one-stream test exactly as iperf3 -J wrote it (tcp fixture)', () => {
    expect(samplesOf(parse(fixtureOutput('tcp')))).toEqual([
      { metric: 'iperf3.sent.bandwidth', value: 32641779178.64986, unit: 'bit/s', better: 'higher', labels: UP },
      { metric: 'iperf3.sent.bytes', value: 4080271360, unit: 'B', better: 'higher', labels: UP },
      { metric: 'iperf3.retransmits', value: 24, unit: 'count', better: 'lower', labels: UP },
      { metric: 'iperf3.received.bandwidth', value: 32639461804.67021, unit: 'bit/s', better: 'higher', labels: UP },
      { metric: 'iperf3.received.bytes', value: 4080271360, unit: 'B', better: 'higher', labels: UP },
      { metric: 'iperf3.cpu', value: 97.76540164320163, unit: '%', better: 'lower', labels: { machine: 'target' } },
      { metric: 'iperf3.cpu', value: 42.91750867169353, unit: '%', better: 'lower', labels: { machine: 'peer' } }
    ])
    expect(warningsOf(parse(fixtureOutput('tcp')))).toEqual([])
  })

  it('gives -P 2 totals from sum_sent/sum_received and each stream with labels.stream', () => {
    const r = parse(fixtureOutput('tcp-parallel2'))
    expect(valueOf(r, 'iperf3.sent.bandwidth', UP)).toBe(32625681994.513012)
    expect(valueOf(r, 'iperf3.received.bandwidth', UP)).toBe(32612639338.626244)
    expect(valueOf(r, 'iperf3.retransmits', UP)).toBe(11)
    expect(valueOf(r, 'iperf3.sent.bandwidth', { ...UP, stream: '1' })).toBe(16291873335.306305)
    expect(valueOf(r, 'iperf3.sent.bandwidth', { ...UP, stream: '2' })).toBe(16333808659.206707)
    expect(valueOf(r, 'iperf3.received.bandwidth', { ...UP, stream: '2' })).toBe(16327278949.09373)
    const json = fixtureJson('tcp-parallel2')
    expect(valueOf(r, 'iperf3.retransmits', { ...UP, stream: '1' })).toBe(json.end.streams[0].sender.retransmits)
    expect(valueOf(r, 'iperf3.sent.bandwidth', { ...UP, stream: '3' })).toBeUndefined()
    expect(samplesOf(r).filter((s) => s.labels.direction === 'peer->target')).toEqual([])
  })

  it('names the direction of -R from the target: the peer (server) sent, the target received', () => {
    const r = parse(fixtureOutput('tcp-reverse'))
    expect(valueOf(r, 'iperf3.sent.bandwidth', DOWN)).toBe(34148679764.592857)
    expect(valueOf(r, 'iperf3.received.bandwidth', DOWN)).toBe(34178601083.781578)
    expect(valueOf(r, 'iperf3.retransmits', DOWN)).toBe(10)
    expect(valueOf(r, 'iperf3.received.bytes', DOWN)).toBe(4272397765)
    expect(samplesOf(r).filter((s) => s.labels.direction === 'target->peer')).toEqual([])
  })

  it('with the server on the target, -R means the target sent, and the client CPU is the peer', () => {
    const r = parse(fixtureOutput('tcp-reverse'), serverOnTarget)
    expect(valueOf(r, 'iperf3.sent.bandwidth', UP)).toBe(34148679764.592857)
    expect(valueOf(r, 'iperf3.cpu', { machine: 'peer' })).toBe(50.93197533637884)
    expect(valueOf(r, 'iperf3.cpu', { machine: 'target' })).toBe(81.81585764590037)
    expect(valueOf(parse(fixtureOutput('tcp'), serverOnTarget), 'iperf3.sent.bandwidth', DOWN)).toBe(32641779178.64986)
  })

  it('tells the two directions of --bidir apart (sum_*_bidir_reverse is the server sending)', () => {
    const r = parse(fixtureOutput('tcp-bidir'))
    expect(valueOf(r, 'iperf3.sent.bandwidth', UP)).toBe(3711884802.303954)
    expect(valueOf(r, 'iperf3.received.bandwidth', UP)).toBe(3616606619.7665787)
    expect(valueOf(r, 'iperf3.retransmits', UP)).toBe(8)
    expect(valueOf(r, 'iperf3.sent.bandwidth', DOWN)).toBe(32714916901.66197)
    expect(valueOf(r, 'iperf3.received.bandwidth', DOWN)).toBe(32681467814.88953)
    expect(valueOf(r, 'iperf3.retransmits', DOWN)).toBe(66)
    expect(valueOf(r, 'iperf3.sent.bytes', DOWN)).toBe(4089446400)
    // One stream each way: no per-stream samples.
    expect(samplesOf(r).some((s) => 'stream' in s.labels)).toBe(false)
  })

  it('puts the streams of --bidir -P 2 under their own direction, by the sender flag of each stream', () => {
    const r = parse(fixtureOutput('tcp-bidir-parallel2'))
    const json = fixtureJson('tcp-bidir-parallel2')
    const [a, b, c, d] = json.end.streams
    expect([a.sender.sender, b.sender.sender, c.sender.sender, d.sender.sender]).toEqual([true, true, false, false])
    expect(valueOf(r, 'iperf3.sent.bandwidth', UP)).toBe(json.end.sum_sent.bits_per_second)
    expect(valueOf(r, 'iperf3.sent.bandwidth', DOWN)).toBe(json.end.sum_sent_bidir_reverse.bits_per_second)
    expect(valueOf(r, 'iperf3.sent.bandwidth', { ...UP, stream: '1' })).toBe(a.sender.bits_per_second)
    expect(valueOf(r, 'iperf3.sent.bandwidth', { ...UP, stream: '2' })).toBe(b.sender.bits_per_second)
    expect(valueOf(r, 'iperf3.received.bandwidth', { ...DOWN, stream: '1' })).toBe(c.receiver.bits_per_second)
    expect(valueOf(r, 'iperf3.received.bandwidth', { ...DOWN, stream: '2' })).toBe(d.receiver.bits_per_second)
    expect(valueOf(r, 'iperf3.retransmits', { ...DOWN, stream: '2' })).toBe(d.sender.retransmits)
  })

  it('leaves retransmits out when the sender does not report them (Windows, macOS), never 0', () => {
    const json = fixtureJson('tcp')
    delete json.end.sum_sent.retransmits
    const r = parse(withStdout(JSON.stringify(json)))
    expect(valueOf(r, 'iperf3.retransmits', UP)).toBeUndefined()
    expect(valueOf(r, 'iperf3.sent.bandwidth', UP)).toBe(json.end.sum_sent.bits_per_second)
    json.end.sum_sent.retransmits = -1
    expect(valueOf(parse(withStdout(JSON.stringify(json))), 'iperf3.retransmits', UP)).toBeUndefined()
  })
})

describe('iperf3 parse: UDP', () => {
  it('reads bandwidth (end.sum), jitter in seconds, loss, datagrams and what arrived', () => {
    const r = parse(fixtureOutput('udp-10m'))
    expect(samplesOf(r).filter((s) => s.metric !== 'iperf3.cpu')).toEqual([
      { metric: 'iperf3.bandwidth', value: 10222808.398136549, unit: 'bit/s', better: 'higher', labels: UP },
      { metric: 'iperf3.jitter', value: 0.009815288025284927 / 1000, unit: 's', better: 'lower', labels: UP },
      { metric: 'iperf3.loss', value: 0, unit: '%', better: 'lower', labels: UP },
      { metric: 'iperf3.packets.lost', value: 0, unit: 'count', better: 'lower', labels: UP },
      { metric: 'iperf3.packets.total', value: 39, unit: 'count', better: 'higher', labels: UP },
      { metric: 'iperf3.received.bandwidth', value: 10220815.496553943, unit: 'bit/s', better: 'higher', labels: UP }
    ])
  })

  it('names -u -R peer->target', () => {
    const r = parse(fixtureOutput('udp-10m-reverse'))
    expect(valueOf(r, 'iperf3.bandwidth', DOWN)).toBe(10222246.219006652)
    expect(valueOf(r, 'iperf3.jitter', DOWN)).toBe(0.3056909394337222 / 1000)
    expect(valueOf(r, 'iperf3.bandwidth', UP)).toBeUndefined()
  })

  it('reads both halves of -u --bidir (sum and sum_bidir_reverse)', () => {
    const r = parse(fixtureOutput('udp-10m-bidir'))
    expect(valueOf(r, 'iperf3.jitter', UP)).toBe(0.004478907100183988 / 1000)
    expect(valueOf(r, 'iperf3.jitter', DOWN)).toBe(0.11796792673525339 / 1000)
    expect(valueOf(r, 'iperf3.packets.total', DOWN)).toBe(39)
    expect(valueOf(r, 'iperf3.received.bandwidth', DOWN)).toBe(10220365.923636284)
  })

  it('gives each UDP stream of -P 2 its own samples', () => {
    const r = parse(fixtureOutput('udp-10m-parallel2'))
    const json = fixtureJson('udp-10m-parallel2')
    expect(valueOf(r, 'iperf3.bandwidth', UP)).toBe(20445310.14084676)
    expect(valueOf(r, 'iperf3.packets.total', UP)).toBe(78)
    for (const [i, stream] of json.end.streams.entries()) {
      const labels = { ...UP, stream: String(i + 1) }
      expect(valueOf(r, 'iperf3.bandwidth', labels)).toBe(stream.udp.bits_per_second)
      expect(valueOf(r, 'iperf3.jitter', labels)).toBe(stream.udp.jitter_ms / 1000)
      expect(valueOf(r, 'iperf3.packets.total', labels)).toBe(stream.udp.packets)
    }
  })

  it('reports no jitter and no loss when no datagram was counted, and says so', () => {
    const json = fixtureJson('udp-10m')
    Object.assign(json.end.sum, { packets: 0, lost_packets: 0, lost_percent: 0, jitter_ms: 0 })
    const r = parse(withStdout(JSON.stringify(json)))
    expect(valueOf(r, 'iperf3.jitter', UP)).toBeUndefined()
    expect(valueOf(r, 'iperf3.loss', UP)).toBeUndefined()
    expect(valueOf(r, 'iperf3.bandwidth', UP)).toBe(json.end.sum.bits_per_second)
    expect(warningsOf(r)).toEqual(['end.sum counts no datagram (target->peer): jitter and loss were not measured'])
  })
})

describe('iperf3 parse: failures and surroundings', () => {
  it('turns the JSON error of a refused connection into a failure with iperf3\'s words', () => {
    const r = parse(fixtureOutput('refused'))
    expect(fixtureOutput('refused').exitCode).toBe(0) // iperf3 3.12 -J exits 0 even then
    expect(reasonOf(r)).toBe('iperf3 reported an error: unable to connect to server: Connection refused')
    expect(r.ok || r.error.excerpt).toContain('"error"')
  })

  it('fails on an error even when a partial result is there (the server was killed mid-test)', () => {
    const json = fixtureJson('server-killed')
    expect(json.end.sum_sent.bits_per_second).toBeGreaterThan(0)
    expect(reasonOf(parse(fixtureOutput('server-killed')))).toBe('iperf3 reported an error: the server has terminated')
  })

  it('reads the JSON with notes before and after it', () => {
    const out = fixtureOutput('tcp-bidir')
    const noisy = { ...out, stdout: `warning: this system does not seem to support IPv6 - trying IPv4\n${out.stdout}\niperf3: interrupt - the server has terminated {1}\n` }
    expect(parse(noisy)).toEqual(parse(out))
  })

  it('explains output without JSON: text mode, an error line, nothing at all', () => {
    expect(reasonOf(parse(withStdout('Connecting to host 10.127.100.3, port 5201\n[  5] local 10.0.0.2 port 40000 connected to 10.127.100.3 port 5201\n')))).toBe(
      'this is iperf3 text output; VirtBench reads the JSON of iperf3 -J'
    )
    expect(reasonOf(parse({ stdout: '', stderr: 'iperf3: error - unable to connect to server: No route to host\n', exitCode: 1 }))).toBe(
      'iperf3 reported an error: unable to connect to server: No route to host'
    )
    expect(reasonOf(parse({ stdout: '', stderr: 'sh: 1: iperf3: not found\n', exitCode: 127 }))).toBe('iperf3 printed nothing on its standard output')
  })

  it('does not trust a complete JSON from a run that ended badly', () => {
    const out = fixtureOutput('tcp')
    expect(reasonOf(parse({ ...out, exitCode: 1, stderr: 'oops' }))).toBe('iperf3 exited with code 1')
    expect(reasonOf(parse({ ...out, exitCode: null, signal: 'SIGTERM' }))).toBe('iperf3 was stopped by SIGTERM before it finished')
  })

  it('names the field when a figure is not a number, or out of its range', () => {
    const json = fixtureJson('tcp')
    json.end.sum_received.bits_per_second = 'fast'
    expect(reasonOf(parse(withStdout(JSON.stringify(json))))).toBe('end.sum_received.bits_per_second must be a number from 0 to 9007199254740991, not "fast"')
    const udp = fixtureJson('udp-10m')
    udp.end.sum.lost_percent = 140
    expect(reasonOf(parse(withStdout(JSON.stringify(udp))))).toBe('end.sum.lost_percent must be a number from 0 to 100, not 140')
    const cut = fixtureJson('tcp')
    delete cut.end.sum_sent
    expect(reasonOf(parse(withStdout(JSON.stringify(cut))))).toBe("iperf3's JSON has no end.sum_sent: the TCP test did not finish, or the output is cut short")
  })

  it('needs the direction from the JSON, or from the parameters when an old iperf3 left it out', () => {
    const json = fixtureJson('tcp-reverse')
    delete json.start.test_start.reverse
    const stdout = JSON.stringify(json)
    expect(reasonOf(parse(withStdout(stdout)))).toBe('start.test_start.reverse is missing, so the direction of the data cannot be told')
    const r = parse(withStdout(stdout), iperf3ParamsSchema.parse({ direction: 'peer->target' }))
    expect(valueOf(r, 'iperf3.sent.bandwidth', DOWN)).toBe(json.end.sum_sent.bits_per_second)
  })

  it('follows the output, with a warning, when it is not the protocol the parameters ask for', () => {
    const r = parse(fixtureOutput('udp-10m'), iperf3ParamsSchema.parse({ protocol: 'tcp' }))
    expect(valueOf(r, 'iperf3.jitter', UP)).toBeGreaterThan(0)
    expect(warningsOf(r)).toEqual(['the output is of a UDP test, but the parameters ask for TCP: the samples follow the output'])
  })

  it('gives every sample the unit and direction of its metric definition', () => {
    const defs = new Map(iperf3Metrics.map((m) => [m.name, m]))
    for (const name of ['tcp', 'tcp-parallel2', 'tcp-reverse', 'tcp-bidir', 'tcp-bidir-parallel2', 'udp-10m', 'udp-10m-reverse', 'udp-10m-bidir', 'udp-10m-parallel2']) {
      for (const s of samplesOf(parse(fixtureOutput(name)))) {
        const def = defs.get(s.metric)
        expect(def, s.metric).toBeDefined()
        expect([s.unit, s.better]).toEqual([def!.unit, def!.better])
        expect(Object.keys(s.labels).every((l) => def!.labels!.includes(l)), `${name} ${s.metric} ${JSON.stringify(s.labels)}`).toBe(true)
      }
    }
  })
})
