import { describe, expect, it } from 'vitest'
import { CPU_METHODS, stressNgDefaults, stressNgParamsSchema, VM_METHODS, vmSizeBytes } from '../../../../../src/main/tools/stress-ng/params'

function issues(input: unknown): string[] {
  const r = stressNgParamsSchema.safeParse(input)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('stress-ng params', () => {
  it('defaults to one cpu worker for 10 s with one fixed method, and 256M of write64 for vm', () => {
    expect(stressNgDefaults).toEqual({
      stressor: 'cpu',
      workers: 1,
      timeoutSeconds: 10,
      cpuMethod: 'matrixprod',
      vmBytes: '256M',
      vmMethod: 'write64',
      vmKeep: false
    })
  })

  it('reads sizes as stress-ng does: a unit b, k, m or g in either case, powers of 1024', () => {
    expect(vmSizeBytes('65536')).toBe(65536)
    expect(vmSizeBytes('4k')).toBe(4096)
    expect(vmSizeBytes('256M')).toBe(256 * 2 ** 20)
    expect(vmSizeBytes('1g')).toBe(2 ** 30)
    expect(vmSizeBytes('512b')).toBe(512)
    for (const bad of ['', '0', '1.5G', '1 G', '256MB', '1T', '-1', '50%']) expect(vmSizeBytes(bad), bad).toBeNull()
  })

  it.each([
    ['256M', true],
    ['4K', true],
    ['1g', true],
    ['50%', true],
    ['100%', true],
    ['1%', true],
    ['4095', false],
    ['0%', false],
    ['101%', false],
    ['12.5%', false],
    ['1.5G', false],
    ['262145G', false],
    ['lots', false]
  ])('vmBytes %s valid: %s', (vmBytes, valid) => {
    expect(stressNgParamsSchema.safeParse({ stressor: 'vm', vmBytes }).success).toBe(valid)
  })

  it('says what is allowed, at the field', () => {
    expect(issues({ vmBytes: '1.5G' })).toEqual([
      'vmBytes: vmBytes must be a whole number of bytes with an optional unit b, k, m or g (powers of 1024), like 256M, or a share of the physical memory from 1% to 100%'
    ])
    expect(issues({ vmBytes: '1k' })).toEqual(['vmBytes: vmBytes must be at least 4K (stress-ng refuses less)'])
    expect(issues({ workers: -1 })).toEqual(['workers: workers must be 0 (one per CPU) or more'])
    expect(issues({ workers: 1.5 })).toEqual(['workers: workers must be a whole number'])
    expect(issues({ timeoutSeconds: 0 })).toEqual(['timeoutSeconds: timeoutSeconds must be at least 1 second'])
    expect(issues({ stressor: 'stream' })).toHaveLength(1)
  })

  it('offers only the methods stress-ng 0.13.12 and 0.15.06 both have: not div8 or div128 (cpu), nor checkerboard (vm), which 0.15 added', () => {
    expect(stressNgParamsSchema.safeParse({ workers: 0, cpuMethod: 'all' }).success).toBe(true)
    for (const method of ['div8', 'div128']) expect(issues({ cpuMethod: method }), method).toHaveLength(1)
    for (const method of ['checkerboard', 'fwdrev', 'lfsr32', 'wrrd128nt']) expect(issues({ vmMethod: method }), method).toHaveLength(1)
    expect(CPU_METHODS).toHaveLength(81)
    expect(VM_METHODS).toHaveLength(32)
    expect(new Set([...CPU_METHODS]).size).toBe(CPU_METHODS.length)
  })
})
