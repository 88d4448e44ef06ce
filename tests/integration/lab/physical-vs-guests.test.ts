/**
 * The physical host (this machine, through the harness's loopback sshd) against two real qemu
 * guests booted from the lab image, one with cache=none and one with cache=writeback, measured
 * through `virtbench run` with the block-dd pack's quick form and a 3 s sysbench CPU test, then
 * printed as a PDF with `virtbench report`.
 *
 * What real guests cost here: each 512-byte O_DIRECT write of the cache=none guest goes through
 * an emulated virtio disk to the same host disk the host writes to, so it must take longer; and
 * under TCG every guest instruction is translated, so both guests find fewer primes per second.
 * (The writeback guest's disk writes stop in the host's page cache: on a host with a slow disk
 * they can beat the host's own O_DIRECT writes, so its disk figures are reported, not bounded.)
 *
 * The network half puts the same guests and two physical hosts (known-truth sshds in network
 * namespaces of their own) on the lab network (lab/guest-network.ts): each has a private address
 * on one bridge and an EIP that a gateway translates, and the writeback guest's EIP is held to
 * 30 Mbit/s each way by tc. ping and iperf 2 cross it by hand; iperf3 and ping through
 * `virtbench run`, physical to physical as the baseline, the guest over its private address and
 * over its EIP, and the capped guest over its EIP, which VirtBench's bandwidth-cap check must name.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostKeyFingerprint, type Guest } from '../../../lab/driver'
import { compare } from '../../../src/shared/compare'
import { VERDICT_WORDS } from '../../../src/shared/compare/summary'
import { formatPct } from '../../../src/shared/format'
import type { ComparisonRow, VariantCell } from '../../../src/shared/model/comparison'
import type { TargetEnvironment } from '../../../src/shared/model/environment'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { CLI } from '../../harness/paths'
import type { SshdServer } from '../../harness/sshd'
import { BOOT_TIMEOUT_MS, BUILD_TIMEOUT_MS, openLab, saveTargets, virtbenchRun, writePreset, type LabContext, type NetworkHost } from './lab-fixture'

/** The EIP cap of the writeback guest: study 001's EIPs were limited to 30 Mbit/s by default. */
const EIP_CAP_BITS = 30e6

describe('physical host vs two real guests (cache none, cache writeback)', () => {
  let lab: LabContext
  let host: SshdServer
  let none: Guest
  let writeback: Guest
  let p1: NetworkHost
  let p2: NetworkHost

  beforeAll(async () => {
    lab = await openLab('phys')
    ;[host, [none, writeback], p1, p2] = await Promise.all([
      lab.physicalHost(),
      lab.boot([
        { name: 'cache-none', cache: 'none', onNetwork: true },
        { name: 'cache-wb', cache: 'writeback', onNetwork: true }
      ]),
      lab.networkHost('p1'),
      lab.networkHost('p2')
    ])
    await (await lab.network()).capEip('cache-wb', EIP_CAP_BITS)
  }, BUILD_TIMEOUT_MS + BOOT_TIMEOUT_MS)

  afterAll(async () => {
    await lab?.stop()
  }, 60_000)

  it('measures all three; both guests show real overhead, in the CLI table and in the PDF report', async () => {
    saveTargets(lab, [
      { name: 'phys', port: host.port, role: 'host' },
      { name: 'none', port: none.sshPort, role: 'guest' },
      { name: 'writeback', port: writeback.sshPort, role: 'guest' }
    ])
    const preset = writePreset(lab, 'lab guests', {
      baseline: { target: 'phys' },
      variants: [
        { target: 'none', scenario: { cache: 'none' } },
        { target: 'writeback', scenario: { cache: 'writeback' } }
      ],
      tests: [
        { pack: 'block-dd', form: 'quick' },
        { id: 'cpu', tool: 'sysbench', title: 'CPU: sysbench primes', params: { test: 'cpu', timeSeconds: 3 } }
      ],
      repetitions: 2
    })
    const out = path.join(lab.dir, 'run')
    const result = await virtbenchRun([preset, '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys'])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain('Run completed: 18 of 18 jobs succeeded.')
    // the host key VirtBench accepted for each guest is the image's own (the lab prints it too)
    const fingerprint = hostKeyFingerprint(lab.image)
    for (const g of [none, writeback]) {
      expect(result.stderr).toContain(`(127.0.0.1:${g.sshPort}) is not known yet:\n  ${fingerprint}\n`)
    }

    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    const environment = run.environment as Record<string, TargetEnvironment | undefined>
    // samples for all three
    for (const target of ['phys', 'none', 'writeback']) {
      const jobs = run.jobs.filter((j) => j.target === target)
      expect(jobs).toHaveLength(6)
      for (const job of jobs) expect(job.samples.length, `${job.testId} on ${target}`).toBeGreaterThan(0)
    }
    // the guests are real qemu guests, and the host is not one of them
    const accelName = none.accel === 'kvm' ? 'kvm' : 'qemu'
    expect(environment.none?.virtualization).toBe(accelName)
    expect(environment.writeback?.virtualization).toBe(accelName)
    expect(environment.none?.hostname).toBe('vb-guest')
    expect(environment.phys?.hostname).not.toBe('vb-guest')

    const comparison = compare(comparisonInputOf(run))
    const cellsOf = (row: ComparisonRow | undefined): Record<string, VariantCell> => {
      expect(row?.baseline?.n).toBe(2)
      const cells = Object.fromEntries((row?.cells ?? []).map((c) => [c.variant, c]))
      expect(Object.keys(cells).sort()).toEqual(['none', 'writeback'])
      for (const cell of Object.values(cells)) expect(cell.stats?.n, cell.variant).toBe(2)
      return cells
    }
    // disk: the cache=none guest's 512 B O_DIRECT writes take longer than the host's
    const latency = comparison.rows.find((r) => r.testId === 'dd-latency' && r.metric === 'dd.lat.mean' && Object.keys(r.labels).length === 0)
    const lat = cellsOf(latency)
    expect(lat.none!.stats!.value, 'cache=none guest mean latency vs phys').toBeGreaterThan(latency!.baseline!.value)
    expect(lat.none!.relativePct).toBeLessThan(100)
    expect(lat.none!.overheadPct).toBeGreaterThan(0)
    // CPU: translated instructions cost both guests most of the host's speed; with KVM they run
    // at about the host's
    const cpu = comparison.rows.find((r) => r.testId === 'cpu' && r.metric === 'sysbench.cpu.events')
    const primes = cellsOf(cpu)
    for (const cell of Object.values(primes)) {
      if (none.accel === 'tcg') expect(cell.relativePct, `${cell.variant} CPU under TCG`).toBeLessThan(50)
      else expect(cell.relativePct, `${cell.variant} CPU under KVM`).toBeGreaterThan(50)
      expect(cell.overheadPct, cell.variant).toBeGreaterThan(0)
      // translated code runs several times slower: even two repetitions a side, on a loaded
      // machine, leave no doubt
      if (none.accel === 'tcg') expect(cell.verdict, `${cell.variant} CPU verdict under TCG`).toBe('slower')
    }

    // the CLI's table shows both guests' percentages
    for (const [title, row] of [
      ['Latency: 200 x 512 B O_DIRECT writes · dd.lat.mean', latency!],
      ['CPU: sysbench primes · sysbench.cpu.events', cpu!]
    ] as const) {
      const line = result.stdout.split('\n').find((l) => l.startsWith(title))
      expect(line, result.stdout).toBeDefined()
      const shown = [...line!.matchAll(/(\d+) %/g)].map((m) => Number(m[1]))
      expect(shown.slice(0, 2), title).toEqual(row.cells.map((c) => Math.round(c.relativePct!)))
    }

    // and the PDF report made from the run shows them too
    const pdf = path.join(lab.dir, 'lab-guests.pdf')
    const report = spawnSync(process.execPath, [CLI, 'report', out, '--pdf', pdf], { encoding: 'utf8', timeout: 120_000 })
    expect(report.status, report.stdout + report.stderr).toBe(0)
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' })
    expect(text).toMatch(/Variants \(2\)\s+none · cache=none\n\s+writeback · cache=writeback\n/)
    expect(text).toContain('CPU: sysbench primes')
    // each cell as its verdict says, on its own row: the slower arrow only on a slower verdict; the
    // disk's two repetitions a side on a loaded CI machine may leave the latency "can't tell"
    // (pdftotext may drop the space of a short "9 %" in a right-aligned cell: the space is optional here)
    for (const cell of [...Object.values(primes), lat.none!]) {
      const [number] = formatPct(cell.relativePct!).split(' ')
      const label = `${cell.variant}: ${formatPct(cell.relativePct!)} (${cell.verdict})`
      if (cell.verdict === 'slower') expect(text, label).toMatch(new RegExp(`${cell.variant} +▼ ?${number} ?%.*slower`))
      else expect(text, label).toMatch(new RegExp(`${cell.variant} +${number} ?%.*${VERDICT_WORDS[cell.verdict!]}`))
    }
    // each guest's environment as detected: virtualization qemu (or kvm)
    expect(text.match(new RegExp(`^\\s*Virtualization\\s+${accelName}\\b`, 'gm')), text).toHaveLength(2)
  }, 600_000)

  it('network: ping and iperf 2 cross the lab network; the private path, the EIP path and a 30 Mbit/s EIP through virtbench run, whose cap check names the cap', async () => {
    const net = await lab.network()
    const a = net.member('cache-none')
    const b = net.member('cache-wb')
    // guest to guest, guest to host, over private addresses and EIPs; host to guest too
    const pings = [b.privateAddress, b.publicAddress, p1.member.privateAddress, p1.member.publicAddress]
    const fromGuest = await none.exec(`for a in ${pings.join(' ')}; do ping -q -n -c 2 -i 0.2 -W 5 "$a" >/dev/null || { echo "no reply from $a"; exit 1; }; done`, 60_000)
    expect(fromGuest.code, fromGuest.stdout + fromGuest.stderr).toBe(0)
    const hostNs = (h: NetworkHost): string => h.sshd.link!.namespace
    for (const address of [a.privateAddress, a.publicAddress]) {
      const fromHost = spawnSync('ip', ['netns', 'exec', hostNs(p1), 'ping', '-q', '-n', '-c', '2', '-i', '0.2', '-W', '5', address], { encoding: 'utf8', timeout: 30_000 })
      expect(fromHost.status, `p1 -> ${address}: ${fromHost.stdout}${fromHost.stderr}`).toBe(0)
    }
    // iperf 2, guest to a physical host's EIP: its server runs in p2's namespace (stopped by its PID)
    const iperf2 = spawn('ip', ['netns', 'exec', hostNs(p2), 'iperf', '-s', '-p', '5301'], { stdio: 'ignore' })
    try {
      let client = { code: null as number | null, stdout: '', stderr: '' }
      for (let attempt = 0; attempt < 10 && client.code !== 0; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500))
        client = await none.exec(`iperf -c ${p2.member.publicAddress} -p 5301 -t 1 -y C`, 60_000)
      }
      expect(client.code, client.stdout + client.stderr).toBe(0)
      // timestamp,local address,local port,remote address,remote port,id,interval,bytes,bit/s
      const fields = client.stdout.trim().split('\n').at(-1)!.split(',')
      expect(fields[1]).toBe(a.privateAddress)
      expect(fields[3]).toBe(p2.member.publicAddress)
      expect(Number(fields[8])).toBeGreaterThan(0)
    } finally {
      iperf2.kill('SIGKILL')
    }

    // through virtbench run: physical to physical is the baseline; the first host over its EIP,
    // the guest over its private address, and the capped guest over its EIP, all to the second
    // host (one target per machine and path: two targets on one TCG guest would double its
    // checks, which then take minutes)
    const addresses = (m: { privateAddress: string; publicAddress: string }): { private: string; public: string } => ({ private: m.privateAddress, public: m.publicAddress })
    saveTargets(lab, [
      { name: 'p1', role: 'host', address: p1.sshd.host, port: p1.sshd.port, addresses: addresses(p1.member) },
      { name: 'p2', role: 'host', address: p2.sshd.host, port: p2.sshd.port, addresses: addresses(p2.member) },
      { name: 'p1-eip', role: 'host', address: p1.sshd.host, port: p1.sshd.port, addresses: addresses(p1.member) },
      { name: 'vm', port: none.sshPort, role: 'guest', addresses: addresses(a) },
      { name: 'capped-eip', port: writeback.sshPort, role: 'guest', addresses: addresses(b) }
    ])
    const preset = writePreset(lab, 'lab network', {
      baseline: { target: 'p1' },
      variants: [
        { target: 'p1-eip', scenario: { network: 'eip' } },
        { target: 'vm', scenario: { network: 'private' } },
        { target: 'capped-eip', scenario: { network: 'eip' } }
      ],
      network: { peer: 'p2' },
      tests: [
        // -O 1: the first second, while TCP ramps up and the cap's bucket is full, is left out
        { id: 'iperf3', tool: 'iperf3', title: 'Network: iperf3 TCP', params: { seconds: 2, omitSeconds: 1 } },
        { id: 'ping', tool: 'ping', title: 'Network: ping', params: { count: 5, intervalSeconds: 0.2 } }
      ],
      repetitions: 2
    })
    const out = path.join(lab.dir, 'network-run')
    const started = Date.now()
    const result = await virtbenchRun([preset, '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys'])
    console.log(`network run: ${((Date.now() - started) / 1000).toFixed(1)} s\n${result.stdout}`)
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain('Run completed: 16 of 16 jobs succeeded.')

    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    // each side's client dialed the peer's address of its path, and the peer's iperf3 server saw
    // the address of that path: the guest's own over the bridge, its EIP through the gateway
    const expected: Record<string, { dialed: string; seen: string }> = {
      p1: { dialed: p2.member.privateAddress, seen: p1.member.privateAddress },
      vm: { dialed: p2.member.privateAddress, seen: a.privateAddress },
      'p1-eip': { dialed: p2.member.publicAddress, seen: p1.member.publicAddress },
      'capped-eip': { dialed: p2.member.publicAddress, seen: b.publicAddress }
    }
    for (const [target, { dialed, seen }] of Object.entries(expected)) {
      const jobs = run.jobs.filter((j) => j.target === target && j.testId === 'iperf3')
      expect(jobs, target).toHaveLength(2)
      for (const job of jobs) {
        const client = job.steps.find((st) => st.id === 'client')
        const server = job.steps.find((st) => st.id === 'server')
        expect(client?.command, target).toContain(`-c ${dialed} `)
        expect(readFileSync(path.join(out, server!.stdoutFile!), 'utf8'), target).toContain(`Accepted connection from ${seen},`)
      }
    }

    const comparison = compare(comparisonInputOf(run))
    const received = comparison.rows.find((r) => r.testId === 'iperf3' && r.metric === 'iperf3.received.bandwidth')
    const cells = Object.fromEntries((received?.cells ?? []).map((c) => [c.variant, c]))
    const figures = Object.fromEntries(Object.entries(cells).map(([k, c]) => [k, c.stats?.value]))
    console.log('iperf3 received bit/s', { p1: received?.baseline?.value, ...figures })
    // the capped EIP: at most the cap, and named by the check
    const capped = cells['capped-eip']!.stats!.value
    expect(capped).toBeLessThanOrEqual(EIP_CAP_BITS)
    const capFlag = cells['capped-eip']!.flags.find((f) => f.kind === 'bandwidth-cap' && f.message.startsWith('capped-eip measured'))
    expect(capFlag?.message, JSON.stringify(cells['capped-eip']!.flags)).toContain('just below 30 Mbit/s')
    // an EIP without a cap, and the guest's private path, go faster than the cap
    expect(cells['p1-eip']!.stats!.value).toBeGreaterThan(EIP_CAP_BITS)
    expect(cells.vm!.stats!.value).toBeGreaterThan(EIP_CAP_BITS)
    // ping: every side measured round trips on its path
    for (const target of Object.keys(expected)) {
      const jobs = run.jobs.filter((j) => j.target === target && j.testId === 'ping')
      for (const job of jobs) expect(job.samples.some((x) => x.metric === 'ping.rtt.avg'), target).toBe(true)
    }
  }, 600_000)
})
