import { describe, expect, it } from 'vitest'
import { freePort } from '../../harness/free-port'
import { useLocalCli } from '../../harness/local-cli'

/**
 * A UDP test exists to measure jitter and loss beside the bandwidth: `virtbench run` shows them as
 * primary figures, without --all-metrics. Real iperf3 and iperf 2 on loopback, two "This computer"
 * targets, each the other's peer; iperf3's TCP retransmits and iperf's datagram counts stay out.
 */
describe('virtbench run: a UDP test leads with bandwidth, jitter and loss', () => {
  const local = useLocalCli('vb-cli-udp-')

  it('prints iperf3.jitter and iperf3.loss, iperf.jitter and iperf.loss in the table of primary figures', { timeout: 300_000 }, async () => {
    await local.addTargets(['host', 'guest'])
    const udp = { protocol: 'udp', seconds: 1, bitrate: 1_000_000 }
    const { result } = await local.run({
      name: 'udp primaries',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      tests: [
        { id: 'iperf3-udp', title: 'iperf3 UDP', tool: 'iperf3', params: { ...udp, port: await freePort() } },
        { id: 'iperf-udp', title: 'iperf UDP', tool: 'iperf', params: { ...udp, direction: 'target->peer', port: await freePort() } }
      ],
      repetitions: 2
    })
    const table = result.stdout.slice(result.stdout.search(/^test · metric/m))
    // each figure with its unit on both sides, and the guest's % (ratio) or difference (loss)
    expect(table).toMatch(/^iperf3 UDP · iperf3\.received\.bandwidth.*\d[\d.]* [kMG]?bit\/s .*\d[\d.]* [kMG]?bit\/s/m)
    expect(table).toMatch(/^iperf3 UDP · iperf3\.jitter.*\d[\d.]* [mµn]?s .*\d[\d.]* [mµn]?s/m)
    expect(table).toMatch(/^iperf3 UDP · iperf3\.loss.*\d[\d.]* % .*\d[\d.]* %/m)
    expect(table).toMatch(/^iperf UDP · iperf\.bandwidth/m)
    expect(table).toMatch(/^iperf UDP · iperf\.jitter.*\d[\d.]* [mµn]?s .*\d[\d.]* [mµn]?s/m)
    expect(table).toMatch(/^iperf UDP · iperf\.loss.*\d[\d.]* % .*\d[\d.]* %/m)
    // not primary: the datagram counts and the rate offered
    expect(table).not.toMatch(/iperf3?\.packets\./)
    expect(table).not.toMatch(/^iperf3 UDP · iperf3\.bandwidth/m)
  })
})
