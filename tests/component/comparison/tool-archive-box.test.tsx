import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { emptyDraft, withBaseline, withVariant, type WizardDraft } from '../../../src/renderer/src/models/wizard-draft'
import { useAppStore } from '../../../src/renderer/src/store'
import { ApiCallError, describeZodError, type AppInfo, type InvokeRequest, type InvokeResponse } from '../../../src/shared/contract'
import { ToolArchiveInputSchema } from '../../../src/shared/tool-archive-contract'
import type { FakeHandlers } from '../fake-api'
import { callsTo, CLEAN_PREFLIGHT, description, okReview, renderWizard, reviewJob } from './wizard-fixtures'

/**
 * "Bring from this computer" on the review step (docs/tools-offline.md): each refusal is shown at
 * the field main names, the file checked is described, and the files given reach plans:preflight
 * and runs:start, never the preset. The payload is checked by the contract's own schema; what main
 * says of a file is its words for these files (tests/unit/main/engine/tool-archives.test.ts checks
 * main's handlers on real files, tests/e2e/tool-archive.test.ts the whole path).
 */

const IOZONE_PINNED = '48f56ab4ef3e2883d98faa1f1203f55d7569f6f06beaa61803e113bd9de0ad2e'

/** The review of a plan running UnixBench and IOzone on both targets. */
const JOBS = [
  { ...reviewJob('j0001', 'unixbench', 'host-01', 'cd ~/byte-unixbench/UnixBench && ./Run'), tool: 'unixbench' as const },
  { ...reviewJob('j0002', 'unixbench', 'vm1', 'cd ~/byte-unixbench/UnixBench && ./Run'), tool: 'unixbench' as const },
  { ...reviewJob('j0003', 'iozone', 'host-01', 'iozone -Raz -g 1M -b out.wks'), tool: 'iozone' as const },
  { ...reviewJob('j0004', 'iozone', 'vm1', 'iozone -Raz -g 1M -b out.wks'), tool: 'iozone' as const }
]

const atReview = { wizardStep: 3 as const, wizardReached: 3 as const, wizardChecked: [true, true, true, true] }

function readyDraft(): WizardDraft {
  const draft = withVariant(withBaseline(emptyDraft(), 'host-01'), 'vm1', true)
  return { ...draft, tests: [{ kind: 'pack', pack: 'cloud-acceptance', form: 'quick', only: undefined }] }
}

type Answer = InvokeResponse<'tools:checkArchive'> | { field: 'path' | 'sha256'; message: string }

/**
 * tools:* as main answers them: the request checked by the contract's schema (its issues as
 * dispatch gives them), then `answers(request)`: the file described, or the field main refuses.
 */
function mainTools(answers: (request: InvokeRequest<'tools:checkArchive'>) => Answer, chooseFile?: () => string): FakeHandlers {
  return {
    'tools:archives': () => ({
      tools: [
        { tool: 'iozone', name: 'IOzone', releases: [{ file: 'iozone3_489.orig.tar.gz', sha256: IOZONE_PINNED, release: "IOzone 3.489, the upstream tarball as Debian's iozone3 489-1 source package ships it" }] },
        { tool: 'unixbench', name: 'UnixBench', releases: [] }
      ]
    }),
    'tools:checkArchive': (payload) => {
      const request = ToolArchiveInputSchema.safeParse(payload)
      if (!request.success) throw new ApiCallError('tools:checkArchive', { code: 'invalid-request', message: 'invalid request', issues: describeZodError(request.error) })
      const answer = answers(request.data)
      if ('field' in answer) throw new ApiCallError('tools:checkArchive', { code: 'invalid-request', message: answer.message, issues: [{ path: answer.field, message: answer.message }] })
      return answer
    },
    'tools:chooseArchive': () => {
      if (!chooseFile) throw new ApiCallError('tools:chooseArchive', { code: 'unavailable', message: 'There is no file dialog in the browser.' })
      return { path: chooseFile() }
    }
  }
}

const field = (name: string): HTMLInputElement => screen.getByLabelText(name)

const DIR = '/home/admin/Downloads'
const archive = `${DIR}/byte-unixbench-6.0.0.tar.gz`
const sha256 = '2bee49c2702c6b750166b1fff4a7822a152515bdc19b63a26cb17d0bc0c3ac5a'

/** Main's words for the files of these tests (src/main/engine/tool-archives.ts). */
function mainWords(request: InvokeRequest<'tools:checkArchive'>): Answer {
  if (request.path === `${DIR}/a-folder`) return { field: 'path', message: `The UnixBench file ${request.path} is a folder; give the source archive itself (a .tar.gz, .tar.xz...) or a program` }
  if (request.path !== archive) return { field: 'path', message: `The UnixBench file ${request.path} does not exist on this computer; give the path of the source archive (or program) you downloaded` }
  if (request.sha256 !== undefined && request.sha256 !== sha256) return { field: 'sha256', message: `The UnixBench file ${archive}: its SHA-256 is ${sha256}, not ${request.sha256} as given: it is another file, or damaged` }
  return { tool: request.tool, path: archive, bytes: 44, sha256, program: false, trust: request.sha256 ? 'given' : 'recorded' }
}

describe('wizard review: tools brought from this computer', () => {
  it('offers a file for each tool built from source that the plan runs, with the pinned release when there is one', async () => {
    renderWizard({ 'plans:review': () => okReview(JOBS, 60), ...mainTools(mainWords) }, { ...atReview, wizardDraft: readyDraft() })
    const iozone = await screen.findByRole('group', { name: 'IOzone: bring from this computer' })
    const unixbench = screen.getByRole('group', { name: 'UnixBench: bring from this computer' })
    await within(iozone).findByText(/^Pinned release: IOzone 3\.489/)
    expect(iozone.textContent).toContain(`iozone3_489.orig.tar.gz, SHA-256 ${IOZONE_PINNED}`)
    expect(unixbench.textContent).toContain('No UnixBench release is pinned: give the SHA-256 published with the file, or its checksum is recorded in the run.')
    // serve (a browser): no file dialog, the path is typed
    expect(screen.queryByRole('button', { name: /^Choose/ })).toBeNull()
  })

  it('shows no such control when the plan runs neither tool', async () => {
    renderWizard({ 'plans:review': () => okReview([reviewJob('j0001', 'dd-throughput', 'host-01', 'dd if=/dev/zero of=ddfile bs=64M count=1')], 6), ...mainTools(mainWords) }, { ...atReview, wizardDraft: readyDraft() })
    await screen.findByText(/^Estimated time/)
    expect(screen.queryByRole('heading', { name: 'Tools from this computer' })).toBeNull()
  })

  it('names the field that is wrong and what to do: missing file, relative path, folder, bad or wrong SHA-256', async () => {
    const user = userEvent.setup()
    renderWizard({ 'plans:review': () => okReview(JOBS, 60), ...mainTools(mainWords) }, { ...atReview, wizardDraft: readyDraft() })
    const file = await screen.findByLabelText('UnixBench source archive or program')
    const sum = field('UnixBench SHA-256 (optional)')

    const errorOf = async (input: HTMLInputElement, text: string | RegExp): Promise<void> => {
      await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'))
      expect(description(input)).toMatch(text)
    }

    await user.type(file, `${DIR}/missing.tar.gz`)
    await user.tab()
    await errorOf(file as HTMLInputElement, `The UnixBench file ${`${DIR}/missing.tar.gz`} does not exist on this computer; give the path of the source archive (or program) you downloaded`)

    await user.clear(file)
    await user.type(file, 'Downloads/ub.tar.gz')
    await user.tab()
    await errorOf(file as HTMLInputElement, /give an absolute path \(starting with \/\)/)

    await user.clear(file)
    await user.type(file, `${DIR}/a-folder`)
    await user.tab()
    await errorOf(file as HTMLInputElement, /is a folder; give the source archive itself/)

    await user.clear(file)
    await user.type(file, archive)
    await user.type(sum, 'abc123')
    await user.tab()
    await errorOf(sum, /a SHA-256 is 64 hexadecimal digits/)
    expect(file.getAttribute('aria-invalid')).toBeNull()

    await user.clear(sum)
    await user.type(sum, '0'.repeat(64))
    await user.tab()
    await errorOf(sum, `its SHA-256 is ${sha256}, not ${'0'.repeat(64)} as given`)

    await user.clear(sum)
    await user.type(sum, sha256.toUpperCase())
    await user.tab()
    const status = within(screen.getByRole('group', { name: 'UnixBench: bring from this computer' })).getByRole('status')
    await waitFor(() => expect(status.textContent).toBe(`✓ 44.0 B source archive (built on each target), SHA-256 ${sha256}: matches the SHA-256 you gave.`))
    expect(sum.getAttribute('aria-invalid')).toBeNull()
  })

  it('sends the file with preflight and Start, keeps it out of the preset, and asks preflight again when it changes', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard(
      {
        'plans:review': () => okReview(JOBS, 60),
        'plans:preflight': () => CLEAN_PREFLIGHT,
        'runs:start': () => ({ id: 'run-7' }),
        ...mainTools(mainWords)
      },
      { ...atReview, wizardDraft: readyDraft() }
    )
    await user.type(await screen.findByLabelText('UnixBench source archive or program'), archive)
    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    await screen.findByText('Found (1)')
    expect(callsTo(api, 'plans:preflight')).toEqual([{ plan: useAppStore.getState().wizardPlan(), toolArchives: [{ tool: 'unixbench', path: archive }] }])

    // another SHA-256 is another file to trust: the last preflight is no longer about it
    await user.type(field('UnixBench SHA-256 (optional)'), sha256)
    await screen.findByText('The plan changed since the last preflight: run it again.')
    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    await waitFor(() => expect(callsTo(api, 'plans:preflight')).toHaveLength(2))
    expect(callsTo(api, 'plans:preflight')[1]).toMatchObject({ toolArchives: [{ tool: 'unixbench', path: archive, sha256 }] })

    await waitFor(() => expect(screen.getByRole('button', { name: 'Start' }).getAttribute('aria-disabled')).toBeNull())
    await user.click(screen.getByRole('button', { name: 'Start' }))
    await waitFor(() => expect(callsTo(api, 'runs:start')).toHaveLength(1))
    expect(callsTo(api, 'runs:start')[0]).toEqual({ plan: useAppStore.getState().wizardPlan(), toolArchives: [{ tool: 'unixbench', path: archive, sha256 }] })
    // a preset is the plan: the computer's path is not in it
    expect(JSON.stringify(useAppStore.getState().wizardPlan())).not.toContain(DIR)
  })

  it('in the desktop app, "Choose…" fills the path from the file dialog and checks it', async () => {
    const user = userEvent.setup()
    const info: AppInfo = { name: 'VirtBench', version: '0', platform: 'linux', arch: 'x64', versions: { node: '22' }, transport: 'ipc', dataDir: '/home/admin/.config/VirtBench' }
    const { api } = renderWizard({ 'plans:review': () => okReview(JOBS, 60), ...mainTools(mainWords, () => archive) }, { ...atReview, wizardDraft: readyDraft(), info })
    await user.click(await screen.findByRole('button', { name: 'Choose the UnixBench file' }))
    await waitFor(() => expect(field('UnixBench source archive or program').value).toBe(archive))
    expect(callsTo(api, 'tools:chooseArchive')).toEqual([{ tool: 'unixbench' }])
    const status = within(screen.getByRole('group', { name: 'UnixBench: bring from this computer' })).getByRole('status')
    await waitFor(() => expect(status.textContent).toContain('not a pinned release and no SHA-256 given: the run records its checksum'))
  })
})
