import { BrowserWindow } from 'electron'
import { PAPER_MM, REPORT_GLOBAL, type ReportInput, type ReportRendered } from '../../shared/report'
import type { PrintResult } from '../report/chromium-printer'
import { ISOLATED_PAGE } from './security'

/**
 * The app's PDF printer: the report page (report.html, the same page `virtbench report` prints)
 * in a hidden, sandboxed window with no preload, drawn from the run and printed with
 * webContents.printToPDF. The window is destroyed whatever happens.
 */
export async function printReportWindow(input: ReportInput, page: { file?: string; url?: string }): Promise<PrintResult> {
  const window = new BrowserWindow({
    show: false,
    width: 900,
    height: 1200,
    // no preload: the page talks to nothing but the one executeJavaScript call below
    webPreferences: { ...ISOLATED_PAGE }
  })
  try {
    if (page.url) await window.loadURL(page.url)
    else await window.loadFile(page.file!)
    const rendered = (await window.webContents.executeJavaScript(`window.${REPORT_GLOBAL}.render(${JSON.stringify(input)})`, true)) as ReportRendered
    const paper = PAPER_MM[input.options.paper]
    const pdf = await window.webContents.printToPDF({
      printBackground: true,
      preferCSSPageSize: true,
      pageSize: { width: paper.width / 25.4, height: paper.height / 25.4 },
      generateDocumentOutline: true,
      generateTaggedPDF: true
    })
    return { pdf, rendered }
  } finally {
    window.destroy()
  }
}
