import '@fontsource/inter/400.css'
import '@fontsource/inter/600.css'
import '@fontsource/inter/700.css'
import '@fontsource/jetbrains-mono/400.css'
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { REPORT_GLOBAL, ReportInputSchema, type ReportRendered } from '../../../shared/report'
import { ReportDocument } from './sweep-report'
import { pageStyle } from './page-style'
import '../features/charts/palette.css'
import './report.css'

/**
 * The report page's entry (report.html). It draws nothing until whoever prints it (the app's
 * hidden window, or `virtbench report` over Chromium's DevTools pipe) calls
 * `window.virtbenchReport.render(input)`; the promise resolves once every chart has settled and
 * the fonts are loaded, so the PDF never catches a half-drawn page. The page is drawn in one
 * synchronous pass and not laid out on screen (report.css hides it there; printing lays it out for the paper):
 * only a chart drawn by recharts (the host monitor's) needs frames to settle, and only then does
 * the page wait for them.
 */

declare global {
  interface Window {
    [REPORT_GLOBAL]?: { render(input: unknown): Promise<ReportRendered> }
  }
}

/** The faces the report uses (report.css): asked for before drawing, so they load while React draws instead of after. */
const FACES = ['400 12px Inter', '600 12px Inter', '700 12px Inter', "400 12px 'JetBrains Mono'"]

/**
 * Loads every face in every character range (Inter's Greek, Latin Extended…) that `text` needs:
 * without a layout nothing else asks for them, and the printed page would fall back to another
 * font for a "Δ".
 */
function loadFaces(text: string): Promise<unknown> {
  const characters = [...new Set(text)].join('')
  return Promise.all(FACES.map((face) => document.fonts.load(face, characters).catch(() => [])))
}

const nextFrame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => resolve()))

/** Resolves once the DOM has not changed for `quietFrames` frames in a row (charts laying out), or after `maxMs`. */
async function settled(root: HTMLElement, quietFrames = 3, maxMs = 15_000): Promise<void> {
  const seen = { changed: false }
  const observer = new MutationObserver(() => (seen.changed = true))
  observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true })
  const start = performance.now()
  let quiet = 0
  try {
    while (quiet < quietFrames && performance.now() - start < maxMs) {
      seen.changed = false
      await nextFrame()
      quiet = seen.changed ? 0 : quiet + 1
    }
  } finally {
    observer.disconnect()
  }
}

async function render(raw: unknown): Promise<ReportRendered> {
  const parsed = ReportInputSchema.safeParse(raw)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    throw new Error(`The report was given a run it cannot read: ${first ? `${first.path.join('.') || 'input'}: ${first.message}` : 'invalid input'}.`)
  }
  const input = parsed.data
  const container = document.getElementById('report-root')
  if (!container) throw new Error('report.html has no #report-root element')
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageStyle(input)]
  document.title = `${input.run.name}: VirtBench comparison report`
  // the run's own text (names, labels, commands) says which character ranges to fetch while React draws
  const fonts = loadFaces(JSON.stringify(raw))
  const root = createRoot(container)
  flushSync(() => root.render(<ReportDocument input={input} />))
  if (container.querySelector('.recharts-wrapper')) await settled(container)
  await fonts
  await loadFaces(container.textContent ?? '')
  await document.fonts.ready
  return {
    title: document.title,
    sections: [...container.querySelectorAll<HTMLElement>('[data-section]')].map((el) => el.dataset.section ?? ''),
    charts: container.querySelectorAll('.charts-card').length
  }
}

window[REPORT_GLOBAL] = { render }
