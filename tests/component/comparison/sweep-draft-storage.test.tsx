import { describe, expect, it } from 'vitest'
import { draftOfSweep, sweepOfDraft, valueText } from '../../../src/renderer/src/models/sweep-draft'

describe('the wizard keeps a preset sweep of the storage backend', () => {
  it('carries the storage factor and its prepared disks through the draft unchanged', () => {
    const sweep = {
      target: 'vm1',
      domain: 'guest-1',
      factors: { storage: ['file-raw' as const, 'lvm' as const], cache: ['none' as const] },
      storage: { vdb: { 'file-raw': '/var/lib/libvirt/images/d.raw', lvm: '/dev/vg0/bench' } },
      storageBootDisk: true,
      order: 'grouped' as const
    }
    expect(sweepOfDraft(draftOfSweep(sweep), undefined)).toEqual({ ...sweep, scenario: {} })
    expect(valueText('storage', 'lvm')).toBe('LVM')
  })
})
