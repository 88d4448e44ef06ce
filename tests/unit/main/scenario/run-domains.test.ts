import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { markRestored, originalXmlPath, saveOriginal, savedOriginals } from '../../../../src/main/scenario/apply'
import { consentNeeded, domainsDirOf, domainTasksOf, physicalHostOf } from '../../../../src/main/scenario/run-domains'
import type { EngineTarget } from '../../../../src/main/engine/runner'
import { ComparisonPlanSchema } from '../../../../src/shared/model/plan'

const dir = mkdtempSync(path.join(os.tmpdir(), 'vb-run-domains-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const plan = ComparisonPlanSchema.parse({
  name: 'p',
  baseline: { target: 'host' },
  variants: [
    { target: 'vm1', scenario: { domain: 'guest-1', setup: { cache: 'none' } } },
    { target: 'vm2', scenario: { domain: 'guest-2', cache: 'writeback' } }
  ],
  tests: [{ pack: 'block-dd', form: 'quick' }]
})

function target(name: string, role: EngineTarget['role'], hostName?: string): EngineTarget {
  return { name, label: name, role, kind: 'ssh', addresses: {}, sudo: false, ...(hostName ? { hostName } : {}) }
}

describe('a run that changes domains', () => {
  it('changes only the variants with a setup, and says what consent it needs', () => {
    expect(domainTasksOf(plan)).toEqual([{ guest: 'vm1', label: 'vm1', domain: 'guest-1', setup: { cache: 'none' } }])
    expect(consentNeeded(plan, '--change-domains')).toBe(
      'the plan changes the libvirt domain guest-1 (vm1) on the physical host: VirtBench saves the original XML in the run folder, applies each scenario with a restart of the guest, and puts the original back at the end. Give --change-domains to allow it.'
    )
    expect(consentNeeded({ ...plan, variants: [plan.variants[1]!] }, '--change-domains')).toBeUndefined()
  })

  it("runs virsh on the guest's host from the inventory, else on the baseline", () => {
    const targets = [target('host', 'baseline'), target('kvm2', 'peer'), target('vm1', 'variant', 'kvm2'), target('vm2', 'variant')]
    expect(physicalHostOf(targets, 'vm1')?.name).toBe('kvm2')
    expect(physicalHostOf(targets, 'vm2')?.name).toBe('host')
    expect(physicalHostOf([target('host', 'baseline')], 'host')).toBeUndefined()
  })

  it('keeps the first original of a domain, lists it until it is put back, and finds a sweep\'s originals from a step folder', async () => {
    const originals = path.join(dir, 'run', 'domains')
    await saveOriginal(originals, { domain: 'guest-1', host: 'host', persistent: false, xml: '<domain>first</domain>' })
    await saveOriginal(originals, { domain: 'guest-1', host: 'host', persistent: true, xml: '<domain>changed</domain>' })
    expect(savedOriginals(originals)).toEqual([{ domain: 'guest-1', host: 'host', persistent: false, xml: '<domain>first</domain>' }])
    await markRestored(originals, 'guest-1')
    expect(savedOriginals(originals)).toEqual([])
    expect(originalXmlPath(originals, 'guest-1')).toBe(path.join(originals, 'guest-1.xml'))

    expect(domainsDirOf(path.join(dir, 'run'))).toBe(originals)
    mkdirSync(path.join(dir, 'sweep', '01-cache=none'), { recursive: true })
    writeFileSync(path.join(dir, 'sweep', 'sweep.json'), '{}')
    expect(domainsDirOf(path.join(dir, 'sweep', '01-cache=none'))).toBe(path.join(dir, 'sweep', 'domains'))
  })
})
