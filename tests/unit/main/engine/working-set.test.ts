import { describe, expect, it } from 'vitest'
import { expandTests } from '../../../../src/main/engine/planner'
import { largestNeed, storageNeedOf } from '../../../../src/main/engine/working-set'
import { ComparisonPlanSchema } from '../../../../src/shared/model/plan'

const plan = (storage: unknown, tests: unknown[]) =>
  ComparisonPlanSchema.parse({ name: 'p', baseline: { target: 'a' }, variants: [{ target: 'b' }], tests, storage })

describe('storage needs (what preflight checks before a storage test)', () => {
  it('a raw-device plan always has a need, so the device is checked before anything writes to it', () => {
    const tests = expandTests(plan({ kind: 'device', path: '/dev/vdb', confirm: '/dev/vdb' }, [{ pack: 'block-dd', form: 'full' }]))
    expect(tests.map((t) => t.params.device)).toEqual(['/dev/vdb', '/dev/vdb'])
    expect(tests.map((t) => storageNeedOf(t))).toEqual([
      { workingSetBytes: 2 ** 30, directIo: true, uncached: false },
      { workingSetBytes: 512 * 1000, directIo: true, uncached: false }
    ])
    const fio = expandTests(plan({ kind: 'device', path: '/dev/vdb', confirm: '/dev/vdb' }, [{ pack: 'cluster-fio', form: 'quick' }]))
    expect(storageNeedOf(fio[0]!)).toEqual({ workingSetBytes: 4 * 16 * 2 ** 20, directIo: true, uncached: false })
  })

  it('files in a directory: fio size x jobs, dd bytes, bonnie++ file size; a read of an earlier file adds nothing', () => {
    const tests = expandTests(plan({ kind: 'directory', path: '/srv/t' }, [{ pack: 'cluster-fio', form: 'full' }, { pack: 'seq-dd', form: 'full' }, { pack: 'kvm-storage', form: 'quick', only: ['bonnie'] }]))
    expect(tests.map((t) => [t.id, storageNeedOf(t)?.workingSetBytes])).toEqual([
      ['fio-virt', 4 * 2 ** 30],
      ['dd-write', 8 * 2 ** 30],
      ['cat-read', undefined],
      ['bonnie', 64 * 2 ** 20]
    ])
    expect(largestNeed(tests)).toEqual({ workingSetBytes: 8 * 2 ** 30, directIo: true, uncached: true })
  })
})

describe('a raw device comes only from the plan storage', () => {
  it('refuses a custom test that names a device in its parameters, saying where to choose one', () => {
    expect(() => expandTests(plan({ kind: 'directory', path: '/srv/t' }, [{ id: 'sneaky', tool: 'dd', params: { device: '/dev/vda', deviceWriteConfirmed: true } }]))).toThrow(
      /tests\[0\] sneaky: device and deviceWriteConfirmed cannot be set in a test's parameters; choose a raw device as the plan's storage/
    )
  })

  it("refuses '..' in a device path and another user's ~ in the work directory", () => {
    expect(ComparisonPlanSchema.safeParse({ name: 'p', baseline: { target: 'a' }, variants: [{ target: 'b' }], tests: [{ pack: 'block-dd' }], storage: { kind: 'device', path: '/dev/../etc/passwd', confirm: '/dev/../etc/passwd' } }).success).toBe(false)
    expect(ComparisonPlanSchema.safeParse({ name: 'p', baseline: { target: 'a' }, variants: [{ target: 'b' }], tests: [{ pack: 'block-dd' }], storage: { kind: 'directory', path: '~root/x' } }).success).toBe(false)
  })
})
