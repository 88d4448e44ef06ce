import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { TOOLS } from '../../../src/main/tools/registry'
import { emptyDraft, planOfDraft, withBaseline, withVariant } from '../../../src/renderer/src/models/wizard-draft'
import { useAppStore } from '../../../src/renderer/src/store'
import type { CatalogTool, PlanReview } from '../../../src/shared/catalog-contract'
import { CATALOG, description, okReview, renderWizard } from './wizard-fixtures'

/** fio's catalog entry as main makes it from the tool's own schema (jobFile included). */
const fio = TOOLS.fio
const entry: CatalogTool = {
  id: fio.id,
  name: fio.name,
  description: fio.description,
  category: 'storage',
  network: false,
  paramsSchema: z.toJSONSchema(fio.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
  defaults: {}
}

const STUDY_003 = '[virt]\nioengine=libaio\niodepth=4\nrw=randrw\nbs=64k\ndirect=1\nsize=1g\nnumjobs=4'

describe("wizard step 3: a custom fio test with the admin's own job file", () => {
  it('takes the pasted job file with its line breaks into the plan, and shows what main says about it', async () => {
    const user = userEvent.setup()
    const draft = withVariant(withBaseline(emptyDraft(), 'host-01'), 'vm1', true)
    const catalog = { ...CATALOG, tools: [entry, ...CATALOG.tools.filter((t) => t.id !== 'fio')] }
    const refusal = 'job file line 3, [virt], exec_prerun: exec_prerun runs a command on the target before the job; VirtBench runs only fio: remove it and prepare the target yourself'
    const review = ({ plan: sent }: { plan: Record<string, unknown> }): PlanReview => {
      const jobFile = (sent.tests as { params?: Record<string, unknown> }[])[0]?.params?.jobFile
      return typeof jobFile === 'string' && jobFile.includes('exec_prerun')
        ? { ok: false, issues: [{ path: 'tests.0.params.jobFile', message: refusal }], jobs: [], seconds: 0 }
        : okReview([])
    }
    renderWizard({ 'catalog:get': () => catalog, 'plans:review': review }, { wizardStep: 2, wizardReached: 2, wizardDraft: draft })
    await screen.findByRole('article', { name: 'Block device dd' })
    await user.selectOptions(screen.getByLabelText('Tool'), 'fio (storage)')
    await user.click(screen.getByRole('button', { name: 'Add custom test' }))
    const test = screen.getByRole('region', { name: 'Custom test fio-1' })
    const box = within(test).getByLabelText('Your own fio job file') as HTMLTextAreaElement
    expect(box.tagName).toBe('TEXTAREA')
    expect(description(box)).toContain('No exec_prerun/exec_postrun')

    await user.click(box)
    await user.paste(STUDY_003)
    expect(planOfDraft(useAppStore.getState().wizardDraft).tests[0]).toMatchObject({ id: 'fio-1', tool: 'fio', params: { jobFile: STUDY_003 } })
    await user.clear(box)
    await user.paste('[virt]\nsize=1g\nexec_prerun=id')
    expect(await within(test).findByText(refusal)).toBeTruthy()
    expect(description(box)).toContain(refusal)
    await user.clear(box)
    expect(planOfDraft(useAppStore.getState().wizardDraft).tests[0]).not.toHaveProperty('params.jobFile')
  })
})
