import type { RunDocument } from '../../../shared/model/run'
import { downloadText } from './download'

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
  downloadText(name, `${JSON.stringify(run, null, 2)}\n`)
  return name
}
