import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { earlierRunsOf, ReleasePage } from '../../../src/renderer/src/features/release/release-page'
import { RunPage } from '../../../src/renderer/src/features/runs/run-page'
import { useAppStore } from '../../../src/renderer/src/store'
import { summarizeRun, type RunDocument } from '../../../src/shared/model/run'
import { fakeApi, type FakeApi } from '../fake-api'
import { loopbackRun } from '../run-fixture'
import { resetStore } from '../runs/helpers'

/** The loopback run made again at `createdAt`, with the guest's figures multiplied by `factor` (rates; times divided). */
function rerun(id: string, createdAt: string, factor: number, plan?: string): RunDocument {
  const run = loopbackRun()
  const guest = run.targets.find((t) => t.role === 'variant')!.label
  return {
    ...run,
    id,
    name: `${run.name} ${createdAt.slice(0, 10)}`,
    createdAt,
    plan: plan ? { ...run.plan, name: plan } : run.plan,
    jobs: run.jobs.map((j) =>
      j.side !== guest
        ? j
        : { ...j, samples: j.samples.map((s) => ({ ...s, value: s.better === 'higher' ? s.value * factor : s.better === 'lower' ? s.value / factor : s.value })) }
    )
  }
}

const OLDEST = rerun('r-oldest', '2026-09-01T10:00:00.000Z', 1)
const OLD = rerun('r-old', '2026-10-01T10:00:00.000Z', 1)
const OTHER = rerun('r-other', '2026-10-15T10:00:00.000Z', 1, 'another preset')
const NEW = rerun('r-new', '2026-11-01T10:00:00.000Z', 0.5)
const LATER = rerun('r-later', '2026-11-20T10:00:00.000Z', 1)
const RUNS = [OLDEST, OLD, OTHER, NEW, LATER]

function api(): FakeApi {
  return fakeApi({
    'runs:list': () => ({ runs: RUNS.map(summarizeRun), problems: [], active: [] }),
    'runs:get': ({ id }) => {
      const run = RUNS.find((r) => r.id === id)
      if (!run) throw new Error(`no run ${id}`)
      return run
    }
  })
}

describe('earlierRunsOf', () => {
  it('gives the finished runs of the same plan made before the run, newest first', () => {
    expect(earlierRunsOf(NEW, RUNS.map(summarizeRun)).map((r) => r.id)).toEqual(['r-old', 'r-oldest'])
    expect(earlierRunsOf(OLDEST, RUNS.map(summarizeRun))).toEqual([])
  })
})

describe('the release comparison screen', () => {
  it('opens from a finished run\'s page', async () => {
    resetStore(api(), { page: 'run', openRunId: NEW.id })
    render(<RunPage />)
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Compare with an earlier run' }))
    expect(useAppStore.getState().page).toBe('release')
    expect(useAppStore.getState().releaseRunIds).toEqual({ newer: NEW.id, older: undefined })
  })

  it('compares the run with the latest earlier run of its preset, and with another one picked', async () => {
    const user = userEvent.setup()
    resetStore(api(), { page: 'release', releaseRunIds: { newer: NEW.id, older: undefined } })
    render(<ReleasePage />)
    const picker = await screen.findByLabelText(`Old: an earlier run of ${NEW.plan.name}`)
    // not the run of another preset, nor the later run
    expect(within(picker).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['r-old', 'r-oldest'])
    expect((picker as HTMLSelectElement).value).toBe('r-old')
    const heading = await screen.findByRole('heading', { name: /^guest \(cache=none\) against host: / })
    expect(heading.textContent).toMatch(/\d+ regressed/)
    expect(document.querySelector('.release-head')?.textContent).toContain(OLD.name)

    await user.selectOptions(picker, 'r-oldest')
    expect(useAppStore.getState().releaseRunIds).toEqual({ newer: NEW.id, older: 'r-oldest' })
    await waitFor(() => expect(document.querySelector('.release-head')?.textContent).toContain(OLDEST.name))
  })

  it('says so when the preset has no earlier run', async () => {
    resetStore(api(), { page: 'release', releaseRunIds: { newer: OLDEST.id, older: undefined } })
    render(<ReleasePage />)
    expect((await screen.findByRole('note')).textContent).toMatch(/^There is no earlier finished run of .* to compare with/)
    expect(screen.queryByRole('table')).toBeNull()
  })
})
