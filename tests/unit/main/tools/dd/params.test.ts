import { describe, expect, it } from 'vitest'
import { ddDefaults, ddNumber, ddParamsSchema, ddTotalBytes } from '../../../../../src/main/tools/dd/params'

function issues(input: unknown): string[] {
  const result = ddParamsSchema.safeParse(input)
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('dd params', () => {
  it('defaults to a 1 GiB O_DIRECT write of ddfile in 1 MiB blocks, untimed', () => {
    expect(ddDefaults).toEqual({
      mode: 'write',
      blockSize: '1M',
      count: '1024',
      direct: true,
      fdatasync: false,
      fileName: 'ddfile',
      deviceWriteConfirmed: false,
      timer: 'none',
      reader: 'dd',
      dropCaches: false,
      useExistingFile: false
    })
    expect(ddTotalBytes(ddDefaults)).toBe(2 ** 30)
  })

  it("reads dd's numbers as GNU and BusyBox dd both do", () => {
    expect(ddNumber('512')).toBe(512)
    expect(ddNumber('8k')).toBe(8192)
    expect(ddNumber('8K')).toBe(8192)
    expect(ddNumber('1M')).toBe(1048576)
    expect(ddNumber('1G')).toBe(1073741824)
    expect(ddNumber('4kB')).toBe(4000)
    expect(ddNumber('1MB')).toBe(1e6)
    expect(ddNumber('2GB')).toBe(2e9)
    for (const bad of ['', '0', '08', '1m', '1T', '1 M', '-1', '1.5M', '1MiB', 'x']) expect(ddNumber(bad)).toBeNull()
  })

  it('refuses sizes it cannot read or that are too large, saying how to write them', () => {
    expect(issues({ blockSize: '1.5M' })).toEqual([expect.stringMatching(/^blockSize: .*like 512, 8k, 1M or 1G/)])
    expect(issues({ blockSize: '2G' })).toEqual(['blockSize: blockSize can be at most 1G (dd holds one block in memory)'])
    expect(issues({ blockSize: '1G', count: '32768' })).toEqual([expect.stringMatching(/^count: .*at most 16 TiB/)])
  })

  it('refuses options that do not fit the mode', () => {
    expect(issues({ mode: 'read', fdatasync: true })).toEqual(['fdatasync: fdatasync flushes written data; it applies to write mode only'])
    expect(issues({ reader: 'cat', direct: false, timer: 'bash' })).toEqual(['reader: the cat reader reads a file; it applies to read mode only'])
    expect(issues({ dropCaches: true })).toEqual([expect.stringMatching(/^dropCaches: .*read mode only/)])
    expect(issues({ mode: 'read', reader: 'cat', direct: false })).toEqual([expect.stringMatching(/^timer: cat prints no timing/)])
    expect(issues({ mode: 'read', reader: 'cat', timer: 'bash' })).toEqual([expect.stringMatching(/^direct: cat cannot bypass the page cache/)])
    expect(issues({ useExistingFile: true })).toEqual([expect.stringMatching(/^useExistingFile: .*read mode, no device/)])
    expect(issues({ mode: 'read', reader: 'cat', timer: 'bash', direct: false, device: '/dev/vdb' })).toEqual([
      'reader: cat would read the whole device; read a device with the dd reader and a count'
    ])
  })

  it('writes a device only after confirmation, and never picks one by default', () => {
    expect(ddDefaults.device).toBeUndefined()
    expect(issues({ device: '/dev/vdb' })).toEqual([expect.stringMatching(/^deviceWriteConfirmed: writing to \/dev\/vdb destroys the data/)])
    expect(issues({ device: '/dev/vdb', deviceWriteConfirmed: true })).toEqual([])
    expect(issues({ mode: 'read', device: '/dev/vdb' })).toEqual([])
  })

  it('accepts device paths only under /dev, without ..', () => {
    expect(issues({ mode: 'read', device: '/dev/disk/by-id/virtio-abc' })).toEqual([])
    expect(issues({ mode: 'read', device: 'vdb' })).toEqual([expect.stringMatching(/^device: a device must be a block device path/)])
    expect(issues({ mode: 'read', device: '/dev/../etc/passwd' })).toEqual(["device: a device path cannot contain '..'"])
    expect(issues({ mode: 'read', device: '/dev/vdb; reboot' })).not.toEqual([])
  })

  it('accepts odd file names (they are quoted) but not paths, options or control characters', () => {
    expect(issues({ fileName: '$(touch pwned); rm -rf ~' })).toEqual([])
    expect(issues({ fileName: "'; reboot #" })).toEqual([])
    expect(issues({ fileName: '../etc/passwd' })).toEqual(["fileName: a file name cannot contain '/': give a name inside the work directory"])
    expect(issues({ fileName: '-rf' })).toEqual(["fileName: a file name cannot start with '-': stat and cat would read it as an option"])
    expect(issues({ fileName: 'a\nb' })).toEqual(['fileName: a file name cannot contain control characters or line breaks'])
    expect(issues({ fileName: '..' })).toEqual(["fileName: '.' and '..' are directories, not file names"])
  })
})
