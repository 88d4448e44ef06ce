import { expandTests } from '../../src/main/engine/planner'
import { ComparisonPlanSchema, type ComparisonPlanInput } from '../../src/shared/model/plan'
import { RUN_KIND, RUN_VERSION, RunDocumentSchema, type Job, type RunDocument, type RunTarget } from '../../src/shared/model/run'
import type { Scenario } from '../../src/shared/model/scenario'
import { FIO_TESTS, LOCAL_STORAGE, PHYSICAL, STUDY_001, studyFigure, type Study001Side } from './study-001'
import { metricDefsOf, withPrimary } from '../../src/main/tools/describe-run'

/**
 * The example comparison: study 001's local storage table as a run document, so that the results
 * view, the charts and the report can be explored before any host is set up. Every figure is the
 * study's own, one repetition per cell as the study published one number per cell; no job has
 * steps or raw outputs, and `source` says where the figures come from. Deterministic: the same
 * input always gives the same document (scripts/example-run.ts writes it).
 */

export const EXAMPLE_RUN_ID = 'example-study-001'

/** When this example document was made (not when the study measured: the study does not say). */
const MADE_AT = '2025-01-01T00:00:00.000Z'

const NOTE =
  'Published figures, not measured here: study 001 ran each fio job once on each machine and printed one figure per cell; ' +
  'VirtBench typed them in (IOPS in op/s, throughput in B/s with 1 KiB = 1024 B) and computes the relative % from them. ' +
  'Ten of the 96 relative % the study printed differ from what its printed figures give (it took 1 MiB as 1000 KiB in five, and divided unrounded IOPS in others); ' +
  'the tables here show what the printed figures give. The study\'s CPU, memory, Ceph and network tables compare other machines and are not part of this example. ' +
  `Method: ${STUDY_001.method}.`

function scenarioOf(side: Study001Side): Scenario {
  if (!side.guest) return {}
  return { cache: side.guest.cache, ...(side.guest.queues !== undefined ? { queues: side.guest.queues } : {}), os: side.guest.os }
}

export function buildStudy001Example(appVersion: string): RunDocument {
  const [baseline, ...guests] = LOCAL_STORAGE
  if (baseline?.name !== PHYSICAL) throw new Error('study 001: the physical machine comes first')
  const planInput: ComparisonPlanInput = {
    name: 'Study 001: local storage, physical machine vs Linux and Windows guests (published figures)',
    baseline: { target: PHYSICAL },
    variants: guests.map((g) => ({ target: g.name, scenario: scenarioOf(g) })),
    tests: [{ pack: 'cloud-acceptance', form: 'full', only: FIO_TESTS.map((t) => t.id) }],
    repetitions: 1
  }
  const plan = ComparisonPlanSchema.parse(planInput)
  // what each test is for (IOPS for the 4k jobs, bandwidth for the 1m ones), as a run keeps it
  const tests = expandTests(plan).map(withPrimary)
  const targets: RunTarget[] = LOCAL_STORAGE.map((side) => {
    const scenario = scenarioOf(side)
    return {
      name: side.name,
      role: side === baseline ? 'baseline' : 'variant',
      label: side.name,
      kind: 'ssh',
      ...(Object.keys(scenario).length > 0 ? { scenario } : {})
    }
  })
  const jobs: Job[] = []
  for (const test of tests) {
    const index = FIO_TESTS.findIndex((t) => t.id === test.id)
    const fio = FIO_TESTS[index]
    if (!fio) throw new Error(`study 001 has no figures for ${test.id}`)
    for (const side of LOCAL_STORAGE) {
      const iops = side.figures[2 * index]
      const bandwidth = side.figures[2 * index + 1]
      if (iops === undefined || bandwidth === undefined) throw new Error(`study 001: ${side.name} lacks the figures of ${test.id}`)
      jobs.push({
        id: `j${String(jobs.length + 1).padStart(4, '0')}`,
        testId: test.id,
        title: test.title,
        tool: test.tool,
        params: test.params,
        target: side.name,
        side: side.name,
        kind: 'compare',
        repetition: 1,
        status: 'succeeded',
        attempts: 1,
        steps: [],
        samples: [
          { metric: `fio.${fio.dir}.iops`, value: studyFigure(iops), unit: 'op/s', better: 'higher', labels: { repetition: '1' } },
          { metric: `fio.${fio.dir}.bandwidth`, value: studyFigure(bandwidth), unit: 'B/s', better: 'higher', labels: { repetition: '1' } }
        ],
        warnings: []
      })
    }
  }
  return RunDocumentSchema.parse({
    kind: RUN_KIND,
    version: RUN_VERSION,
    id: EXAMPLE_RUN_ID,
    name: plan.name,
    status: 'completed',
    createdAt: MADE_AT,
    updatedAt: MADE_AT,
    endedAt: MADE_AT,
    app: { version: appVersion },
    plan,
    tests,
    targets,
    environment: {},
    preflight: [],
    jobs,
    metrics: metricDefsOf(['fio']),
    source: { kind: 'published', title: STUDY_001.title, citation: STUDY_001.citation, note: NOTE }
  } satisfies RunDocument)
}

/** The document's text as the file holds it (the run store's own format: one-space JSON, final newline). */
export function renderExampleRun(doc: RunDocument): string {
  return `${JSON.stringify(doc, null, 1)}\n`
}
