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
 * 30 Mbit/s each way by tc. ping and iperf 2 cross it by hand; then iperf3 through `virtbench run`
 * as study 001 measured: p1 (the baseline) and both guests (the variants) with p2 as the physical
 * peer, every ordered pair over the private path and guest to guest over the EIPs, read back as the
 * study's Source x Destination grid (its diagonal included) and its path table with %, whose cap
 * check must name the capped EIP, and no free path whose figure is not just below a round limit.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostKeyFingerprint, type Guest } from '../../../lab/driver'
import { compare } from '../../../src/shared/compare'
import { GOODPUT_CAP_WINDOW, nearbyCapBits } from '../../../src/shared/compare/bandwidth-cap'
import { VERDICT_WORDS } from '../../../src/shared/compare/summary'
import { formatPct } from '../../../src/shared/format'
import type { ComparisonRow, VariantCell } from '../../../src/shared/model/comparison'
import type { TargetEnvironment } from '../../../src/shared/model/environment'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { networkStudies, studyCellText, type StudyCell } from '../../../src/shared/studies/network-study'
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
        // three a side: with two, the verdict's interval (t at 1 degree of freedom is 12.7) reached
        // past 100 % on a machine loaded by stress-ng as well as the guests, though TCG's CPU is
        // several times slower (t at 2 degrees is 4.3)
        { id: 'cpu', tool: 'sysbench', title: 'CPU: sysbench primes', params: { test: 'cpu', timeSeconds: 3 }, repetitions: 3 }
      ],
      repetitions: 2
    })
    const out = path.join(lab.dir, 'run')
    const result = await virtbenchRun([preset, '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys'])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain('Run completed: 21 of 21 jobs succeeded.')
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
      expect(jobs).toHaveLength(7)
      for (const job of jobs) expect(job.samples.length, `${job.testId} on ${target}`).toBeGreaterThan(0)
    }
    // the guests are real qemu guests, and the host is not one of them
    const accelName = none.accel === 'kvm' ? 'kvm' : 'qemu'
    expect(environment.none?.virtualization).toBe(accelName)
    expect(environment.writeback?.virtualization).toBe(accelName)
    expect(environment.none?.hostname).toBe('vb-guest')
    expect(environment.phys?.hostname).not.toBe('vb-guest')

    const comparison = compare(comparisonInputOf(run))
    const cellsOf = (row: ComparisonRow | undefined, n: number): Record<string, VariantCell> => {
      expect(row?.baseline?.n).toBe(n)
      const cells = Object.fromEntries((row?.cells ?? []).map((c) => [c.variant, c]))
      expect(Object.keys(cells).sort()).toEqual(['none', 'writeback'])
      for (const cell of Object.values(cells)) expect(cell.stats?.n, cell.variant).toBe(n)
      return cells
    }
    // disk: the cache=none guest's 512 B O_DIRECT writes take longer than the host's
    const latency = comparison.rows.find((r) => r.testId === 'dd-latency' && r.metric === 'dd.lat.mean' && Object.keys(r.labels).length === 0)
    const lat = cellsOf(latency, 2)
    expect(lat.none!.stats!.value, 'cache=none guest mean latency vs phys').toBeGreaterThan(latency!.baseline!.value)
    expect(lat.none!.relativePct).toBeLessThan(100)
    expect(lat.none!.overheadPct).toBeGreaterThan(0)
    // CPU: translated instructions cost both guests most of the host's speed; with KVM they run
    // at about the host's
    const cpu = comparison.rows.find((r) => r.testId === 'cpu' && r.metric === 'sysbench.cpu.events')
    const primes = cellsOf(cpu, 3)
    for (const cell of Object.values(primes)) {
      if (none.accel === 'tcg') expect(cell.relativePct, `${cell.variant} CPU under TCG`).toBeLessThan(50)
      else expect(cell.relativePct, `${cell.variant} CPU under KVM`).toBeGreaterThan(50)
      expect(cell.overheadPct, cell.variant).toBeGreaterThan(0)
      // translated code runs several times slower: three repetitions a side, on a loaded
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

  it("network: ping and iperf 2 cross the lab network; virtbench run measures p1, both guests and p2 over the private path and the EIPs into study 001's two tables, whose cap check names the 30 Mbit/s EIP", async () => {
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

    // through virtbench run, study 001's network matrix: p1 (the baseline, physical), the two
    // guests (the variants) and p2 (the peer, physical) measure every ordered pair over the
    // private path and guest to guest over the EIPs, once each (the tables pool the pairs of a cell);
    // vm-a is the cache=none guest, vm-b the writeback one, whose EIP is capped
    const addresses = (m: { privateAddress: string; publicAddress: string }): { private: string; public: string } => ({ private: m.privateAddress, public: m.publicAddress })
    const members: Record<string, { privateAddress: string; publicAddress: string }> = { p1: p1.member, p2: p2.member, 'vm-a': a, 'vm-b': b }
    saveTargets(lab, [
      { name: 'p1', role: 'host', address: p1.sshd.host, port: p1.sshd.port, addresses: addresses(p1.member) },
      { name: 'p2', role: 'host', address: p2.sshd.host, port: p2.sshd.port, addresses: addresses(p2.member) },
      { name: 'vm-a', port: none.sshPort, role: 'guest', addresses: addresses(a) },
      { name: 'vm-b', port: writeback.sshPort, role: 'guest', addresses: addresses(b) }
    ])
    const preset = writePreset(lab, 'lab network', {
      baseline: { target: 'p1' },
      variants: [{ target: 'vm-a' }, { target: 'vm-b' }],
      network: { peer: 'p2', matrix: true, paths: ['private', 'eip'] },
      // -O 1: the first second, while TCP ramps up and the cap's bucket is full, is left out
      tests: [{ id: 'iperf3', tool: 'iperf3', title: 'Network: iperf3 TCP', params: { seconds: 2, omitSeconds: 1 } }],
      repetitions: 1
    })
    const out = path.join(lab.dir, 'network-run')
    const started = Date.now()
    const result = await virtbenchRun([preset, '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys'])
    console.log(`network run: ${((Date.now() - started) / 1000).toFixed(1)} s\n${result.stdout}`)
    expect(result.status, result.stdout + result.stderr).toBe(0)
    // 3 compared jobs (p1 and each guest to p2), 12 ordered pairs over the private path, 2 over the EIPs
    expect(result.stdout).toContain('Run completed: 17 of 17 jobs succeeded.')

    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    const matrix = run.jobs.filter((j) => j.kind === 'matrix')
    expect(matrix.filter((j) => j.network === 'private')).toHaveLength(12)
    expect(matrix.filter((j) => j.network === 'eip').map((j) => `${j.target} → ${j.peer}`).sort()).toEqual(['vm-a → vm-b', 'vm-b → vm-a'])
    // each client dialled the peer's address of its path (the compared jobs: p2's private one), and
    // the peer's iperf3 server saw the sender's address of that path: its own over the bridge, its
    // EIP through the gateway; a server reached over an EIP, which its machine does not hold (NAT),
    // listened on all its addresses, and the job says so
    for (const job of run.jobs.filter((j) => j.testId === 'iperf3')) {
      const label = `${job.id} ${job.target} → ${job.peer} (${job.network ?? 'compared'})`
      const eip = job.network === 'eip'
      const dialed = eip ? members[job.peer!]!.publicAddress : members[job.peer!]!.privateAddress
      const seen = eip ? members[job.target]!.publicAddress : members[job.target]!.privateAddress
      const client = job.steps.find((st) => st.id === 'client')
      const server = job.steps.find((st) => st.id === 'server')
      expect(client?.command, label).toContain(`-c ${dialed} `)
      expect(readFileSync(path.join(out, server!.stdoutFile!), 'utf8'), label).toContain(`Accepted connection from ${seen},`)
      if (eip) expect(job.warnings, label).toContain(`${dialed} is not an address of ${job.peer} (a NAT'd public address?): its iperf3 server listened on all its addresses`)
    }

    // study 001's two tables, from the run document
    const study = networkStudies(run).find((s) => s.metric === 'iperf3.received.bandwidth')
    expect(study, JSON.stringify(networkStudies(run).map((s) => s.metric))).toBeDefined()
    const [privateGrid, eipGrid] = study!.grids
    expect([privateGrid?.path, eipGrid?.path]).toEqual(['private', 'eip'])
    // the Source x Destination grid has its diagonal: p1 and p2 both ways, the two guests both ways
    expect(privateGrid!.cells.filter((c) => c.from === c.to).map((c) => [c.label, c.pairs])).toEqual([
      ['Physical → physical (private/VPC)', ['p1 → p2', 'p2 → p1']],
      ['VM → VM (private/VPC)', ['vm-a → vm-b', 'vm-b → vm-a']]
    ])
    // every cell of the private grid measured, with its % of physical to physical
    expect(study!.reference?.path).toBe('private')
    for (const cell of privateGrid!.cells) expect(cell.pct, `${cell.label}: ${JSON.stringify(cell)}`).toBeGreaterThan(0)
    // the path table: physical to physical (100 %), VM to VM over the private path, VM EIP to VM EIP, each with its %
    const [physical, vm, capped] = study!.paths
    console.log('study 001 path table', study!.paths.map((r) => `${r.label}: ${r.value} bit/s, ${r.pct} %`))
    expect(study!.paths.map((r) => r.label)).toEqual(['Physical → physical (private/VPC)', 'VM → VM (private/VPC)', 'VM EIP → VM EIP'])
    expect(physical!.pct).toBe(100)
    for (const row of study!.paths) expect(row.pct, row.label).toBeGreaterThan(0)
    expect(capped!.pairs).toEqual(['vm-a → vm-b', 'vm-b → vm-a'])
    // the capped EIP (vm-b's, each way): at most the cap, and named by the cap check; the private
    // path between the guests goes faster than the cap and is not named
    expect(capped!.value).toBeLessThanOrEqual(EIP_CAP_BITS)
    expect(vm!.value).toBeGreaterThan(EIP_CAP_BITS)
    expect(capped!.capBits).toBe(EIP_CAP_BITS)
    // the free paths are not named, unless their figure happens to sit in the check's window just
    // below a round limit (the lab's physical to physical pairs measured 9.85 to 14.2 Gbit/s, near
    // 10 Gbit/s's 9.4 to 10): from the figures alone no check can tell that from a cap
    const inWindow = (row: StudyCell): boolean => nearbyCapBits(row.value!, study!.unit, GOODPUT_CAP_WINDOW) !== undefined
    for (const row of [physical!, vm!]) {
      if (inWindow(row)) console.log(`${row.label}: ${studyCellText(row, study!.unit)} sits just below a round limit and is named`)
      else expect(row.capBits, row.label).toBeUndefined()
    }
    const named = study!.paths.filter((r) => r.capBits !== undefined)
    expect(study!.caps).toHaveLength(named.length)
    const eipSentence = study!.caps[named.indexOf(capped!)]
    expect(eipSentence).toMatch(/^VM EIP → VM EIP: 2\d\.\d Mbit\/s, just below 30 Mbit\/s: the path is probably rate-limited/)

    // and virtbench run printed both tables, with the same figures and the cap (the overhead table
    // above them has its own bandwidth-cap flags, on the compared jobs' figures)
    const heading = "Network by kind of machine and path (study 001's tables)"
    expect(result.stdout).toContain(heading)
    const printed = result.stdout.slice(result.stdout.indexOf(heading))
    expect(printed).toMatch(/^private\/VPC: from ↓ to → +Physical +VM$/m)
    expect(printed).toMatch(/^public EIP: from ↓ to → +Physical +VM$/m)
    for (const row of study!.paths) {
      const line = printed.split('\n').find((l) => l.startsWith(`${row.label} `))
      expect(line, printed).toBe(`${row.label}${line!.slice(row.label.length).match(/^ +/)![0]}${studyCellText(row, study!.unit)}`)
    }
    expect(printed).toMatch(/^Physical → physical \(private\/VPC\) +\S+ \S+ \(100 %\)$/m)
    expect(printed.split('\n').filter((l) => l.includes('just below'))).toEqual(study!.caps.map((c) => `- ${c}`))
    expect(printed).toContain(`\n- ${eipSentence}\n`)
  }, 600_000)
})
