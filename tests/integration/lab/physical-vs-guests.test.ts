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
 */
import { execFileSync, spawnSync } from 'node:child_process'
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
import { BOOT_TIMEOUT_MS, BUILD_TIMEOUT_MS, openLab, saveTargets, virtbenchRun, writePreset, type LabContext } from './lab-fixture'

describe('physical host vs two real guests (cache none, cache writeback)', () => {
  let lab: LabContext
  let host: SshdServer
  let none: Guest
  let writeback: Guest

  beforeAll(async () => {
    lab = await openLab('phys')
    ;[host, [none, writeback]] = await Promise.all([
      lab.physicalHost(),
      lab.boot([
        { name: 'cache-none', cache: 'none' },
        { name: 'cache-wb', cache: 'writeback' }
      ])
    ])
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
})
