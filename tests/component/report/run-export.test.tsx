/**
 * The app's Export of a run of its own (features/results/export-panel.tsx): the overhead CSV is the
 * comparison the results table shows, as `virtbench report --overhead-csv` writes it, and redacted
 * it names no machine (the recorded loopback run, tests/fixtures/runs/loopback-quick).
 */
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ExportPanel } from '../../../src/renderer/src/features/results/export-panel'
import { compare } from '../../../src/shared/compare'
import { overheadCsv } from '../../../src/shared/export/comparison-rows'
import { findUnredacted, redactRun } from '../../../src/shared/export/redact'
import { reportFileStem } from '../../../src/shared/report'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { captureDownloads, type Downloads } from '../downloads'
import { fakeApi } from '../fake-api'
import { loopbackRun } from '../run-fixture'
import { resetStore } from '../runs/helpers'

const run = loopbackRun()
let downloads: Downloads

beforeEach(() => {
  downloads = captureDownloads()
  resetStore(fakeApi({}))
  render(<ExportPanel run={run} />)
})
afterEach(() => downloads.restore())

describe('exporting the overhead table of a run from the app', () => {
  it('saves the comparison the results show, one row per variant and figure', async () => {
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save overhead CSV' }))
    await waitFor(() => expect(downloads.blobs).toHaveLength(1))
    expect(await downloads.blobs[0]!.text()).toBe(overheadCsv(compare(comparisonInputOf(run))))
    expect(downloads.names).toEqual([`${reportFileStem(run)}-overhead.csv`])
    expect(screen.getByRole('status').textContent).toMatch(/^Saved virtbench-.*-overhead\.csv: one row per variant and figure, with the baseline, the relative %, its 95 % interval and the verdict\.$/)
  })

  it('redacted, names no machine of the run', async () => {
    const user = userEvent.setup()
    await user.click(screen.getByRole('checkbox', { name: /Leave out host names/ }))
    await user.click(screen.getByRole('button', { name: 'Save overhead CSV' }))
    await waitFor(() => expect(downloads.blobs).toHaveLength(1))
    const text = await downloads.blobs[0]!.text()
    expect(text).toBe(overheadCsv(compare(comparisonInputOf(redactRun(run).run))))
    expect(downloads.names).toEqual([`${reportFileStem(run)}-overhead-redacted.csv`])
    expect(findUnredacted(text, run)).toEqual([])
    // the guest by its role's pseudonym, as in the redacted PDF
    expect(text).toContain('\nguest 1 (cache=none),')
    expect(text).not.toContain('\nguest (cache=none),')
    expect(screen.getByRole('status').textContent).toMatch(/-overhead-redacted\.csv:/)
  })
})
