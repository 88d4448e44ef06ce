import { PRESET_VERSION, type Preset } from '../../../src/shared/model/plan'
import type { PresetList, PresetSummary } from '../../../src/shared/presets-contract'

export const savedSummary: PresetSummary = {
  id: 'storage-check',
  name: 'storage-check',
  description: 'Release check of the guests’ disks',
  builtin: false,
  modifiedAt: '2025-03-14T09:26:00.000Z',
  baseline: 'phys-01',
  variants: ['guest-none', 'guest-wb'],
  tests: ['block-dd', 'fio-4k']
}

export const studySummary: PresetSummary = {
  id: 'builtin:cloud-acceptance',
  name: 'Cloud acceptance: physical vs KVM guests (cache x queues)',
  description: 'Study 001, the cloud platform acceptance test',
  builtin: true,
  baseline: 'phys-01',
  variants: ['vm-linux-none-q1', 'vm-linux-none-q4', 'vm-linux-wb-q1', 'vm-linux-wb-q4'],
  tests: ['cloud-acceptance']
}

export const savedPreset: Preset = {
  kind: 'virtbench-preset',
  version: PRESET_VERSION,
  description: 'Release check of the guests’ disks',
  plan: {
    name: 'storage-check',
    baseline: { target: 'phys-01' },
    variants: [
      { target: 'guest-none', scenario: { hypervisor: 'kvm', cache: 'none' } },
      { target: 'guest-wb', scenario: { hypervisor: 'kvm', cache: 'writeback' } }
    ],
    tests: [
      { pack: 'block-dd', form: 'quick' },
      { id: 'fio-4k', tool: 'fio', params: { bs: 4096 } }
    ],
    repetitions: 3,
    aggregate: 'median',
    storage: { kind: 'directory', path: '~/virtbench-work' },
    network: { matrix: false, simultaneous: false },
    schedule: { order: 'interleaved', parallelTargets: false },
    equivalenceMarginPct: 3,
    warmup: false
  }
}

export function presetList(...presets: PresetSummary[]): PresetList {
  return { presets, problems: [] }
}
