/**
 * The number of pages of a PDF Chromium wrote: the /Count of the page tree the catalog points
 * to. Undefined when the file does not say it plainly (compressed object streams): it is only
 * used to tell the user, never to decide anything.
 */
export function pdfPageCount(pdf: Buffer): number | undefined {
  const text = pdf.toString('latin1')
  const catalog = /\/Type\s*\/Catalog\b[^]*?>>/.exec(text)?.[0] ?? ''
  const pagesRef = /\/Pages\s+(\d+)\s+(\d+)\s+R/.exec(catalog) ?? /\/Pages\s+(\d+)\s+(\d+)\s+R/.exec(text.slice(Math.max(0, (catalog ? text.indexOf(catalog) : 0) - 400)))
  if (!pagesRef) return undefined
  const start = text.search(new RegExp(`(^|[\\r\\n])${pagesRef[1]}\\s+${pagesRef[2]}\\s+obj\\b`))
  if (start < 0) return undefined
  const end = text.indexOf('endobj', start)
  const count = /\/Count\s+(\d+)/.exec(text.slice(start, end < 0 ? undefined : end))?.[1]
  return count !== undefined ? Number(count) : undefined
}
