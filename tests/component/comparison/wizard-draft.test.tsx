import { describe, expect, it } from 'vitest'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import {
  draftOfPlan,
  emptyDraft,
  formatDuration,
  localIssues,
  matrixProblem,
  peerAddress,
  planOfDraft,
  stepOfPath,
  withBaseline,
  withMatrix,
  withVariant,
  type WizardDraft
} from '../../../src/renderer/src/models/wizard-draft'

function draftWith(change: Partial<WizardDraft>): WizardDraft {
  return { ...emptyDraft(), ...change }
}

describe('the plan a draft stands for', () => {
  it('is written out completely, with the name made from the targets until one is typed', () => {
    let draft = withBaseline(emptyDraft(), 'host-01')
    draft = withVariant(draft, 'vm1', true)
    draft = { ...draft, tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }
    const plan = planOfDraft(draft)
    expect(plan).toEqual({
      name: 'host-01 vs vm1',
      baseline: { target: 'host-01' },
      variants: [{ target: 'vm1', scenario: {} }],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      repetitions: 3,
      aggregate: 'median',
      storage: { kind: 'directory', path: '~/virtbench-work' },
      network: { matrix: false, simultaneous: false },
      schedule: { order: 'interleaved', parallelTargets: false },
      // the verdicts' default margin, no adaptive repetitions, no warm-up run
      equivalenceMarginPct: 3,
      warmup: false
    })
    expect(ComparisonPlanSchema.safeParse(plan).success).toBe(true)
  })

  it('keeps a guest’s label and scenario when it is unticked and ticked again', () => {
    let draft = withVariant(withBaseline(emptyDraft(), 'host-01'), 'vm1', true)
    draft = { ...draft, variants: [{ target: 'vm1', label: 'guest-wb', scenario: { cache: 'writeback', queues: 4 } }] }
    draft = withVariant(draft, 'vm1', false)
    expect(draft.variants).toEqual([])
    draft = withVariant(draft, 'vm1', true)
    expect(draft.variants).toEqual([{ target: 'vm1', label: 'guest-wb', scenario: { cache: 'writeback', queues: 4 } }])
  })

  it('drops a guest from the variants when it becomes the baseline', () => {
    const draft = withBaseline(withVariant(emptyDraft(), 'vm1', true), 'vm1')
    expect(draft.baseline).toBe('vm1')
    expect(draft.variants).toEqual([])
  })

  it('never takes a raw-device confirmation over from a preset', () => {
    const draft = draftOfPlan({
      name: 'dd on vdb',
      baseline: { target: 'host-01' },
      variants: [{ target: 'vm1' }],
      tests: [{ pack: 'block-dd' }],
      storage: { kind: 'device', path: '/dev/vdb', confirm: '/dev/vdb' }
    })
    expect(draft.storage).toEqual({ kind: 'device', directory: '~/virtbench-work', device: '/dev/vdb', confirm: '' })
    expect(planOfDraft(draft).storage).toEqual({ kind: 'device', path: '/dev/vdb', confirm: '' })
    expect(localIssues(draft, ['host-01', 'vm1'])).toEqual([
      { path: 'storage.confirm', message: 'Type /dev/vdb again to confirm that everything on it may be destroyed.' }
    ])
  })

  it('round-trips a preset’s plan (other than the confirmation)', () => {
    const plan = {
      name: 'Cloud acceptance',
      baseline: { target: 'phys-01', label: 'Physical machine' },
      variants: [{ target: 'vm-a', label: 'Linux VM', scenario: { hypervisor: 'kvm' as const, cache: 'none' as const, queues: 16, domain: 'vm-a' } }],
      tests: [
        { pack: 'cloud-acceptance' as const, form: 'full' as const, only: ['mbw'] },
        { id: 'fio-1', tool: 'fio' as const, params: { bs: '8k' }, repetitions: 5, aggregate: 'best' as const }
      ],
      repetitions: 2,
      aggregate: 'mean' as const,
      storage: { kind: 'directory' as const, path: '/data/work' },
      network: { peer: 'itb4', matrix: true, simultaneous: false },
      schedule: { order: 'grouped' as const, parallelTargets: true },
      equivalenceMarginPct: 5,
      precision: { halfWidthPct: 2, maxRepetitions: 8, budgetSeconds: 1800 },
      warmup: true
    }
    expect(planOfDraft(draftOfPlan(plan))).toEqual(plan)
  })

  it('keeps a preset’s network paths and peer role, which the wizard has no fields for', () => {
    const network = { peer: 'phys-02', matrix: true, simultaneous: false, paths: ['private' as const, 'eip' as const], peerRole: 'guest' as const }
    const plan = { name: 'VPC', baseline: { target: 'phys-01' }, variants: [{ target: 'vm-a' }], tests: [{ id: 'iperf3', tool: 'iperf3' as const }], network }
    expect(planOfDraft(draftOfPlan(plan)).network).toEqual(network)
  })
})

describe('study 001’s matrix', () => {
  it('makes four variants, one guest each, labelled by target and setting, keeping the rest of each scenario', () => {
    let draft = withBaseline(emptyDraft(), 'host-01')
    draft = { ...draft, variants: [{ target: 'vm2', label: '', scenario: { hypervisor: 'kvm', bus: 'virtio-blk' } }, { target: 'vm9', label: 'other', scenario: {} }] }
    const result = withMatrix(draft, ['vm1', 'vm2', 'vm3', 'vm4'])
    expect(result.variants).toEqual([
      { target: 'vm1', label: 'vm1 cache=none q=1', scenario: { cache: 'none', queues: 1 } },
      { target: 'vm2', label: 'vm2 cache=none q=4', scenario: { hypervisor: 'kvm', bus: 'virtio-blk', cache: 'none', queues: 4 } },
      { target: 'vm3', label: 'vm3 cache=writeback q=1', scenario: { cache: 'writeback', queues: 1 } },
      { target: 'vm4', label: 'vm4 cache=writeback q=4', scenario: { cache: 'writeback', queues: 4 } },
      { target: 'vm9', label: 'other', scenario: {} }
    ])
    expect(ComparisonPlanSchema.safeParse({ ...planOfDraft(result), tests: [{ pack: 'block-dd' }] }).success).toBe(true)
  })

  it('refuses one guest for two combinations, since a plan measures each target once', () => {
    const draft = withBaseline(emptyDraft(), 'host-01')
    expect(matrixProblem(draft, ['vm1', 'vm1', 'vm3', 'vm4'])).toBe(
      'vm1 is chosen for two combinations; each combination is a guest set up its own way, so each needs its own target.'
    )
    expect(matrixProblem(draft, ['host-01', 'vm2', 'vm3', 'vm4'])).toBe('host-01 is the baseline; choose guests for the combinations.')
    expect(matrixProblem(draft, ['vm1', '', 'vm3', 'vm4'])).toBe('Choose a guest target for each of the four combinations.')
    expect(matrixProblem(draft, ['vm1', 'vm2', 'vm3', 'vm4'])).toBeUndefined()
  })
})

describe('problems and where they are fixed', () => {
  it('names what is missing in words of the wizard, on the field concerned', () => {
    const issues = localIssues(draftWith({ repetitions: '0' }), [])
    expect(issues).toEqual([
      { path: 'name', message: 'Give the comparison a name.' },
      { path: 'baseline.target', message: 'Choose the baseline: the machine that is 100 %, usually the physical host.' },
      { path: 'variants', message: 'Tick at least one guest to compare with the baseline.' },
      { path: 'tests', message: 'Choose at least one study pack or add a custom test.' },
      { path: 'repetitions', message: 'Repetitions are a whole number from 1 to 100.' }
    ])
    expect(issues.map((i) => stepOfPath(i.path))).toEqual([3, 0, 0, 2, 2])
  })

  it('says which targets of the plan are not in the inventory', () => {
    const draft = withVariant(withBaseline(emptyDraft(), 'host-01'), 'gone', true)
    expect(localIssues({ ...draft, tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }, ['HOST-01'])).toEqual([
      { path: 'variants.0.target', message: 'gone is not among your targets: add it on the Targets page, or choose another.' }
    ])
  })

  it('puts scenario fields on the scenario step and the choice of guests on the targets step', () => {
    expect(stepOfPath('variants.2.scenario.cache')).toBe(1)
    expect(stepOfPath('variants.2.target')).toBe(0)
    expect(stepOfPath('tests.1.params.bs')).toBe(2)
    expect(stepOfPath('storage.confirm')).toBe(2)
    expect(stepOfPath('baseline.label')).toBe(1)
  })
})

describe('network addresses and durations', () => {
  const peer = { name: 'host-01', kind: 'ssh' as const, address: '192.0.2.10', addresses: { private: '10.0.0.10' } }
  it('gives the address the engine uses for each path, or what is missing', () => {
    expect(peerAddress(peer, 'private')).toEqual({ address: '10.0.0.10' })
    expect(peerAddress(peer, 'eip')).toEqual({ missing: 'host-01 has no public (EIP) address' })
    expect(peerAddress(peer, 'classic')).toEqual({ address: '10.0.0.10' })
    expect(peerAddress({ ...peer, addresses: {} }, undefined)).toEqual({ address: '192.0.2.10' })
  })

  it('formats durations as virtbench packs does', () => {
    expect(formatDuration(40)).toBe('about 40 s')
    expect(formatDuration(14 * 60)).toBe('about 14 min')
    expect(formatDuration(18 * 3600 + 23 * 60)).toBe('about 18 h 23 min')
  })
})
