import { useState, type ReactElement, type RefObject } from 'react'
import { downloadBlob, downloadText } from '../../lib/download'
import { chartFileName, chartPng, chartSvg } from './chart-image'
import './chart-image.css'

type Format = 'svg' | 'png'

/**
 * "SVG" and "PNG": save the chart in `cardRef` as a file for a slide or a ticket, named
 * `<fileStem>-<slug of title>.svg/.png`. A failure is said beside the buttons.
 */
export function ChartImageMenu({
  cardRef,
  title,
  fileStem,
  source = '',
  shown
}: {
  /** The chart's card (ChartCard's section). */
  cardRef: RefObject<HTMLElement | null>
  title: string
  fileStem: string
  /** Where the chart comes from (run, date, targets): a line under the title of the image. */
  source?: string
  /** What the card's controls have chosen, in words (ChartCard's `shown`); by default the selected options. */
  shown?: string
}): ReactElement {
  const [busy, setBusy] = useState<Format | undefined>(undefined)
  const [failure, setFailure] = useState('')

  const save = async (format: Format): Promise<void> => {
    if (busy) return
    setFailure('')
    const card = cardRef.current
    if (!card) {
      setFailure(`Could not save ${title} as ${format.toUpperCase()}: the chart is not on screen.`)
      return
    }
    setBusy(format)
    try {
      const svg = chartSvg(card, { title, ...(shown ? { subtitle: shown } : {}), ...(source ? { source } : {}) })
      const fileName = chartFileName(fileStem, title, format)
      if (format === 'svg') downloadText(fileName, svg, 'image/svg+xml')
      else downloadBlob(fileName, await chartPng(svg))
    } catch (error) {
      setFailure(`Could not save ${title} as ${format.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      setBusy(undefined)
    }
  }

  return (
    <div className="charts-image-menu">
      {(['svg', 'png'] as const).map((format) => (
        <button
          key={format}
          type="button"
          className="button button-small charts-image-button"
          aria-label={`Save ${title} as ${format.toUpperCase()}`}
          aria-disabled={busy !== undefined}
          aria-busy={busy === format}
          onClick={() => void save(format)}
        >
          {format.toUpperCase()}
        </button>
      ))}
      <p role="status" className="charts-image-status">
        {failure}
      </p>
    </div>
  )
}
