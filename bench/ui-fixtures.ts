/**
 * A synthetic, schema-valid run document for the UI benchmark (bench/ui.ts): a baseline and 20
 * variants, 30 metrics of 8 tests, 3 repetitions each, status completed. Like a run the engine
 * writes today, it carries its metric definitions and each test's primary figures, as the tools
 * decide them (describeRun): the overhead table leads with those 11 rows and shows all 30 with
 * "All metrics". The figures are invented for the benchmark: shaped like the loopback fixture's
 * (tests/fixtures/runs/loopback-quick/run.json), seeded, so every run of the benchmark draws the
 * same table.
 */
import { describeRun } from '../src/main/tools/describe-run'
import { RunDocumentSchema, type Job, type RunDocument, type RunTarget, type RunTest } from '../src/shared/model/run'
import { runMetrics } from '../src/shared/run-metrics'
import type { Better, Unit } from '../src/shared/model/sample'
import type { Scenario } from '../src/shared/model/scenario'

export const VARIANTS = 20
export const REPETITIONS = 3

interface MetricSpec {
  metric: string
  unit: Unit
  better: Better
  /** The baseline's value, in base units. */
  base: number
  /** How much the variant's storage (or memory, CPU) overhead shows in this metric: 0 not at all, 1 fully. */
  weight: number
}

interface TestSpec {
  id: string
  title: string
  tool: RunTest['tool']
  params: Record<string, unknown>
  command: string
  metrics: MetricSpec[]
}

const KiB = 1024
const MiB = 1024 * KiB

const fioParams = (name: string, rw: string, bs: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  rw,
  bs,
  size: '1g',
  runtime: 30,
  timeBased: true,
  ioengine: 'libaio',
  iodepth: 16,
  direct: true,
  ...extra
})

/** Four of the figures fio gives per direction: IOPS, bandwidth, mean latency, p99 completion latency. */
function fioMetrics(dir: 'read' | 'write', iops: number, blockBytes: number, latMean: number, p99: number): MetricSpec[] {
  return [
    { metric: `fio.${dir}.iops`, unit: 'op/s', better: 'higher', base: iops, weight: 1 },
    { metric: `fio.${dir}.bandwidth`, unit: 'B/s', better: 'higher', base: iops * blockBytes, weight: 1 },
    { metric: `fio.${dir}.lat.mean`, unit: 's', better: 'lower', base: latMean, weight: 1 },
    { metric: `fio.${dir}.clat.p99`, unit: 's', better: 'lower', base: p99, weight: 1.3 }
  ]
}

const fioCommand = (p: Record<string, unknown>): string =>
  `fio --output-format=json --name=${String(p.name)} --ioengine=libaio --rw=${String(p.rw)} --bs=${String(p.bs)} --size=1g --iodepth=16 --direct=1 --runtime=30 --time_based --directory=/var/tmp/vb-work`

const TESTS: TestSpec[] = [
  { id: 'fio-randread-4k', title: '4 KiB random read', tool: 'fio', params: fioParams('randread', 'randread', '4k'), command: '', metrics: fioMetrics('read', 21_000, 4 * KiB, 47e-6, 69e-6) },
  { id: 'fio-randwrite-4k', title: '4 KiB random write', tool: 'fio', params: fioParams('randwrite', 'randwrite', '4k'), command: '', metrics: fioMetrics('write', 15_000, 4 * KiB, 65e-6, 120e-6) },
  { id: 'fio-read-1m', title: '1 MiB sequential read', tool: 'fio', params: fioParams('seqread', 'read', '1m'), command: '', metrics: fioMetrics('read', 1_800, MiB, 550e-6, 1.2e-3) },
  { id: 'fio-write-1m', title: '1 MiB sequential write', tool: 'fio', params: fioParams('seqwrite', 'write', '1m'), command: '', metrics: fioMetrics('write', 1_200, MiB, 830e-6, 2.1e-3) },
  {
    id: 'fio-randrw-4k',
    title: '4 KiB random read/write 70/30',
    tool: 'fio',
    params: fioParams('randrw', 'randrw', '4k', { rwmixread: 70 }),
    command: '',
    metrics: [...fioMetrics('read', 9_000, 4 * KiB, 80e-6, 150e-6), ...fioMetrics('write', 3_900, 4 * KiB, 90e-6, 200e-6)]
  },
  {
    id: 'dd-write-1m',
    title: 'Sequential write: 256 x 1 MiB O_DIRECT',
    tool: 'dd',
    params: { mode: 'write', blockSize: '1M', count: '256', direct: true },
    command: 'dd if=/dev/zero of=/var/tmp/vb-work/dd.bin bs=1M count=256 oflag=direct',
    metrics: [
      { metric: 'dd.bandwidth', unit: 'B/s', better: 'higher', base: 450e6, weight: 0.9 },
      { metric: 'dd.lat.mean', unit: 's', better: 'lower', base: MiB / 450e6, weight: 0.9 }
    ]
  },
  {
    id: 'mbw',
    title: 'Memory bandwidth (mbw, 256 MiB)',
    tool: 'mbw',
    params: { sizeMiB: 256, iterations: 5 },
    command: 'mbw -q -n 5 256',
    metrics: [
      { metric: 'mbw.memcpy.bandwidth', unit: 'B/s', better: 'higher', base: 9.5e9, weight: 0.1 },
      { metric: 'mbw.dumb.bandwidth', unit: 'B/s', better: 'higher', base: 6.2e9, weight: 0.1 },
      { metric: 'mbw.mcblock.bandwidth', unit: 'B/s', better: 'higher', base: 11.8e9, weight: 0.1 }
    ]
  },
  {
    id: 'sysbench-cpu',
    title: 'CPU: primes up to 20000 (sysbench)',
    tool: 'sysbench',
    params: { test: 'cpu', cpuMaxPrime: 20000, threads: 1, timeSeconds: 10 },
    command: 'sysbench cpu --cpu-max-prime=20000 --threads=1 --time=10 run',
    metrics: [{ metric: 'sysbench.cpu.events', unit: 'op/s', better: 'higher', base: 1_250, weight: 0.05 }]
  }
]
for (const t of TESTS) if (t.tool === 'fio') t.command = fioCommand(t.params)

/** How many metrics the document has: the rows of the overhead table with "All metrics". */
export const METRICS = TESTS.reduce((n, t) => n + t.metrics.length, 0)

/** How many of them lead the overhead table: the primary figures of their tests, from the run's own definitions. */
export function primaryMetricCount(run: RunDocument): number {
  const metrics = runMetrics(run)
  return TESTS.reduce((n, t) => n + t.metrics.filter((m) => metrics.factsOf(t.id, m.metric)?.primary).length, 0)
}

/** mulberry32: a small seeded generator, so the document is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const CACHES = ['none', 'writeback', 'writethrough', 'directsync', 'unsafe'] as const
const QUEUES = [1, 4] as const
const STORAGE = ['file-raw', 'file-qcow2'] as const

function scenarioOf(index: number): Scenario {
  return {
    hypervisor: 'kvm',
    storage: STORAGE[Math.floor(index / (CACHES.length * QUEUES.length)) % STORAGE.length]!,
    cache: CACHES[index % CACHES.length]!,
    queues: QUEUES[Math.floor(index / CACHES.length) % QUEUES.length]!,
    bus: 'virtio-blk'
  }
}

/** A completed run of `VARIANTS` variants against one baseline; `id` and `name` tell copies apart. */
export function syntheticRun(id: string, name: string, createdAt: Date): RunDocument {
  const random = seeded(2026)
  const sides = [
    { name: 'host', label: 'host', role: 'baseline' as const, scenario: undefined as Scenario | undefined, level: 1 },
    ...Array.from({ length: VARIANTS }, (_, i) => {
      const scenario = scenarioOf(i)
      const n = String(i + 1).padStart(2, '0')
      // writeback and unsafe caches can beat the host (its page cache); the others cost 5 to 45 %
      const level = scenario.cache === 'writeback' || scenario.cache === 'unsafe' ? 0.95 + random() * 0.2 : 0.55 + random() * 0.4
      return { name: `guest-${n}`, label: `guest-${n} ${scenario.storage} cache=${scenario.cache} q${scenario.queues}`, role: 'variant' as const, scenario, level }
    })
  ]
  const targets: RunTarget[] = sides.map((s) => ({
    name: s.name,
    role: s.role,
    label: s.label,
    kind: 'ssh',
    address: '192.0.2.10',
    port: 22,
    user: 'bench',
    ...(s.scenario ? { scenario: s.scenario } : {})
  }))
  const tests: RunTest[] = TESTS.map((t) => ({ id: t.id, title: t.title, tool: t.tool, params: t.params, repetitions: REPETITIONS, aggregate: 'median' }))

  const jobs: Job[] = []
  let clock = createdAt.getTime() + 30_000
  const iso = (ms: number): string => new Date(ms).toISOString()
  for (const test of TESTS) {
    for (let repetition = 1; repetition <= REPETITIONS; repetition++) {
      for (const side of sides) {
        const n = jobs.length + 1
        const jobId = `j${String(n).padStart(4, '0')}`
        const started = clock
        const ended = started + 31_000
        clock = ended + 500
        jobs.push({
          id: jobId,
          testId: test.id,
          title: test.title,
          tool: test.tool,
          params: test.params,
          target: side.name,
          side: side.label,
          kind: 'compare',
          repetition,
          status: 'succeeded',
          attempts: 1,
          estimatedSeconds: 32,
          queuedAt: iso(createdAt.getTime()),
          startedAt: iso(started),
          endedAt: iso(ended),
          steps: [
            {
              id: 'run',
              on: side.name,
              command: test.command,
              measured: true,
              startedAt: iso(started),
              endedAt: iso(ended),
              exitCode: 0,
              stdoutFile: `raw/${jobId}-a1-run.stdout`,
              stderrFile: `raw/${jobId}-a1-run.stderr`
            }
          ],
          samples: test.metrics.map((m) => {
            // the side's level, felt as much as this metric feels it, and a repetition's noise (±3 %)
            const factor = (1 - m.weight * (1 - side.level) * (0.9 + random() * 0.2)) * (0.97 + random() * 0.06)
            const value = m.better === 'higher' ? m.base * factor : m.base / factor
            return { metric: m.metric, value, unit: m.unit, better: m.better, labels: {} }
          }),
          warnings: []
        })
      }
    }
  }

  return describeRun(RunDocumentSchema.parse({
    kind: 'virtbench-run',
    version: 1,
    id,
    name,
    status: 'completed',
    createdAt: iso(createdAt.getTime()),
    updatedAt: iso(clock),
    endedAt: iso(clock),
    app: { version: 'bench' },
    plan: {
      name,
      baseline: { target: 'host', label: 'host' },
      variants: sides.filter((s) => s.role === 'variant').map((s) => ({ target: s.name, label: s.label, scenario: s.scenario })),
      tests: TESTS.map((t) => ({ id: t.id, title: t.title, tool: t.tool, params: t.params })),
      repetitions: REPETITIONS,
      aggregate: 'median',
      storage: { kind: 'directory', path: '/var/tmp/vb-work' },
      network: { matrix: false, simultaneous: false },
      schedule: { order: 'interleaved', parallelTargets: false }
    },
    tests,
    targets,
    environment: {},
    preflight: [],
    jobs
  }))
}
