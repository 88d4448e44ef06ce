import { execFileSync } from 'node:child_process'
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compare } from '../../../src/shared/compare'
import { parseCsv } from '../../../src/shared/export/csv'
import { findUnredacted } from '../../../src/shared/export/redact'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { describeRun } from '../../../src/main/tools/describe-run'
import { formatPct, formatValue } from '../../../src/shared/format'
import { RESULTS_DIR, ROOT } from '../../harness/paths'
import { runCli, type CliResult } from '../../harness/cli'
import { startSshd, type SshdServer } from '../../harness/sshd'

/**
 * `virtbench report` on a real run (two real sshd, a quick pack) and on the recorded loopback run:
 * the PDF read back with poppler's own tools (pdftotext, pdfinfo, pdffonts, pdftoppm), the CSV
 * parsed back to the run's numbers, the redacted outputs searched for every host name and address.
 */

const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCli(args, env)

const pdftotext = (file: string, extra: string[] = []): string => execFileSync('pdftotext', ['-layout', ...extra, file, '-'], { encoding: 'utf8' })
function pdfinfo(file: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of execFileSync('pdfinfo', [file], { encoding: 'utf8' }).split('\n')) {
    const m = /^([^:]+):\s+(.*)$/.exec(line)
    if (m) out[m[1]!] = m[2]!
  }
  return out
}
/** pdffonts' table: name, type, and whether each font is embedded. */
function pdffonts(file: string): { name: string; embedded: boolean }[] {
  const lines = execFileSync('pdffonts', [file], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean)
  return lines.map((line) => {
    const cols = line.trim().split(/\s+/)
    // name type [type...] encoding emb sub uni object ID: emb is the 5th column from the end
    return { name: cols[0]!, embedded: cols[cols.length - 5] === 'yes' }
  })
}

const FIXTURE = path.join(ROOT, 'tests/fixtures/runs/loopback-quick')

describe('virtbench report', () => {
  let host: SshdServer
  let guest: SshdServer
  let dir: string
  let runDir: string
  let run: RunDocument

  beforeAll(async () => {
    ;[host, guest] = await Promise.all([startSshd(), startSshd()])
    appendFileSync(path.join(guest.dir, 'authorized_keys'), readFileSync(`${host.privateKeyPath}.pub`))
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-report-'))
    const dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
    runDir = path.join(dir, 'run')
    const result = await cli([
      'run',
      '--baseline', `phys=ssh://${host.username}@127.0.0.1:${host.port}`,
      '--variant', `vm=ssh://${guest.username}@127.0.0.1:${guest.port}`,
      '--identity', host.privateKeyPath,
      '--data-dir', dataDir,
      '--accept-new-host-keys',
      '--pack', 'block-dd', '--quick', '--repeat', '2',
      '--work-dir', path.join(dir, 'work'),
      '--out', runDir
    ])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')))
  }, 120_000)

  afterAll(async () => {
    await Promise.all([host?.stop(), guest?.stop()])
    rmSync(dir, { recursive: true, force: true })
  })

  it('prints a real run to an A4 PDF with every section, the figures the comparison computed, embedded fonts and numbered pages', async () => {
    const pdf = path.join(dir, 'report.pdf')
    const result = await cli(['report', runDir, '--pdf', pdf, '--author', 'Storage team'])
    expect(result.status, result.stderr).toBe(0)
    const info = pdfinfo(pdf)
    expect(info['Page size']).toMatch(/^594\.96 x 841\.92 pts \(A4\)/)
    const pages = Number(info.Pages)
    // the answer, the figures of each category, the environment and the method; no page per test since issue 18
    expect(pages).toBeGreaterThanOrEqual(3)
    expect(result.stdout).toMatch(new RegExp(`^PDF: ${pdf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(${pages} pages, A4, \\d+ charts, \\d+ KiB, made in \\d+\\.\\d s with /`, 'm'))

    const text = pdftotext(pdf)
    // title page
    const first = pdftotext(pdf, ['-l', '1'])
    expect(first).toContain('VIRTBENCH COMPARISON REPORT')
    expect(first).toContain(run.name)
    expect(first).toMatch(/Baseline\s+phys/)
    expect(first).toMatch(/Variant\s+vm/)
    expect(first).toMatch(/Prepared by\s+Storage team/)
    expect(first).toMatch(/by VirtBench \d+\.\d+\.\d+/)
    // every section, in order
    const order = ['Contents', 'Summary', ...run.tests.map((t) => t.title), 'Environment', 'Method', 'Commands run on each target']
    let at = 0
    for (const heading of order) {
      const found = text.indexOf(heading, at)
      expect(found, `section "${heading}" after offset ${at}`).toBeGreaterThanOrEqual(0)
      at = found
    }
    // the key figures: each dd bandwidth as the comparison computes it, and its relative %
    const comparison = compare(comparisonInputOf(run))
    const rows = comparison.rows.filter((r) => r.metric === 'dd.bandwidth')
    expect(rows.length).toBe(run.tests.length)
    for (const row of rows) {
      expect(text).toContain(formatValue(row.baseline!.value, row.unit))
      expect(text).toContain(formatValue(row.cells[0]!.stats!.value, row.unit))
      expect(text).toContain(formatPct(row.cells[0]!.relativePct!))
    }
    // the exact commands, as run
    const measured = run.jobs[0]!.steps.find((s) => s.measured)!
    expect(text.replace(/\s+/g, ' ')).toContain(measured.command.split('\n')[0]!.replace(/\s+/g, ' ').slice(0, 60))
    // page numbers on the pages
    expect(text).toContain(`Page 2 of ${pages}`)
    expect(text).toContain(`Page ${pages} of ${pages}`)

    // fonts: every one embedded
    const fonts = pdffonts(pdf)
    expect(fonts.length).toBeGreaterThan(0)
    expect(fonts.filter((f) => !f.embedded)).toEqual([])
    expect(fonts.map((f) => f.name).join(' ')).toMatch(/Inter-Regular/)

    // pages rendered to PNG, for people to look at (test-results/report-*.png)
    mkdirSync(RESULTS_DIR, { recursive: true })
    const prefix = path.join(RESULTS_DIR, 'report-page')
    for (const f of readdirSync(RESULTS_DIR).filter((f) => f.startsWith('report-page'))) rmSync(path.join(RESULTS_DIR, f))
    execFileSync('pdftoppm', ['-r', '60', '-png', '-l', '4', pdf, prefix])
    const pngs = readdirSync(RESULTS_DIR).filter((f) => f.startsWith('report-page') && f.endsWith('.png'))
    expect(pngs.length).toBe(Math.min(4, pages))
    for (const png of pngs) expect(statSync(path.join(RESULTS_DIR, png)).size).toBeGreaterThan(5_000)
  })

  it('prints Letter when asked, and --redact leaves no host name or address of the run in the PDF, the CSV or the JSON', async () => {
    const pdf = path.join(dir, 'redacted.pdf')
    const csv = path.join(dir, 'redacted.csv')
    const json = path.join(dir, 'redacted.json')
    const result = await cli(['report', path.join(FIXTURE, 'run.json'), '--pdf', pdf, '--csv', csv, '--json', json, '--paper', 'letter', '--redact'])
    expect(result.status, result.stderr).toBe(0)
    expect(pdfinfo(pdf)['Page size']).toMatch(/^612 x 792 pts \(letter\)/)
    const fixture = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(FIXTURE, 'run.json'), 'utf8')))
    const text = pdftotext(pdf)
    expect(findUnredacted(text, fixture)).toEqual([])
    expect(findUnredacted(readFileSync(csv, 'utf8'), fixture)).toEqual([])
    expect(findUnredacted(readFileSync(json, 'utf8'), fixture)).toEqual([])
    expect(text).toMatch(/Host names and addresses are redacted \(\d+ host names?, \d+ addresses/)
    expect(text).toContain('<address-1>')
    // the same report without --redact does carry them: the check above can fail
    const plain = path.join(dir, 'plain.pdf')
    expect((await cli(['report', FIXTURE, '--pdf', plain])).status).toBe(0)
    expect(findUnredacted(pdftotext(plain), fixture)).toContain('127.0.0.1')
  })

  it('--redact also gives targets named by their ssh aliases pseudonyms by role, in the PDF, the CSV and the JSON', async () => {
    // the recorded run as people name targets: by the aliases of their ~/.ssh/config
    const aliased = path.join(dir, 'aliased-run')
    cpSync(FIXTURE, aliased, { recursive: true })
    const json = readFileSync(path.join(FIXTURE, 'run.json'), 'utf8')
      .replaceAll('"host"', '"prod-hv-03"')
      .replaceAll('"guest (cache=none)"', '"web-vm-7 (cache=none)"')
      .replaceAll('"guest"', '"web-vm-7"')
      .replaceAll('Loopback quick comparison', 'prod-hv-03 against web-vm-7')
    writeFileSync(path.join(aliased, 'run.json'), json)
    const original = RunDocumentSchema.parse(JSON.parse(json))
    const out = { pdf: path.join(dir, 'aliased.pdf'), csv: path.join(dir, 'aliased.csv'), json: path.join(dir, 'aliased.json') }
    const result = await cli(['report', aliased, '--pdf', out.pdf, '--csv', out.csv, '--json', out.json, '--redact'])
    expect(result.status, result.stderr).toBe(0)
    const texts = { pdf: pdftotext(out.pdf), csv: readFileSync(out.csv, 'utf8'), json: readFileSync(out.json, 'utf8') }
    for (const [what, text] of Object.entries(texts)) {
      expect(findUnredacted(text, original), what).toEqual([])
      for (const alias of ['prod-hv-03', 'web-vm-7']) expect(text.includes(alias), `${what}: ${alias}`).toBe(false)
    }
    expect(texts.pdf).toContain('host A against guest 1')
    expect(texts.pdf).toContain('guest 1 (cache=none)')
    // unredacted, the same PDF does carry them: the check above can fail
    const plain = path.join(dir, 'aliased-plain.pdf')
    expect((await cli(['report', aliased, '--pdf', plain])).status).toBe(0)
    expect(findUnredacted(pdftotext(plain), original)).toEqual(expect.arrayContaining(['prod-hv-03', 'web-vm-7']))
  })

  it('the recorded loopback run has its network matrix, host monitor and every test in the PDF', async () => {
    const pdf = path.join(dir, 'loopback.pdf')
    expect((await cli(['report', FIXTURE, '--pdf', pdf])).status).toBe(0)
    const text = pdftotext(pdf)
    // two machines: the matrix is two figures a metric, a table; the host monitor kept one average per job, figures in a
    // table (a chart of one bar had nothing to draw)
    expect(text).toContain('Network matrix: each machine to the other')
    expect(text).toContain('Disk activity during the jobs (host monitor')
    expect(text).not.toContain('Host monitor: guest-visible and host-visible I/O')
    expect(text).toContain('Relative to the baseline')
    expect(text).toContain('Latency')
    for (const section of ['Storage', 'Network', 'Memory']) expect(text).toMatch(new RegExp(`^\\s*${section}\\s*$`, 'm'))
  })

  it('--csv writes tidy rows that parse back to the run document numbers exactly; --json - writes the run document', async () => {
    const csvFile = path.join(dir, 'run.csv')
    const result = await cli(['report', runDir, '--csv', csvFile, '--json', '-'])
    expect(result.status, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(readFileSync(path.join(runDir, 'run.json'), 'utf8')))
    const [header, ...rows] = parseCsv(readFileSync(csvFile, 'utf8'))
    expect(header!.slice(0, 5)).toEqual(['run_id', 'run_name', 'target', 'role', 'side'])
    const col = (name: string): number => header!.indexOf(name)
    const samples = run.jobs.filter((j) => j.status === 'succeeded').flatMap((j) => j.samples.map((s) => ({ j, s })))
    expect(rows.length).toBe(samples.length)
    rows.forEach((row, i) => {
      const { j, s } = samples[i]!
      expect(row[col('target')]).toBe(j.target)
      expect(row[col('metric')]).toBe(s.metric)
      expect(row[col('unit')]).toBe(s.unit)
      expect(Number(row[col('repetition')])).toBe(j.repetition)
      expect(Number(row[col('value')])).toBe(s.value)
    })
  })

  it('--comparison writes one row per variant and metric with its verdict; --overhead-csv the same rows for a spreadsheet', async () => {
    const json = path.join(dir, 'comparison.json')
    const csv = path.join(dir, 'overhead.csv')
    const result = await cli(['report', FIXTURE, '--comparison', json, '--overhead-csv', csv])
    expect(result.status, result.stderr).toBe(0)
    // what the app computes from the same run, described as main serves it
    const expected = compare(comparisonInputOf(describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(FIXTURE, 'run.json'), 'utf8'))))))
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { kind: string; marginPct: number; rows: Record<string, unknown>[] }
    expect(doc.kind).toBe('virtbench-comparison')
    expect(doc.marginPct).toBe(3)
    expect(doc.rows).toHaveLength(expected.rows.length * expected.variants.length)
    const iops = expected.rows.find((r) => r.metric === 'fio.read.iops' && Object.keys(r.labels).length === 0)!
    const cell = iops.cells[0]!
    expect(doc.rows.find((r) => r.metric === 'fio.read.iops' && Object.keys(r.labels as object).length === 0)).toMatchObject({
      variant: cell.variant,
      test: iops.testId,
      unit: 'op/s',
      primary: true,
      baseline: iops.baseline!.value,
      value: cell.stats!.value,
      relativePct: cell.relativePct,
      ciLow: cell.ci95![0],
      ciHigh: cell.ci95![1],
      n: cell.stats!.n,
      verdict: cell.verdict
    })
    // a count is a difference: ping's loss 0 against 0 is the same, with no relative %
    const loss = doc.rows.find((r) => r.metric === 'ping.loss')!
    expect(loss).toMatchObject({ comparison: 'difference', difference: 0, verdict: 'same' })
    expect(loss).not.toHaveProperty('relativePct')
    const rows = parseCsv(readFileSync(csv, 'utf8'))
    expect(rows[0]?.slice(0, 4)).toEqual(['variant', 'test', 'test_title', 'metric'])
    expect(rows).toHaveLength(doc.rows.length + 1)
    const csvIops = rows.find((r) => r[3] === 'fio.read.iops' && r[4] === '')!
    expect(Number(csvIops[12])).toBe(cell.relativePct)
    expect(csvIops[19]).toBe(cell.verdict)
  })

  it('says what is wrong: no browser at --browser, no output asked, a folder that holds no run', async () => {
    const missing = await cli(['report', runDir, '--pdf', path.join(dir, 'x.pdf'), '--csv', path.join(dir, 'x.csv'), '--browser', path.join(dir, 'no-such-chromium')])
    expect(missing.status).toBe(3)
    expect(missing.stderr).toContain('no-such-chromium: no executable file there')
    // the CSV asked for beside it was still written
    expect(existsSync(path.join(dir, 'x.csv'))).toBe(true)
    expect(existsSync(path.join(dir, 'x.pdf'))).toBe(false)

    const nothing = await cli(['report', runDir])
    expect(nothing.status).toBe(2)
    expect(nothing.stderr).toContain('say what to write: --pdf FILE, --csv FILE, --json FILE, --comparison FILE, --overhead-csv FILE and/or --junit FILE')

    const empty = path.join(dir, 'empty')
    mkdirSync(empty)
    const noRun = await cli(['report', empty, '--json', '-'])
    expect(noRun.status).toBe(2)
    expect(noRun.stderr).toContain(`cannot read the run at ${empty}`)

    const paper = await cli(['report', runDir, '--pdf', path.join(dir, 'y.pdf'), '--paper', 'a3'])
    expect(paper.status).toBe(2)
    expect(paper.stderr).toContain('--paper must be a4 or letter, not "a3"')
  })
})
