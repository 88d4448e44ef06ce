/**
 * Study 001's network tables against a known truth (tests/harness/truth/, docs/known-truth.md),
 * through the built CLI: two physical hosts and two guests, each an sshd in a network namespace
 * whose veth is held by tc to PRIVATE_BITS; each guest also has a public address (its "EIP") on
 * the same veth, whose traffic an htb qdisc and a u32 filter on the root end send through a tbf
 * of EIP_BITS (the rest through a tbf of PRIVATE_BITS). A
 * The root ends of the veths forward between the namespaces (joinLinks). A
 * preset measures iperf3 over the private and the EIP paths (network.paths); the test checks:
 *
 * - the jobs dialled the address of their path (the servers bound to it);
 * - the Source x Destination grid has its diagonal (physical to the other physical, VM to the other VM);
 * - the path table's EIP % is the set ratio EIP_BITS / PRIVATE_BITS (20 %), VM to VM private 100 %;
 * - the cap check names 30 Mbit/s for the EIP, and nothing else, from its four steady figures (two
 *   pairs, two repetitions); any one of them alone is not evidence enough;
 * - a preset whose guest lacks a public address stops before the run, naming it.
 *
 * The truth is the rates set by tc, so this holds on a loaded machine: TCP's payload is the same
 * share of the frames the shaper counts on both paths, so the ratio of the two goodputs is the
 * ratio of the rates.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import type { Target } from '../../../src/shared/model/target'
import { CAP_MAX_CV_PCT, GOODPUT_CAP_WINDOW, nearbyCapBits, readCap } from '../../../src/shared/compare/bandwidth-cap'
import { mean, stddev } from '../../../src/shared/compare/stats'
import { networkStudies, type NetworkStudy } from '../../../src/shared/studies/network-study'
import { runCli, type CliResult } from '../../harness/cli'
import { burstBytesFor, startTruthLab, type LimitedTarget, type TruthLab } from '../../harness/truth'
import { runCommand } from '../../harness/truth/command'

const MINUTES = 60_000
const PRIVATE_BITS = 150_000_000
const EIP_BITS = 30_000_000
/** The truth of the path table: the EIP path at 20 % of the private one (and of physical to physical). */
const TRUTH_EIP_PCT = (EIP_BITS / PRIVATE_BITS) * 100
/**
 * Points the EIP % may miss the truth by. Measured here (2 s iperf3, 2 repetitions, load 12):
 * EIP 28.72-28.82 Mbit/s, private 142.9-144.2 Mbit/s (both 95.3-96.1 % of their rate: TCP's
 * payload share of the frames), so the EIP % can only lie within 19.9-20.1: ±0.1 point of spread.
 * ±1 point (5 % of the figure) leaves room for a private repetition slowed by load.
 */
const EIP_TOLERANCE_POINTS = 1
/** Physical and VM private paths share one rate: within 3 points of 100 % (the same spread, for figures five times larger). */
const SAME_RATE_TOLERANCE_POINTS = 3

/** The guest's public address: a second address on its namespace's veth, its traffic held to EIP_BITS on the way in. */
async function addEip(target: LimitedTarget): Promise<string> {
  const link = target.link!
  const eip = link.namespaceAddress.replace(/\.2$/, '.3')
  await runCommand('ip', ['-n', link.namespace, 'addr', 'add', `${eip}/24`, 'dev', link.namespaceInterface])
  const dev = link.rootInterface
  // htb only sorts (its classes far above either rate): every packet to 1:20, the private tbf, unless the filter sends it to 1:10, the EIP's
  // (this kernel has htb and u32, not prio)
  await runCommand('tc', ['qdisc', 'replace', 'dev', dev, 'root', 'handle', '1:', 'htb', 'default', '20'])
  for (const [minor, bits] of [['10', EIP_BITS], ['20', PRIVATE_BITS]] as const) {
    await runCommand('tc', ['class', 'add', 'dev', dev, 'parent', '1:', 'classid', `1:${minor}`, 'htb', 'rate', '10gbit', 'ceil', '10gbit'])
    await runCommand('tc', ['qdisc', 'add', 'dev', dev, 'parent', `1:${minor}`, 'tbf', 'rate', `${bits}bit`, 'burst', String(burstBytesFor(bits)), 'latency', '50ms'])
  }
  await runCommand('tc', ['filter', 'add', 'dev', dev, 'parent', '1:', 'protocol', 'ip', 'prio', '1', 'u32', 'match', 'ip', 'dst', `${eip}/32`, 'flowid', '1:10'])
  return eip
}

/**
 * Lets the namespaces reach each other through this machine: forwarding on the root end of each
 * target's veth only (IPv4 forwards what arrives on an interface whose `forwarding` is set; the
 * machine's ip_forward stays as it is), then checks one ping each way between two of them, so a
 * machine that cannot forward fails here and not 32 s into a job.
 */
async function joinLinks(targets: readonly LimitedTarget[]): Promise<void> {
  for (const t of targets) await runCommand('sysctl', ['-q', '-w', `net.ipv4.conf.${t.link!.rootInterface}.forwarding=1`])
  const [a, b] = targets as [LimitedTarget, LimitedTarget]
  for (const [from, to] of [[a, b], [b, a]] as const) {
    await runCommand('ip', ['netns', 'exec', from.link!.namespace, 'ping', '-c', '1', '-W', '5', to.link!.namespaceAddress])
  }
}

function preset(name: string, paths: string[]): object {
  return {
    kind: 'virtbench-preset',
    version: 1,
    plan: {
      name,
      baseline: { target: 'pm1' },
      variants: [{ target: 'vm1' }, { target: 'vm2' }],
      network: { peer: 'pm2', matrix: true, paths },
      tests: [{ id: 'iperf3', tool: 'iperf3', params: { seconds: 2 } }],
      repetitions: 2,
      idleSeconds: 0
    }
  }
}

describe("study 001's network tables on known network paths (private 150 Mbit/s, EIP 30 Mbit/s)", () => {
  let lab: TruthLab
  let dir: string
  let dataDir: string
  let result: CliResult
  let run: RunDocument
  let study: NetworkStudy
  const eips = new Map<string, string>()
  let inventory: Target[]

  const writeInventory = (inventory: Target[]): void => {
    writeFileSync(path.join(dataDir, 'targets.json'), JSON.stringify({ kind: 'virtbench.targets', version: 1, data: { targets: inventory } }))
  }

  beforeAll(async () => {
    const network = { bitsPerSecond: PRIVATE_BITS }
    lab = await startTruthLab([
      { name: 'pm1', role: 'host', network },
      { name: 'pm2', role: 'host', network },
      { name: 'vm1', role: 'guest', network },
      { name: 'vm2', role: 'guest', network }
    ])
    for (const name of ['vm1', 'vm2']) eips.set(name, await addEip(lab.get(name)))
    await joinLinks(lab.targets)
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-network-paths-'))
    dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
    writeFileSync(path.join(dataDir, 'known_hosts'), readFileSync(lab.knownHostsFile))
    // each machine's private address is its namespace's; the guests' public one their EIP
    inventory = lab.inventory.map((t) => {
      const truth = lab.targets.find((x) => x.name === t.name)
      if (!truth?.link) return t
      const eip = eips.get(t.name)
      return { ...t, addresses: { private: truth.link.namespaceAddress, ...(eip ? { public: eip } : {}) } }
    })
    writeInventory(inventory)
    writeFileSync(path.join(dir, 'paths.json'), JSON.stringify(preset('network paths', ['private', 'eip'])))
    result = await runCli(['run', path.join(dir, 'paths.json'), '--out', path.join(dir, 'run'), '--data-dir', dataDir])
    run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'run', 'run.json'), 'utf8')))
    study = networkStudies(run).find((s) => s.metric === 'iperf3.received.bandwidth')!
  }, 10 * MINUTES)

  afterAll(async () => {
    await lab?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('runs every matrix job, each server listening on the address of its path', () => {
    expect(result.status, result.stdout + result.stderr).toBe(0)
    const matrix = run.jobs.filter((j) => j.kind === 'matrix')
    expect(matrix.filter((j) => j.network === 'private')).toHaveLength(12 * 2)
    expect(matrix.filter((j) => j.network === 'eip')).toHaveLength(2 * 2)
    expect(matrix.filter((j) => j.status !== 'succeeded').map((j) => `${j.id}: ${j.error}`)).toEqual([])
    for (const job of matrix) {
      const truth = lab.get(job.peer!)
      const address = job.network === 'eip' ? eips.get(job.peer!)! : truth.link!.namespaceAddress
      expect(job.steps.find((s) => s.id === 'server')!.command).toContain(`--bind ${address}`)
    }
  })

  it('has the diagonal: physical to the other physical host, VM to the other VM', () => {
    const [privateGrid] = study.grids
    expect(privateGrid!.path).toBe('private')
    const diagonal = privateGrid!.cells.filter((c) => c.from === c.to)
    expect(diagonal.map((c) => [c.label, c.pairs])).toEqual([
      ['Physical → physical (private/VPC)', ['pm1 → pm2', 'pm2 → pm1']],
      ['VM → VM (private/VPC)', ['vm1 → vm2', 'vm2 → vm1']]
    ])
    expect(study.reference?.path).toBe('private')
    for (const cell of privateGrid!.cells) expect(Math.abs(cell.pct! - 100), `${cell.label}: ${cell.pct} %`).toBeLessThanOrEqual(SAME_RATE_TOLERANCE_POINTS)
  })

  it('reproduces the set ratio in the path table: the EIP at 20 % of physical to physical', () => {
    const [physical, vm, eip] = study.paths
    expect(study.paths.map((r) => r.label)).toEqual(['Physical → physical (private/VPC)', 'VM → VM (private/VPC)', 'VM EIP → VM EIP'])
    expect(physical!.pct).toBe(100)
    expect(Math.abs(vm!.pct! - 100)).toBeLessThanOrEqual(SAME_RATE_TOLERANCE_POINTS)
    expect(Math.abs(eip!.pct! - TRUTH_EIP_PCT), `EIP ${eip!.value} bit/s, ${eip!.pct} % of ${study.reference!.value} bit/s`).toBeLessThanOrEqual(EIP_TOLERANCE_POINTS)
  })

  it('names the 30 Mbit/s cap of the EIP path, and no other', () => {
    expect(study.paths.map((r) => r.capBits)).toEqual([undefined, undefined, EIP_BITS])
    expect(study.caps).toHaveLength(1)
    expect(study.caps[0]).toMatch(/^VM EIP → VM EIP: 2\d\.\d Mbit\/s, just below 30 Mbit\/s: the path is probably rate-limited rather than saturated \(its 4 figures all read 2\d\.\d/)
    // no cell of the grids is named either, nor noted as a lone figure near a limit
    for (const cell of study.grids.flatMap((g) => g.cells)) {
      expect([cell.capBits, cell.singleNearCapBits], cell.label).toEqual(cell.path === 'eip' && cell.from === 'guest' && cell.to === 'guest' ? [EIP_BITS, undefined] : [undefined, undefined])
    }
    expect(study.unconfirmedCaps).toEqual([])
  })

  it('names the cap from the evidence of a ceiling: every EIP figure steady just below it, which one figure alone is not', () => {
    const eip = study.paths[2]!
    // both pairs, both repetitions: each within the window below 30 Mbit/s, all as steady as the tbf holds them
    expect(eip.values).toHaveLength(4)
    for (const v of eip.values) expect(nearbyCapBits(v, 'bit/s', GOODPUT_CAP_WINDOW), `${v} bit/s`).toBe(EIP_BITS)
    const cvPct = (stddev(eip.values)! / mean(eip.values)!) * 100
    console.log(`EIP figures: ${eip.values.map((v) => (v / 1e6).toFixed(2)).join(', ')} Mbit/s, coefficient of variation ${cvPct.toFixed(2)} %`)
    expect(cvPct, eip.values.join(', ')).toBeLessThan(CAP_MAX_CV_PCT)
    // any one of them, as a run of one repetition would have it, cannot tell the limit from a coincidence
    for (const v of eip.values) expect(readCap([v], 'bit/s', 'network')?.kind).toBe('single')
    // the private paths' figures (95 % of their 150 Mbit/s tbf, which is no round limit) lie outside every window: no limit to name there
    for (const cell of study.grids[0]!.cells) {
      for (const v of cell.values) expect(nearbyCapBits(v, 'bit/s', GOODPUT_CAP_WINDOW), `${cell.label}: ${v} bit/s`).toBeUndefined()
    }
  })

  it("prints the grid and the path table in virtbench run's output, beside the overhead table", () => {
    const out = result.stdout
    expect(out).toContain("Network by kind of machine and path (study 001's tables)")
    expect(out).toMatch(/^private\/VPC: from ↓ to → +Physical +VM$/m)
    expect(out).toMatch(/^Physical +1\d\d Mbit\/s \(100 %\) +1\d\d Mbit\/s \(\d+(\.\d)? %\)$/m)
    expect(out).toMatch(/^VM EIP → VM EIP +2\d\.\d Mbit\/s \((19|20)(\.\d)? %\)$/m)
    expect(out).toMatch(/^- VM EIP → VM EIP: 2\d\.\d Mbit\/s, just below 30 Mbit\/s/m)
  })

  it('stops before the run when a guest has no public address for the EIP path, naming it', async () => {
    writeInventory(inventory.map((t) => (t.name === 'vm2' ? { ...t, addresses: { private: lab.get('vm2').link!.namespaceAddress } } : t)))
    const refused = await runCli(['run', path.join(dir, 'paths.json'), '--out', path.join(dir, 'refused'), '--data-dir', dataDir])
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toContain('the network tests cannot reach their peers:\n- vm2 has no public (EIP) address: add it to the target, or choose another network path\n')
    expect(() => readFileSync(path.join(dir, 'refused', 'run.json'))).toThrow()
  })
})
