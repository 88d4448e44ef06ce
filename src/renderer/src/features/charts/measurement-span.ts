/**
 * recharts measures axis and label text in a span it appends to <body> (id
 * `recharts_measurement_span`, at top -20000 px) and leaves there: the last text measured
 * ("23.8 MiB/s") then sits on every later screen, where find-in-page and some screen readers reach
 * it. recharts looks the span up by its id for each measurement and makes a new one when it is
 * gone, and it caches the sizes, so taking it away right after it was used costs nothing.
 */
export const MEASUREMENT_SPAN_ID = 'recharts_measurement_span'

/** Removes recharts' measuring span if it is in the document. */
export function removeMeasurementSpan(doc: Document = document): void {
  doc.getElementById(MEASUREMENT_SPAN_ID)?.remove()
}

let watchers = 0
let observer: MutationObserver | undefined

/**
 * Keeps recharts' measuring span out of the document while at least one chart is shown: removed
 * at once, and again whenever recharts adds it back. Returns the function that stops watching.
 */
export function watchMeasurementSpan(doc: Document = document): () => void {
  watchers++
  removeMeasurementSpan(doc)
  if (!observer && typeof MutationObserver !== 'undefined') {
    observer = new MutationObserver(() => removeMeasurementSpan(doc))
    observer.observe(doc.body, { childList: true })
  }
  let stopped = false
  return () => {
    if (stopped) return
    stopped = true
    watchers--
    // charts measure while they render and unmount: clear what the last one left
    removeMeasurementSpan(doc)
    if (watchers === 0) {
      observer?.disconnect()
      observer = undefined
    }
  }
}
