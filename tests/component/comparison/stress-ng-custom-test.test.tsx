import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { TOOLS } from '../../../src/main/tools/registry'
import { emptyDraft, planOfDraft, withBaseline, withVariant } from '../../../src/renderer/src/models/wizard-draft'
import { useAppStore } from '../../../src/renderer/src/store'
import type { CatalogTool } from '../../../src/shared/catalog-contract'
import { CATALOG, description, isChecked, okReview, renderWizard } from './wizard-fixtures'

/**
 * stress-ng reaches the wizard through the catalog alone. Its entry is made here from the tool's
 * own declarations in the registry, as main's buildCatalog makes it (a unit test beside the tool,
 * tests/unit/main/tools/stress-ng/catalog.test.ts, checks the real catalog gives the same).
 */
const stressNg = TOOLS['stress-ng']
const entry: CatalogTool = {
  id: stressNg.id,
  name: stressNg.name,
  description: stressNg.description,
  category: stressNg.categories[0]!,
  network: false,
  paramsSchema: z.toJSONSchema(stressNg.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
  defaults: stressNg.defaults as Record<string, unknown>
}

describe('wizard step 3: a custom stress-ng test', () => {
  it('offers stress-ng with a form built from its parameters, and puts the chosen ones in the plan', async () => {
    const user = userEvent.setup()
    const draft = withVariant(withBaseline(emptyDraft(), 'host-01'), 'vm1', true)
    const catalog = { ...CATALOG, tools: [...CATALOG.tools, entry] }
    renderWizard({ 'catalog:get': () => catalog, 'plans:review': () => okReview([]) }, { wizardStep: 2, wizardReached: 2, wizardDraft: draft })
    await screen.findByRole('article', { name: 'Block device dd' })
    await user.selectOptions(screen.getByLabelText('Tool'), 'stress-ng (cpu)')
    await user.click(screen.getByRole('radio', { name: 'Full' }))
    await user.click(screen.getByRole('button', { name: 'Add custom test' }))
    const test = screen.getByRole('region', { name: 'Custom test stress-ng-1' })

    const field = (label: RegExp) => within(test).getByLabelText(label) as HTMLInputElement
    expect(field(/^stressor/).value).toBe('cpu')
    expect([...(field(/^stressor/) as unknown as HTMLSelectElement).options].map((o) => o.value)).toEqual(['cpu', 'vm'])
    expect(field(/^workers/).value).toBe('1')
    expect(field(/^timeout seconds/).value).toBe('10')
    expect(field(/^cpu method/).value).toBe('matrixprod')
    expect(field(/^vm bytes/).value).toBe('256M')
    expect(field(/^vm method/).value).toBe('write64')
    expect(isChecked(field(/^vm keep/))).toBe(false)
    expect(description(field(/^workers/))).toBe('Worker processes of the stressor (--cpu N or --vm N); 0 starts one per CPU. Default: 1.')

    await user.selectOptions(field(/^stressor/), 'vm')
    await user.clear(field(/^workers/))
    await user.type(field(/^workers/), '0')
    await user.clear(field(/^vm bytes/))
    await user.type(field(/^vm bytes/), '50%')
    await user.click(field(/^vm keep/))
    expect(planOfDraft(useAppStore.getState().wizardDraft).tests).toEqual([
      {
        id: 'stress-ng-1',
        tool: 'stress-ng',
        params: { stressor: 'vm', workers: 0, timeoutSeconds: 10, cpuMethod: 'matrixprod', vmBytes: '50%', vmMethod: 'write64', vmKeep: true }
      }
    ])
  })
})
