/**
 * The app's Export of a sweep (features/results/export-panel.tsx): the CSV and the JSON carry every
 * step of the real sweep in tests/fixtures/runs/sweep-cache-io, read through runs:sweep, not only
 * the latest step that runs:get gives.
 */
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ExportPanel } from '../../../src/renderer/src/features/results/export-panel'
import { parseCsv, runCsvRows } from '../../../src/shared/export/csv'
import { captureDownloads, type Downloads } from '../downloads'
import { fakeApi } from '../fake-api'
import { resetStore } from '../runs/helpers'
import { SWEEP_DIR, sweepFixture } from './sweep-fixture'

const sweep = sweepFixture()
let downloads: Downloads

beforeEach(() => {
  downloads = captureDownloads()
  resetStore(fakeApi({ 'runs:sweep': () => ({ sweep: true, plan: sweep.record.plan, total: sweep.steps.length, steps: sweep.steps, record: sweep.record }) }))
  render(<ExportPanel run={sweep.run} />)
})
afterEach(() => downloads.restore())

describe('exporting a sweep from the app', () => {
  it('saves a CSV with every step’s rows, each with its combination’s factor values', async () => {
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save CSV' }))
    await waitFor(() => expect(downloads.blobs).toHaveLength(1))
    const [header, ...rows] = parseCsv(await downloads.blobs[0]!.text())
    expect(header!.slice(0, 6)).toEqual(['sweep_id', 'sweep_name', 'step', 'combination', 'factor_cache', 'factor_io'])
    expect(rows.length).toBe(sweep.steps.reduce((n, s) => n + runCsvRows(s.run).length, 0))
    expect([...new Set(rows.map((r) => `${r[2]} ${r[4]} ${r[5]}`))]).toEqual([
      '01-cache=none_io=threads none threads',
      '02-cache=none_io=io_uring none io_uring',
      '03-cache=writeback_io=threads writeback threads',
      '04-cache=writeback_io=io_uring writeback io_uring'
    ])
    expect(screen.getByRole('status').textContent).toMatch(/one measured value per row, of 4 steps\.$/)
  })

  it('saves the overhead CSV of every combination, each against the baseline of its own step', async () => {
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save overhead CSV' }))
    await waitFor(() => expect(downloads.blobs).toHaveLength(1))
    const [header, ...rows] = parseCsv(await downloads.blobs[0]!.text())
    expect(header!.slice(0, 4)).toEqual(['combination', 'factor_cache', 'factor_io', 'variant'])
    const metric = header!.indexOf('metric')
    const verdict = header!.indexOf('verdict')
    // the sweep table's fio verdicts: only cache=none, io=io_uring read faster (167 %)
    expect(rows.filter((r) => r[metric] === 'fio.read.iops').map((r) => `${r[0]}: ${r[verdict]}`)).toEqual([
      'cache=none, io=threads: inconclusive',
      'cache=none, io=io_uring: faster',
      'cache=writeback, io=threads: inconclusive',
      'cache=writeback, io=io_uring: inconclusive'
    ])
    expect(screen.getByRole('status').textContent).toMatch(/^Saved .*-overhead\.csv: one row per combination, variant and figure/)
  })

  it('saves a JSON with sweep.json’s record and every step’s run', async () => {
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save JSON' }))
    await waitFor(() => expect(downloads.blobs).toHaveLength(1))
    const doc = JSON.parse(await downloads.blobs[0]!.text()) as { kind: string; record: unknown; steps: { dir: string; run: { id: string } }[] }
    expect(doc.kind).toBe('virtbench-sweep')
    expect(doc.record).toEqual(JSON.parse(readFileSync(path.join(SWEEP_DIR, 'sweep.json'), 'utf8')))
    expect(doc.steps.map((s) => s.run.id)).toEqual(sweep.steps.map((s) => s.run.id))
  })
})
