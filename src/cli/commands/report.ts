import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { runCsv, sweepCsv } from '../../shared/export/csv'
import { sweepComparisonInput } from '../../shared/export/sweep-comparison'
import { sweepJson } from '../../shared/export/sweep-json'
import { reportInputOf } from '../../shared/report-input'
import { PAPER_SIZES, ReportOptionsSchema, type PaperSize, type ReportOptions } from '../../shared/report'
import { ReportPrintError, startChromiumPrinter, type ChromiumPrinter } from '../../main/report/chromium-printer'
import { BrowserNotFoundError, findBrowser } from '../../main/report/find-browser'
import { describeRun } from '../../main/tools/describe-run'
import { writeFileAtomic } from '../../main/fs/atomic-file'
import { pdfPageCount } from '../../main/report/pdf-info'
import { runOutputs, sweepOutputs } from '../comparison-outputs'
import { isSweepFolder, readRun, readSweep, RunFileError, type SweepFolder } from '../../main/store/run-store'
import type { CliCommand, CliIo } from '../io'
import { builtRendererDir } from '../renderer-dir'
import { UsageError } from '../usage-error'
import { REPORT_CRITERIA_FAILED_EXIT, reportVerdict, requireCriteria } from '../acceptance'


export const reportCommand: CliCommand = {
  name: 'report',
  usage: `Usage: virtbench report RUN [--pdf FILE] [--csv FILE] [--json FILE]
                        [--comparison FILE] [--overhead-csv FILE] [--junit FILE] [options]

RUN is a run's folder (as written by virtbench run --out, or in the app's data
directory) or its run.json, or a sweep's folder (its sweep.json and a run folder
per step): then the PDF opens with the sweep's table, the CSV has every step's
rows with the combination's factors, the JSON holds sweep.json and every step,
--comparison and --overhead-csv every combination's rows, and --junit judges each
combination (a test suite per combination). At least one output is needed.

  --pdf FILE           the comparison report: title page, summary with the primary
                       figures, their 95 % intervals and verdicts, one section per test
                       with charts and the overhead table, network tables, environment,
                       the exact commands (the same page the app prints)
  --csv FILE           tidy rows: one measured value per row (docs/export.md)
  --json FILE          the run document
  --comparison FILE    the comparison as JSON: one row per variant and metric with
                       baseline, value, relativePct, ciLow, ciHigh, n, verdict, flags
  --overhead-csv FILE  the same rows as CSV (the overhead table for a spreadsheet)
  --junit FILE         the run's acceptance criteria judged, as JUnit XML (one test case
                       per criterion; the verdicts are printed on stderr)
                       (any of --csv, --json, --comparison, --overhead-csv may be -,
                       standard output, one of them at a time)

Options:
  --paper SIZE      ${PAPER_SIZES.join(' or ')} (default a4)
  --redact          leave host names and addresses out of every output
  --author NAME     who ran the comparison, on the title page
  --browser PATH    the Chromium, Chrome or Edge to print with (default: found on
                    this system, or $VIRTBENCH_BROWSER)
  --renderer-dir DIR  the built report page (default: the one next to this CLI)
  -h, --help        this help

Exit codes: 0 written; 1 printing failed; 2 bad arguments or an unreadable run;
3 no browser found for --pdf (the CSV and JSON were still written);
4 everything was written, and an acceptance criterion failed (--junit).`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        pdf: { type: 'string' },
        csv: { type: 'string' },
        json: { type: 'string' },
        comparison: { type: 'string' },
        'overhead-csv': { type: 'string' },
        junit: { type: 'string' },
        paper: { type: 'string' },
        redact: { type: 'boolean' },
        author: { type: 'string' },
        browser: { type: 'string' },
        'renderer-dir': { type: 'string' }
      },
      strict: true,
      allowPositionals: true
    })
    if (positionals.length !== 1) throw new UsageError('give exactly one run: its folder or its run.json')
    const texts = [values.csv, values.json, values.comparison, values['overhead-csv'], values.junit]
    if (!values.pdf && texts.every((t) => t === undefined)) {
      throw new UsageError('say what to write: --pdf FILE, --csv FILE, --json FILE, --comparison FILE, --overhead-csv FILE and/or --junit FILE')
    }
    if (values.pdf === '-') throw new UsageError('--pdf needs a file name (a PDF is not written to standard output)')
    if (texts.filter((t) => t === '-').length > 1) throw new UsageError('only one of --csv, --json, --comparison, --overhead-csv and --junit can go to standard output')
    if (values.paper !== undefined && !(PAPER_SIZES as readonly string[]).includes(values.paper.toLowerCase())) {
      throw new UsageError(`--paper must be ${PAPER_SIZES.join(' or ')}, not "${values.paper}"`)
    }
    const options = ReportOptionsSchema.safeParse({
      paper: (values.paper?.toLowerCase() ?? 'a4') as PaperSize,
      redact: values.redact ?? false,
      ...(values.author !== undefined ? { author: values.author } : {})
    })
    if (!options.success) throw new UsageError(`--author: ${options.error.issues[0]?.message ?? 'not a name'}`)

    // with --pdf, the browser starts and loads the report page while the run is read and compared
    const printer = values.pdf ? startPrinterEarly(values, io) : undefined
    try {
      return await writeOutputs(values, positionals[0]!, options.data, io, printer)
    } finally {
      await printer?.close()
    }
  }
}

/** The outputs asked for (the parsed arguments of reportCommand). */
interface ReportOutputs {
  pdf?: string
  csv?: string
  json?: string
  comparison?: string
  'overhead-csv'?: string
  junit?: string
  browser?: string
  'renderer-dir'?: string
}

/** The browser for --pdf, started before the run is read; none when it cannot be found (writeOutputs then says why). */
function startPrinterEarly(values: ReportOutputs, io: CliIo): ChromiumPrinter | undefined {
  try {
    const browser = browserOf(values, io)
    const rendererDir = rendererDirOf(values)
    return existsSync(path.join(rendererDir, 'report.html')) ? startChromiumPrinter({ browser, rendererDir }) : undefined
  } catch {
    return undefined
  }
}

const browserOf = (values: ReportOutputs, io: CliIo): string => findBrowser({ ...(values.browser !== undefined ? { explicit: values.browser } : {}), env: io.env })

const rendererDirOf = (values: ReportOutputs): string => (values['renderer-dir'] ? path.resolve(values['renderer-dir']) : builtRendererDir())

async function writeOutputs(values: ReportOutputs, given: string, data: ReportOptions, io: CliIo, early: ChromiumPrinter | undefined): Promise<number> {
  const source = path.resolve(given)
  const isFile = existsSync(source) && statSync(source).isFile()
  if (isFile && path.basename(source) !== 'run.json') {
    io.stderr(`virtbench report: ${source} is not a run.json; give the run's folder or its run.json.\n`)
    return 2
  }
  const dir = isFile ? path.dirname(source) : source
  let run
  let sweep: SweepFolder | undefined
  try {
    sweep = isSweepFolder(dir) ? await readSweep(dir) : undefined
    run = describeRun(sweep ? sweep.run() : await readRun(dir))
  } catch (error) {
    const why = error instanceof RunFileError ? error.message : (error as Error).message
    io.stderr(`virtbench report: cannot read the ${sweep || isSweepFolder(dir) ? 'sweep' : 'run'} at ${source}: ${why}\n`)
    return 2
  }

  if (values.junit !== undefined) requireCriteria(run, `the run at ${source}`)
  // a sweep: every step's run, described as the run is (docs/export.md#a-sweep)
  const steps = sweep?.steps.map(({ run: step, ...rest }) => ({ ...rest, ...(step ? { run: describeRun(step) } : {}) }))
  const input = reportInputOf(run, data, { appVersion: __APP_VERSION__, now: new Date() }, sweep && steps ? { total: sweep.total, steps } : undefined)
  if (values.json) {
    const json = sweep && steps ? sweepJson({ run, record: sweep.record, total: sweep.total, steps }, { redact: data.redact }) : `${JSON.stringify(input.run, null, 2)}\n`
    await output(values.json, json, io, 'JSON')
  }
  if (values.csv) await output(values.csv, input.sweep ? sweepCsv({ run: input.run, steps: input.sweep.steps }) : runCsv(input.run), io, 'CSV')
  let criteriaFailed = false
  if (values.comparison || values['overhead-csv'] || values.junit) {
    // a sweep's every combination, as its table compares them, not only the latest step
    const outputs = input.sweep ? sweepOutputs(input.run, sweepComparisonInput(input.run, input.sweep.steps)) : runOutputs(input.run)
    if (values.comparison) await output(values.comparison, outputs.comparisonJson(), io, 'Comparison')
    if (values['overhead-csv']) await output(values['overhead-csv'], outputs.overheadCsv(), io, 'Overhead CSV')
    const verdict = values.junit !== undefined ? outputs.verdict() : undefined
    if (verdict) {
      const runDir = data.redact ? undefined : dir
      await reportVerdict(verdict, values.junit === '-' ? undefined : values.junit, io, { ...(runDir ? { runDir } : {}), printTo: 'stderr' })
      if (values.junit === '-') io.stdout(verdict.junit(runDir))
      criteriaFailed = !verdict.passed
    }
  }
  if (!values.pdf) return criteriaFailed ? REPORT_CRITERIA_FAILED_EXIT : 0

  let browser: string
  try {
    browser = browserOf(values, io)
  } catch (error) {
    if (!(error instanceof BrowserNotFoundError)) throw error
    io.stderr(`virtbench report: ${error.message}\n`)
    return 3
  }
  const rendererDir = rendererDirOf(values)
  if (!existsSync(path.join(rendererDir, 'report.html'))) {
    io.stderr(`virtbench report: the report page is missing (${path.join(rendererDir, 'report.html')}); build the app first (npm run build) or give --renderer-dir.\n`)
    return 2
  }
  const started = performance.now()
  const printer = early ?? startChromiumPrinter({ browser, rendererDir })
  try {
    const { pdf, rendered } = await printer.print(input)
    // the PDF is written while the browser stops
    const closed = printer.close()
    await writeFileAtomic(path.resolve(values.pdf), pdf, { fileMode: EXPORT_FILE_MODE })
    await closed
    const seconds = (performance.now() - started) / 1000
    const pages = pdfPageCount(pdf)
    io.stdout(
      `PDF: ${path.resolve(values.pdf)} (${pages !== undefined ? `${pages} pages, ` : ''}${data.paper === 'a4' ? 'A4' : 'Letter'}, ${rendered.charts} charts, ${kib(pdf.length)}, made in ${seconds.toFixed(1)} s with ${browser})\n`
    )
    return criteriaFailed ? REPORT_CRITERIA_FAILED_EXIT : 0
  } catch (error) {
    if (!(error instanceof ReportPrintError)) throw error
    io.stderr(`virtbench report: ${error.message}\n`)
    return 1
  } finally {
    await printer.close()
  }
}

/** Exports are for sharing: readable as any file the user writes (the umask still applies). */
const EXPORT_FILE_MODE = 0o666

function kib(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}

async function output(target: string, text: string, io: CliIo, what: string): Promise<void> {
  if (target === '-') {
    io.stdout(text)
    return
  }
  const file = path.resolve(target)
  await writeFileAtomic(file, text, { fileMode: EXPORT_FILE_MODE })
  io.stderr(`${what}: ${file}\n`)
}
