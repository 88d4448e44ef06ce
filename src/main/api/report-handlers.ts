import { reportFileStem, ReportOptionsSchema, type ReportInput, type SweepReport } from '../../shared/report'
import { reportInputOf } from '../../shared/report-input'
import type { RunDocument } from '../../shared/model/run'
import type { PrintResult } from '../report/chromium-printer'
import { pdfPageCount } from '../report/pdf-info'
import { describeRun } from '../tools/describe-run'
import { ApiError } from './api-error'
import type { Handlers } from './dispatch'

/** Prints the report page: webContents.printToPDF in the app, a system Chromium under `virtbench serve`. */
export type ReportPrinter = (input: ReportInput) => Promise<PrintResult>

export interface ReportServices {
  getRun(id: string): Promise<RunDocument>
  /** A sweep's steps with their runs (runs:sweep); undefined for a run of its own. */
  getSweep?(id: string): Promise<SweepReport | undefined>
  /** Absent where nothing can print (the error says what to do). */
  printReport?: ReportPrinter
  appVersion: string
}

/** runs:report: the PDF of a run, as bytes the renderer saves through a download. */
export function createReportHandlers(services: ReportServices): Pick<Handlers, 'runs:report'> {
  return {
    'runs:report': async ({ id, options }) => {
      if (!services.printReport) {
        throw new ApiError('unavailable', 'This VirtBench cannot print PDFs here. Use `virtbench report <run> --pdf <file>` on a machine with Chromium, Chrome or Edge.')
      }
      const run = await services.getRun(id)
      // a sweep's report opens with its table, from every step (docs/export.md#a-sweep)
      const sweep = run.plan.sweep ? await services.getSweep?.(id) : undefined
      const steps = sweep?.steps.map(({ run: step, ...rest }) => ({ ...rest, ...(step ? { run: describeRun(step) } : {}) }))
      const input = reportInputOf(run, ReportOptionsSchema.parse(options), { appVersion: services.appVersion, now: new Date() }, sweep && steps ? { total: sweep.total, steps } : undefined)
      const started = performance.now()
      let result: PrintResult
      try {
        result = await services.printReport(input)
      } catch (error) {
        throw new ApiError('failed', `The PDF could not be made: ${(error as Error).message}`)
      }
      const pages = pdfPageCount(result.pdf)
      return {
        fileName: `${reportFileStem(input.run)}.pdf`,
        pdf: result.pdf.toString('base64'),
        bytes: result.pdf.length,
        ...(pages !== undefined ? { pages } : {}),
        charts: result.rendered.charts,
        seconds: (performance.now() - started) / 1000
      }
    }
  }
}
