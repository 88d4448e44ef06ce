import type { RunDocument } from '../../../../shared/model/run'

/** "loopback-quick-comparison-20261121-004506-13e070.json" */
export function exportFileName(run: Pick<RunDocument, 'id' | 'name'>): string {
  const slug = run.name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `${slug ? `${slug}-` : ''}${run.id}.json`
}

/**
 * Saves a run document as a .json file through the browser's download (works the same in the
 * desktop window and under `virtbench serve`). The raw outputs are not in it; the archive export
 * (runs:export) carries those.
 */
export function downloadRunDocument(run: RunDocument): string {
  const name = exportFileName(run)
  const blob = new Blob([`${JSON.stringify(run, null, 2)}\n`], { type: 'application/json' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked later: some engines read the URL after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
  return name
}
