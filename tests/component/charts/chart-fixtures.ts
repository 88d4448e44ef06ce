import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Job, RunDocument } from '../../../src/shared/model/run'
import type { Sample } from '../../../src/shared/model/sample'
import { describedAgain, loopbackRun } from '../run-fixture'

/** The middle of an odd count, the mean of the two middle values of an even one (computed here, not by the app). */
export function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const half = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2
}

/** The values of one metric of one test on one side, from the run document's compare jobs. */
export function rawValues(run: RunDocument, testId: string, side: string, metric: string, labels: Record<string, string> = {}): number[] {
  return run.jobs
    .filter((j) => j.kind === 'compare' && j.status === 'succeeded' && j.testId === testId && j.side === side)
    .flatMap((j) =>
      j.samples.filter((s) => {
        if (s.metric !== metric) return false
        const own = Object.entries(s.labels).filter(([k]) => k !== 'repetition')
        return own.length === Object.keys(labels).length && own.every(([k, v]) => labels[k] === v)
      })
    )
    .map((s) => s.value)
}

/** iozone's -R report blocks and the sub-test each one is (docs/metrics.md, iozone). */
const REPORTS: Record<string, string> = {
  'Writer report': 'write',
  'Re-writer report': 'rewrite',
  'Reader report': 'read',
  'Re-Reader report': 'reread',
  'Random read report': 'random_read',
  'Random write report': 'random_write',
  'Backward read report': 'backward_read',
  'Record rewrite report': 'record_rewrite',
  'Stride read report': 'stride_read',
  'Fwrite report': 'fwrite',
  'Re-Fwrite report': 'frewrite',
  'Fread report': 'fread',
  'Re-Fread report': 'freread'
}

/**
 * Samples from a real iozone run (tests/fixtures/tools/iozone), read here from its -R report: one
 * sample per cell, kB/s x 1024 as bytes per second, sizes in bytes, 0 (a cell iozone skipped) left
 * out, as docs/metrics.md describes iozone's samples. Read here apart from the app's parser
 * (src/main/tools/iozone), so the charts are checked against figures it did not make.
 */
export function iozoneSamples(name: string): Sample[] {
  const text = readFileSync(join(__dirname, '../../fixtures/tools/iozone', `${name}.stdout`), 'utf8')
  const report = text.slice(text.indexOf('Excel output is below:'))
  const samples: Sample[] = []
  for (const block of report.split(/\n\s*\n/)) {
    const lines = block.trim().split('\n')
    const subtest = REPORTS[lines[0]?.replace(/"/g, '').trim() ?? '']
    if (!subtest || !lines[1]) continue
    const records = [...lines[1].matchAll(/"(\d+)"/g)].map((m) => Number(m[1]))
    for (const line of lines.slice(2)) {
      const [file, ...values] = line.trim().split(/\s+/)
      values.forEach((v, i) => {
        if (Number(v) === 0) return
        const labels = { file_size: String(Number(file!.replace(/"/g, '')) * 1024), record_size: String(records[i]! * 1024) }
        samples.push({ metric: `iozone.${subtest}`, value: Number(v) * 1024, unit: 'B/s', better: 'higher', labels })
      })
    }
  }
  if (samples.length === 0) throw new Error(`no -R report in iozone fixture ${name}`)
  return samples
}

/** The host's three iozone runs (1 MiB files) and the guest's one (32 MiB files, with skipped cells). */
export const HOST_IOZONE = ['iozone-Raz-g1M-b', 'plan-script-Raz-g1M-b', 'iozone-Ra-i0-i1-g1M'] as const
export const GUEST_IOZONE = ['iozone-Ra-g32M'] as const

function iozoneJob(id: string, target: string, side: string, repetition: number, samples: Sample[]): Job {
  return {
    id,
    testId: 'iozone',
    title: 'iozone auto',
    tool: 'iozone',
    params: {},
    target,
    side,
    kind: 'compare',
    repetition,
    status: 'succeeded',
    attempts: 1,
    steps: [],
    samples: samples.map((s) => ({ ...s, labels: { ...s.labels, repetition: String(repetition) } })),
    warnings: []
  }
}

/** The loopback run with an iozone test: real iozone output on both sides, iozone's metric definitions with it. */
export function iozoneRun(): RunDocument {
  const run = loopbackRun()
  const guest = run.targets.find((t) => t.role === 'variant')!
  return describedAgain({
    ...run,
    tests: [...run.tests, { id: 'iozone', title: 'iozone auto', tool: 'iozone', params: {}, repetitions: 3, aggregate: 'median' }],
    jobs: [
      ...run.jobs,
      ...HOST_IOZONE.map((name, i) => iozoneJob(`jz${i + 1}`, 'host', 'host', i + 1, iozoneSamples(name))),
      ...GUEST_IOZONE.map((name, i) => iozoneJob(`jz${i + 10}`, guest.name, guest.label, i + 1, iozoneSamples(name)))
    ]
  })
}

/** A run with nothing measured yet: its jobs queued, no samples, no monitor. */
export function queuedRun(): RunDocument {
  const run = loopbackRun()
  return { ...run, status: 'running', jobs: run.jobs.map((j) => ({ ...j, status: 'queued', samples: [], monitor: undefined })) }
}

/** A guest job with per-second series on the guest and on its physical host. */
export function monitoredRun(): RunDocument {
  const run = loopbackRun()
  const jobs = run.jobs.map((j) => {
    if (j.id !== 'j0002') return j
    const own = j.monitor![0]!
    return {
      ...j,
      monitor: [
        {
          ...own,
          series: [
            { at: 0, readIops: 14000, writeIops: 1, readBytesPerSecond: 57_344_000, writeBytesPerSecond: 4096, busyPct: 45 },
            { at: 1, readIops: 14400, writeIops: 2, readBytesPerSecond: 58_982_400, writeBytesPerSecond: 8192, busyPct: 49.5 }
          ]
        },
        {
          target: 'host',
          device: 'sda',
          seconds: 2,
          readIops: 900,
          writeIops: 3,
          readBytesPerSecond: 3_686_400,
          writeBytesPerSecond: 12_288,
          busyPct: 8,
          requests: 1806,
          series: [
            { at: 0, readIops: 1000, writeIops: 2, readBytesPerSecond: 4_096_000, writeBytesPerSecond: 8192, busyPct: 9 },
            { at: 1, readIops: 800, writeIops: 4, readBytesPerSecond: 3_276_800, writeBytesPerSecond: 16_384, busyPct: 7 },
            { at: 2, readIops: 850, writeIops: 1, readBytesPerSecond: 3_481_600, writeBytesPerSecond: 4096, busyPct: 6 }
          ]
        }
      ]
    }
  })
  return { ...run, jobs }
}
