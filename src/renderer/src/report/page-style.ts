import { PAPER_MM, type ReportInput } from '../../../shared/report'

/** A CSS string literal: quotes, backslashes and line breaks escaped. */
export function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n\f]+/g, ' ')}"`
}

/**
 * The page box of the PDF: paper size, margins, and the running footer (the run's name, page n of
 * m) in CSS page-margin boxes, so the app and the CLI number pages the same way. Built as a
 * constructed style sheet: the strict CSP allows no <style> element.
 */
export function pageCss(input: Pick<ReportInput, 'options' | 'run'>): string {
  const paper = PAPER_MM[input.options.paper]
  const footer = 'font-family: Inter, sans-serif; font-size: 8pt; color: #5b6575;'
  return [
    `@page { size: ${paper.css}; margin: 16mm 15mm 18mm 15mm;`,
    `  @bottom-left { content: ${cssString(`VirtBench · ${input.run.name}`)}; ${footer} }`,
    `  @bottom-right { content: "Page " counter(page) " of " counter(pages); ${footer} } }`,
    '@page :first { @bottom-left { content: none; } }'
  ].join('\n')
}

export function pageStyle(input: Pick<ReportInput, 'options' | 'run'>): CSSStyleSheet {
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(pageCss(input))
  return sheet
}
