import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCsv } from '../../../src/shared/export/csv'
import { findUnredacted } from '../../../src/shared/export/redact'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { dispatch } from '../../../src/main/api/dispatch'
import { createApi } from '../../../src/main/api/handlers'
import { printWithChromium } from '../../../src/main/report/chromium-printer'
import { findBrowser } from '../../../src/main/report/find-browser'
import { runCli } from '../../harness/cli'
import { checkJunit } from '../../harness/junit-xml'
import { RENDERER_DIR, ROOT } from '../../harness/paths'

/**
 * `virtbench report` on a real sweep folder (tests/fixtures/runs/sweep-cache-io): the PDF read
 * back with pdftotext opens with the sweep table and its matrices as `virtbench run` printed them,
 * the CSV has every step's rows, the JSON holds sweep.json; redacted, no machine is named. The
 * app's runs:report prints the same sweep, kept in its data folder, the same way.
 */

const SWEEP = path.join(ROOT, 'tests/fixtures/runs/sweep-cache-io')
const pdftotext = (file: string, extra: string[] = []): string => execFileSync('pdftotext', ['-layout', ...extra, file, '-'], { encoding: 'utf8' })
/** A line of text with its runs of spaces made one. */
const squeeze = (text: string): string[] => text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim())

let dir: string
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vb-report-sweep-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('virtbench report on a sweep', () => {
  it('prints the sweep table and its matrices first, then the steps; the CSV has every step, the JSON sweep.json', async () => {
    const [pdf, csv, json] = ['sweep.pdf', 'sweep.csv', 'sweep.json'].map((f) => path.join(dir, f))
    const result = await runCli(['report', SWEEP, '--pdf', pdf!, '--csv', csv!, '--json', json!])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^PDF: .*sweep\.pdf \(\d+ pages, A4/)

    const first = squeeze(pdftotext(pdf!, ['-f', '1', '-l', '1']))
    expect(first).toContain('VIRTBENCH SWEEP REPORT')
    expect(first).toContain('Sweep of vm1 (test), relative to kvm-host')
    // the rows as `virtbench run` printed them at the end of this sweep (tests/fixtures/runs/README.md), verdicts in words
    for (const line of [
      "cache=none, io=threads 2.29 GiB/s 80 % can't tell 12.3k op/s 85 % can't tell",
      "cache=none, io=io_uring 2.58 GiB/s 108 % can't tell 13.8k op/s 167 % faster",
      "cache=writeback, io=threads 2.96 GiB/s 259 % can't tell 11.4k op/s 141 % can't tell",
      "cache=writeback, io=io_uring 1.30 GiB/s 126 % can't tell 10.1k op/s 88 % can't tell",
      // the fio matrix: cache down, io across
      "cache=none 12.3k op/s 85 % can't tell 13.8k op/s 167 % faster"
    ]) {
      expect(first).toContain(line)
    }
    const all = pdftotext(pdf!)
    for (const n of [1, 2, 3, 4]) expect(all).toContain(`Step ${n} of 4: `)
    // the reading paragraph once, not per step
    expect(all.split('Each cell is the guest').length - 1).toBe(1)

    const records = parseCsv(readFileSync(csv!, 'utf8'))
    expect(records[0]!.slice(0, 6)).toEqual(['sweep_id', 'sweep_name', 'step', 'combination', 'factor_cache', 'factor_io'])
    expect(new Set(records.slice(1).map((r) => r[2]))).toEqual(new Set(['01-cache=none_io=threads', '02-cache=none_io=io_uring', '03-cache=writeback_io=threads', '04-cache=writeback_io=io_uring']))
    const doc = JSON.parse(readFileSync(json!, 'utf8')) as { kind: string; record: unknown; steps: { dir: string }[] }
    expect(doc.kind).toBe('virtbench-sweep')
    expect(doc.record).toEqual(JSON.parse(readFileSync(path.join(SWEEP, 'sweep.json'), 'utf8')))
    expect(doc.steps).toHaveLength(4)
  }, 180_000)

  it('redacted: the PDF, CSV and JSON name no machine of any step', async () => {
    const [pdf, csv, json] = ['r.pdf', 'r.csv', 'r.json'].map((f) => path.join(dir, f))
    const result = await runCli(['report', SWEEP, '--redact', '--pdf', pdf!, '--csv', csv!, '--json', json!])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    const record = JSON.parse(readFileSync(path.join(SWEEP, 'sweep.json'), 'utf8')) as { steps: { dir: string; label: string }[] }
    const texts = [pdftotext(pdf!), readFileSync(csv!, 'utf8'), readFileSync(json!, 'utf8')]
    for (const step of record.steps) {
      const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(SWEEP, step.dir, 'run.json'), 'utf8')))
      // the combinations are the scenario, not a machine: they stay
      for (const text of texts) expect(findUnredacted(text, run).filter((left) => !record.steps.some((s) => s.label === left))).toEqual([])
    }
    expect(squeeze(pdftotext(pdf!, ['-f', '1', '-l', '1']))).toContain('Sweep of guest 1 (test), relative to host A')
  }, 180_000)
})

describe('virtbench report on a sweep: --comparison, --overhead-csv and --junit take every combination', () => {
  it("writes each combination's comparison, not only the latest step's, and judges the criteria per combination", async () => {
    // the sweep with a criterion in its plan: fio's random read at least 120 % of the host. Known
    // from the sweep's table: only cache=none, io=io_uring (167 %, interval 134 % to 210 %) passes
    const copy = path.join(dir, 'with-criteria')
    cpSync(SWEEP, copy, { recursive: true })
    const record = JSON.parse(readFileSync(path.join(copy, 'sweep.json'), 'utf8')) as { plan: Record<string, unknown> }
    record.plan.acceptance = { criteria: [{ name: 'random read at least 120 %', scope: { metric: 'fio.read.iops' }, atLeastPct: 120 }] }
    writeFileSync(path.join(copy, 'sweep.json'), JSON.stringify(record, null, 2))
    const [comparison, junit] = ['c.json', 'j.xml'].map((f) => path.join(dir, f))
    const result = await runCli(['report', copy, '--comparison', comparison!, '--overhead-csv', '-', '--junit', junit!])
    // 4: written, and a criterion failed
    expect(result.status, result.stderr).toBe(4)

    const doc = JSON.parse(readFileSync(comparison!, 'utf8')) as { kind: string; combinations: { combination: string; comparison: { rows: { metric: string; verdict: string }[] } }[] }
    expect(doc.kind).toBe('virtbench-sweep-comparison')
    expect(doc.combinations.map((c) => [c.combination, c.comparison.rows.find((r) => r.metric === 'fio.read.iops')!.verdict])).toEqual([
      ['cache=none, io=threads', 'inconclusive'],
      ['cache=none, io=io_uring', 'faster'],
      ['cache=writeback, io=threads', 'inconclusive'],
      ['cache=writeback, io=io_uring', 'inconclusive']
    ])
    const [header, ...rows] = parseCsv(result.stdout)
    expect(header!.slice(0, 4)).toEqual(['combination', 'factor_cache', 'factor_io', 'variant'])
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(doc.combinations.map((c) => c.combination)))

    const xml = readFileSync(junit!, 'utf8')
    const { problems, root } = checkJunit(xml)
    expect(problems).toEqual([])
    expect(root.children.map((s) => [s.attributes.name, s.attributes.failures])).toEqual([
      ['cache x io sweep · cache=none, io=threads', '1'],
      ['cache x io sweep · cache=none, io=io_uring', '0'],
      ['cache x io sweep · cache=writeback, io=threads', '1'],
      ['cache x io sweep · cache=writeback, io=io_uring', '1']
    ])
    expect(result.stderr).toContain('Acceptance of the sweep: FAILED (1 of 4 combinations passed)')
    expect(result.stderr).toContain('cache=none, io=io_uring: Acceptance: PASSED (1 of 1 criterion passed)')
  }, 60_000)
})

describe('runs:report on a sweep in the app’s data folder', () => {
  it('prints the sweep’s report, its table first; runs:sweep gives sweep.json for the JSON export', async () => {
    const dataDir = path.join(dir, 'data')
    cpSync(SWEEP, path.join(dataDir, 'runs', 'sweep-cache-io'), { recursive: true })
    const api = createApi({
      transport: 'bridge',
      dataDir,
      versions: { node: process.versions.node },
      homeDir: dataDir,
      printReport: (input) => printWithChromium({ browser: findBrowser(), rendererDir: RENDERER_DIR, input })
    })
    const sweep = await dispatch(api.handlers, 'runs:sweep', { id: 'sweep-cache-io' })
    expect(sweep).toMatchObject({ ok: true, value: { sweep: true, total: 4, record: { kind: 'virtbench.sweep', variants: [{ label: 'cache=none, io=threads' }, {}, {}, {}] } } })
    const result = await dispatch(api.handlers, 'runs:report', { id: 'sweep-cache-io', options: {} })
    expect(result.ok, JSON.stringify(result).slice(0, 500)).toBe(true)
    const file = path.join(dir, 'app.pdf')
    writeFileSync(file, Buffer.from((result as { value: { pdf: string } }).value.pdf, 'base64'))
    const first = squeeze(pdftotext(file, ['-f', '1', '-l', '1']))
    expect(first).toContain('Sweep of vm1 (test), relative to kvm-host')
    expect(first).toContain("cache=none, io=io_uring 2.58 GiB/s 108 % can't tell 13.8k op/s 167 % faster")
  }, 180_000)
})
