import { describe, expect, it } from 'vitest'
import { parseLabArgs } from '../../../lab/cli-args'

describe('lab command line', () => {
  it('reads each command', () => {
    expect(parseLabArgs([])).toEqual({ kind: 'help' })
    expect(parseLabArgs(['build'])).toEqual({ kind: 'build' })
    expect(parseLabArgs(['status'])).toEqual({ kind: 'status' })
    expect(parseLabArgs(['down', 'vm1'])).toEqual({ kind: 'down', name: 'vm1' })
    expect(parseLabArgs(['ssh', 'vm1'])).toEqual({ kind: 'ssh', name: 'vm1', command: [] })
    expect(parseLabArgs(['ssh', 'vm1', 'cat', '/proc/cpuinfo'])).toEqual({ kind: 'ssh', name: 'vm1', command: ['cat', '/proc/cpuinfo'] })
  })

  it('reads up with every option', () => {
    expect(parseLabArgs(['up', 'vm1', '--cache', 'none', '--queues', '2', '--bus', 'virtio-scsi', '--memory', '768', '--cpus', '2', '--io', 'native', '--libvirt', '--timeout', '300'])).toEqual({
      kind: 'up',
      guest: { name: 'vm1', cache: 'none', queues: 2, bus: 'virtio-scsi', memoryMiB: 768, cpus: 2, io: 'native', libvirt: true },
      bootTimeoutSeconds: 300
    })
    expect(parseLabArgs(['up', 'vm1'])).toEqual({ kind: 'up', guest: { name: 'vm1' } })
  })

  it.each([
    [['frob'], 'unknown lab command "frob"'],
    [['up'], 'up needs a guest name'],
    [['up', '--cache', 'none'], 'up needs a guest name'],
    [['up', 'vm1', '--cache', 'fast'], '--cache must be one of none, writeback, writethrough, directsync, unsafe, not "fast"'],
    [['up', 'vm1', '--queues'], '--queues needs a whole number, not ""'],
    [['up', 'vm1', '--queues', '2x'], '--queues needs a whole number, not "2x"'],
    [['up', 'vm1', '--bogus'], 'up does not know "--bogus"'],
    [['down'], 'down takes one guest name'],
    [['build', 'now'], 'build takes no arguments']
  ])('refuses %j: %s', (argv, message) => {
    expect(() => parseLabArgs(argv)).toThrow(message)
  })
})
