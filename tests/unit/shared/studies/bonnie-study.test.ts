import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { bonnieParamsSchema } from '../../../../src/main/tools/bonnie/params'
import { parse } from '../../../../src/main/tools/bonnie/parse'
import { describeRun } from '../../../../src/main/tools/describe-run'
import { compare, median } from '../../../../src/shared/compare'
import type { Comparison } from '../../../../src/shared/model/comparison'
import { RunDocumentSchema, type Job, type RunDocument } from '../../../../src/shared/model/run'
import { comparisonInputOf } from '../../../../src/shared/run-comparison'
import { bonnieHeader, bonnieRowCells, bonnieStudies, bonnieStudyText, type BonnieFigureId, type BonnieStudy } from '../../../../src/shared/studies/bonnie-study'
import { fixture } from '../../main/tools/bonnie/fixture'

const RUN_DIR = path.join(__dirname, '../../../fixtures/runs/bonnie-local')

/** The stored bonnie++ run (tests/fixtures/runs/README.md): host against guest, 2 jobs each, bonnie++ -x 2 in each. */
function run(): RunDocument {
  return describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(RUN_DIR, 'run.json'), 'utf8'))))
}

const studiesOf = (doc: RunDocument, comparison: Comparison = compare(comparisonInputOf(doc))): BonnieStudy[] => bonnieStudies(doc, comparison)

/** The CSV fields of a test (rate, %CPU) in every run of a side, read here by hand from the raw stdout the engine kept (format 1.98). */
const FIELD: Record<BonnieFigureId, number> = { putc: 9, put_block: 11, rewrite: 13, getc: 15, get_block: 17, seeks: 19 }
function rawFields(doc: RunDocument, side: string, id: BonnieFigureId): { rate: string; cpu: string }[] {
  return doc.jobs
    .filter((j) => j.side === side && j.status === 'succeeded')
    .flatMap((j) => readFileSync(path.join(RUN_DIR, j.steps[0]!.stdoutFile!), 'utf8').split('\n').filter((l) => l.startsWith('1.98,')))
    .map((line) => {
      const fields = line.split(',')
      return { rate: fields[FIELD[id]]!, cpu: fields[FIELD[id] + 1]! }
    })
}

describe("study 000's bonnie++ table, from a real run", () => {
  const doc = run()
  const [study] = studiesOf(doc)

  it('has one row per machine compared, the baseline first, and bonnie++’s six figures each with its %CPU', () => {
    expect(studiesOf(doc)).toHaveLength(1)
    expect(study!.testTitle).toBe('bonnie++ 64 MiB, 2 runs')
    expect(study!.rows.map((r) => [r.machine, r.role])).toEqual([
      ['host', 'baseline'],
      ['guest', 'variant']
    ])
    expect(study!.rows[0]!.figures.map((f) => f.id)).toEqual(['putc', 'put_block', 'rewrite', 'getc', 'get_block', 'seeks'])
    expect(bonnieHeader()).toEqual(['machine', 'out per char', '%CPU', 'out block', '%CPU', 'rewrite', '%CPU', 'in per char', '%CPU', 'in block', '%CPU', 'seeks', '%CPU'])
  })

  it("gives the median of the runs bonnie++ timed, in B/s, and the guest's % of the host, from the figures bonnie++ printed", () => {
    for (const id of ['putc', 'getc'] as const) {
      const kib = (side: string): number => median(rawFields(doc, side, id).map((f) => Number(f.rate) * 1024))!
      const cpu = (side: string): number => median(rawFields(doc, side, id).map((f) => Number(f.cpu)))!
      const [host, guest] = study!.rows.map((r) => r.figures.find((f) => f.id === id)!)
      expect(rawFields(doc, 'host', id)).toHaveLength(4)
      expect(host).toMatchObject({ value: kib('host'), unit: 'B/s', cpuPct: cpu('host'), tooFastRuns: 0, runs: 4 })
      expect(host!.relativePct).toBeUndefined()
      expect(guest).toMatchObject({ value: kib('guest'), unit: 'B/s', cpuPct: cpu('guest') })
      expect(guest!.relativePct).toBeCloseTo((kib('guest') / kib('host')) * 100, 9)
    }
  })

  it('says bonnie++ printed +++++ where a test was too fast to time, and gives no number there', () => {
    for (const id of ['put_block', 'rewrite', 'get_block', 'seeks'] as const) {
      // every run of both machines printed +++++ (and +++ for the CPU)
      expect(new Set(['host', 'guest'].flatMap((side) => rawFields(doc, side, id).map((f) => `${f.rate},${f.cpu}`)))).toEqual(new Set(['+++++,+++']))
      for (const row of study!.rows) {
        const figure = row.figures.find((f) => f.id === id)!
        expect(figure).toMatchObject({ missing: 'too-fast', tooFastRuns: 4, runs: 4 })
        expect(figure.value).toBeUndefined()
        expect(figure.cpuPct).toBeUndefined()
      }
    }
    const cells = bonnieRowCells(study!.rows[0]!)
    expect(cells.slice(3, 5)).toEqual(['+++++ (too fast)', '–'])
    expect(study!.notes).toEqual([
      'host: sequential output, block; sequential output, rewrite; sequential input, block; random seeks: bonnie++ printed +++++ in every run (4): ' +
        'the test took under 0.5 s, too fast to time, so there is no figure. A file of at least twice the RAM (-s) makes it measurable.',
      'guest: sequential output, block; sequential output, rewrite; sequential input, block; random seeks: bonnie++ printed +++++ in every run (4): ' +
        'the test took under 0.5 s, too fast to time, so there is no figure. A file of at least twice the RAM (-s) makes it measurable.'
    ])
  })

  it('prints the table for a terminal: a line per machine with its figures, units and % of the host, then the notes', () => {
    const text = bonnieStudyText([study!])
    const lines = text.split('\n')
    expect(lines[0]).toBe("bonnie++ 64 MiB, 2 runs: each figure the median of the runs bonnie++ timed; guests' figures as % of host")
    const putc = study!.rows.map((r) => r.figures[0]!)
    const host = lines.find((l) => l.startsWith('host '))!
    const guest = lines.find((l) => l.startsWith('guest '))!
    expect(host.split(/\s{2,}/)).toEqual(['host', ...bonnieRowCells(study!.rows[0]!).slice(1)])
    expect(guest).toMatch(new RegExp(`^guest\\s+[\\d.]+ KiB/s \\(${Math.round(putc[1]!.relativePct!)} %\\)\\s+[\\d.]+ %\\s+\\+\\+\\+\\+\\+ \\(too fast\\)\\s+–`))
    expect(lines.filter((l) => l.startsWith('- '))).toHaveLength(2)
  })
})

describe('bonnie++ figures measured in some runs only, and tests not run (-f)', () => {
  /** A job of the stored run with the samples and warnings the real parser gives for a captured bonnie++ output. */
  function jobFrom(template: Job, side: string, repetition: number, name: string, params: Record<string, unknown>): Job {
    const parsed = parse(fixture(name), bonnieParamsSchema.parse(params))
    if (!parsed.ok) throw new Error(parsed.error.reason)
    return { ...template, id: `${side}-${repetition}`, side, target: side, repetition, params, samples: parsed.samples, warnings: parsed.warnings }
  }
  const stored = run()
  const template = stored.jobs[0]!
  // PerfKitBenchmarker's bonnie++ 1.96 line (-f: no per-character tests; every block figure and seeks measured) as the host;
  // bonnie++ 2.00a -x 3 with O_DIRECT (-f; block writes timed in runs 1 and 2, +++++ in run 3) as the guest
  const doc: RunDocument = {
    ...stored,
    tests: stored.tests.map((t) => ({ ...t, params: { skipPerChar: true } })),
    jobs: [
      jobFrom(template, 'host', 1, 'bonnie196-pkb-f-n100-q', { skipPerChar: true, numFiles: 100 }),
      jobFrom(template, 'guest', 1, 'q-x3-s32-direct', { fileSize: '32', ramMiB: 16, numFiles: 1, skipPerChar: true, directIo: true, repetitions: 3 })
    ]
  }
  const [study] = studiesOf(doc)
  const figure = (side: number, id: BonnieFigureId) => study!.rows[side]!.figures.find((f) => f.id === id)!

  it('gives the timed runs’ figure with its % of the host, and notes how many runs printed +++++', () => {
    // the guest's put_block: 64044 and 40531 KiB/s (runs 1 and 2), +++++ in run 3; the host's 72853 KiB/s
    const guest = median([64044 * 1024, 40531 * 1024])!
    expect(figure(1, 'put_block')).toMatchObject({ value: guest, cpuPct: median([38, 18]), tooFastRuns: 1, runs: 3 })
    expect(figure(1, 'put_block').relativePct).toBeCloseTo((guest / (72853 * 1024)) * 100, 9)
    expect(figure(0, 'put_block')).toMatchObject({ value: 72853 * 1024, cpuPct: 15, tooFastRuns: 0, runs: 1 })
    expect(figure(0, 'seeks')).toMatchObject({ value: 537.7, unit: 'op/s', cpuPct: 10 })
    expect(study!.notes).toContain('guest: sequential output, block: bonnie++ printed +++++ in 1 of 3 runs; the figure is of the 2 it timed.')
  })

  it('says a test was not run where -f skipped it, and too fast where the guest printed +++++ and the host timed it', () => {
    for (const side of [0, 1]) for (const id of ['putc', 'getc'] as const) expect(figure(side, id).missing).toBe('not-run')
    expect(figure(1, 'rewrite')).toMatchObject({ missing: 'too-fast', tooFastRuns: 3, runs: 3 })
    expect(figure(0, 'rewrite').value).toBe(47358 * 1024)
    expect(bonnieRowCells(study!.rows[1]!)).toEqual([
      'guest',
      'not run',
      '–',
      // (64044 + 40531) / 2 KiB/s = 51.1 MiB/s, 71.8 % of 72853 KiB/s; CPU (38 + 18) / 2
      '51.1 MiB/s (71.8 %)',
      '28.0 %',
      '+++++ (too fast)',
      '–',
      'not run',
      '–',
      '+++++ (too fast)',
      '–',
      '+++++ (too fast)',
      '–'
    ])
    expect(study!.notes).toContain('host: sequential output, per char; sequential input, per char: not run (bonnie++ left the field empty: -f skips the per-character tests, -s 0 all of these).')
  })

  it('says a machine whose jobs all failed has no figure, and shows no table for a run without a bonnie++ job that succeeded', () => {
    const failed = { ...doc, jobs: [doc.jobs[0]!, { ...doc.jobs[1]!, status: 'failed' as const, samples: [], warnings: [] }] }
    const [one] = studiesOf(failed)
    expect(one!.rows[1]!.figures.every((f) => f.missing === 'no-result')).toBe(true)
    expect(one!.notes).toContain("guest: no figure: not measured: its 1 job failed (see the jobs' errors).")
    expect(studiesOf({ ...doc, jobs: doc.jobs.map((j) => ({ ...j, status: 'failed' as const })) })).toEqual([])
  })
})
