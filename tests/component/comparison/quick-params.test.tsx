import { describe, expect, it } from 'vitest'
import { paramsInForm } from '../../../src/renderer/src/features/comparison/quick-params'
import { TOOLS } from '../../../src/main/tools/registry'
import { TOOL_IDS } from '../../../src/shared/model/tool-ids'

describe('the quick form of a custom test', () => {
  it('is valid for every tool, and shorter than the tool’s defaults by the tool’s own estimate', () => {
    for (const id of TOOL_IDS) {
      const tool = TOOLS[id]
      const defaults = tool.defaults as Record<string, unknown>
      const quick = tool.params.safeParse(paramsInForm(id, defaults, 'quick'))
      expect(quick.success, `${id}: ${quick.error?.message ?? ''}`).toBe(true)
      const full = tool.estimateSeconds(tool.params.parse(defaults) as never)
      const short = tool.estimateSeconds(quick.data as never)
      expect(short, id).toBeLessThan(full)
      expect(short, id).toBeLessThanOrEqual(Math.max(30, full / 4))
    }
  })

  it('keeps what the test measures and changes only its length', () => {
    const fio = TOOLS.fio.defaults as Record<string, unknown>
    expect(paramsInForm('fio', fio, 'quick')).toEqual({ ...fio, size: '64m', runtime: 3 })
    expect(paramsInForm('fio', fio, 'full')).toEqual(fio)
  })
})
