import { reportFileStem, ReportOptionsSchema, type ReportInput } from '../../shared/report'
import { reportInputOf } from '../../shared/report-input'
import type { RunDocument } from '../../shared/model/run'
import type { PrintResult } from '../report/chromium-printer'
import { pdfPageCount } from '../report/pdf-info'
import { ApiError } from './api-error'
import type { Handlers } from './dispatch'

/** Prints the report page: webContents.printToPDF in the app, a system Chromium under `virtbench serve`. */
export type ReportPrinter = (input: ReportInput) => Promise<PrintResult>

export interface ReportServices {
  getRun(id: string): Promise<RunDocument>
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
      const input = reportInputOf(run, ReportOptionsSchema.parse(options), { appVersion: services.appVersion, now: new Date() })
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
