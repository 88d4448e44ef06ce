import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { activeScheduler, parseEnvironment, stealPercent } from '../../../../../src/main/engine/environment/parse'
import { virtualizationFromDmi } from '../../../../../src/shared/virtualization'
import { environmentOutput, libvirtXml } from './fixtures'

const AT = '2026-11-21T00:03:09.000Z'

/** The script's lines, tab-separated, with its header and end line around them. */
function output(...lines: string[][]): string {
  return ['virtbench-environment\t1', ...lines.map((l) => l.join('\t')), 'end\tok', ''].join('\n')
}

describe('parseEnvironment: real output of this machine', () => {
  it('dash: every fact exactly, in base units', () => {
    const env = parseEnvironment(environmentOutput('this-machine-dash'), AT)
    // the cpu line: user nice system idle iowait irq softirq steal guest guest_nice
    const ticks = [261915, 7162, 134728, 493380, 5512, 0, 21532, 443]
    expect(env).toStrictEqual({
      capturedAt: AT,
      os: 'Debian GNU/Linux 12 (bookworm)',
      kernel: '6.18.44-fc-v657',
      arch: 'x86_64',
      hostname: 'vm',
      cpuModel: 'AMD EPYC',
      cpuCount: 2,
      memoryBytes: 24684092 * 1024,
      virtualization: 'kvm',
      virtualizationSource: 'systemd-detect-virt',
      blockDevices: [{ name: 'vda', sizeBytes: 274877906944, scheduler: 'mq-deadline', rotational: true, writeCache: 'write back', mqQueues: 1 }],
      workDir: { path: '/tmp/virtbench-env-fixture', device: '/dev/vda', freeBytes: 84123729920, filesystem: 'ext4' },
      nics: [
        { name: 'eth0', driver: 'virtio_net', addresses: ['192.0.2.2/24', 'fd00::2/64', 'fe80::fc:ff:fe00:1/64'] },
        { name: 'ifb0' },
        { name: 'ifb1' }
      ],
      tools: {
        fio: 'fio-3.33',
        iperf3: 'iperf 3.12 (cJSON 1.7.15)',
        iperf: 'iperf version 2.1.8 (12 August 2022) pthreads',
        ping: 'ping from iputils 20221126',
        sysbench: 'sysbench 1.0.20',
        dd: 'dd (coreutils) 9.1',
        bonnie: 'bonnie++ 2.00a',
        mbw: 'mbw 1.2.2-1.1 (package)'
      },
      clocksource: 'tsc',
      stealPct: (443 / ticks.reduce((a, b) => a + b, 0)) * 100,
      loadAverage: [1.57, 1.53, 1.52],
      guests: { 'guest-a': { domain: 'guest-a', disks: [], error: 'virsh is not installed on this host' } },
      notes: ['ethtool is not installed: NIC channels not read', 'runs inside a docker container (systemd-detect-virt --container)']
    })
  })

  it('BusyBox alone: the cpu flag tells a VM, BusyBox tools give their version', () => {
    const env = parseEnvironment(environmentOutput('this-machine-busybox'), AT)
    expect(env.virtualization).toBe('vm-other')
    expect(env.virtualizationSource).toBe('cpuinfo')
    expect(env.tools).toStrictEqual({
      ping: 'BusyBox v1.35.0 (Debian 1:1.35.0-4+deb12u1+b1) multi-call binary.',
      dd: 'BusyBox v1.35.0 (Debian 1:1.35.0-4+deb12u1+b1) multi-call binary.',
      bonnie: 'bonnie++ 2.00a'
    })
    expect(env.workDir).toStrictEqual({ path: '/tmp/virtbench-env-fixture/not-created', device: '/dev/vda', freeBytes: 84123725824, filesystem: 'ext4' })
    expect(env.memoryBytes).toBe(24684092 * 1024)
    expect(env.blockDevices?.map((d) => d.name)).toEqual(['vda'])
    expect(env.notes).toEqual(['ethtool is not installed: NIC channels not read'])
  })
})

describe('parseEnvironment: each kind of line', () => {
  it('reads NIC speed (Mb/s to bit/s), ethtool channels and addresses', () => {
    const env = parseEnvironment(
      output(
        ['nic', 'ens1f0', 'present', 'yes'],
        ['nic', 'ens1f0', 'speed_mbps', '25000'],
        ['nic', 'ens1f0', 'driver', 'mlx5_core'],
        ['nic', 'ens1f0', 'channels_max', '63'],
        ['nic', 'ens1f0', 'channels_current', '8'],
        ['nic', 'ens1f0', 'address', '10.0.0.5/24']
      ),
      AT
    )
    expect(env.nics).toStrictEqual([
      { name: 'ens1f0', speedBitsPerSecond: 25_000_000_000, driver: 'mlx5_core', channels: { max: 63, current: 8 }, addresses: ['10.0.0.5/24'] }
    ])
  })

  it('reads DMI strings and decides virtualization from them when nothing better is there', () => {
    const env = parseEnvironment(output(['arch', 'x86_64'], ['dmi_vendor', 'QEMU'], ['dmi_product', 'Standard PC (Q35 + ICH9, 2009)'], ['cpu_hypervisor_flag', 'yes']), AT)
    expect(env.dmi).toStrictEqual({ vendor: 'QEMU', product: 'Standard PC (Q35 + ICH9, 2009)' })
    expect([env.virtualization, env.virtualizationSource]).toEqual(['qemu', 'dmi'])
  })

  it('takes systemd-detect-virt first, then virt-what, then DMI, /sys/hypervisor and the cpu flag', () => {
    const at = (...lines: string[][]) => {
      const env = parseEnvironment(output(...lines), AT)
      return [env.virtualization, env.virtualizationSource]
    }
    expect(at(['virt_systemd', 'none'], ['dmi_vendor', 'VMware, Inc.'])).toEqual(['none', 'systemd-detect-virt'])
    expect(at(['virt_what', 'xen xen-hvm'], ['dmi_vendor', 'Xen'])).toEqual(['xen', 'virt-what'])
    expect(at(['virt_what', 'none'])).toEqual(['none', 'virt-what'])
    expect(at(['dmi_vendor', 'Microsoft Corporation'], ['dmi_product', 'Virtual Machine'])).toEqual(['microsoft', 'dmi'])
    expect(at(['hypervisor_type', 'xen'], ['cpu_hypervisor_flag', 'yes'])).toEqual(['xen', 'sysfs'])
    expect(at(['arch', 'x86_64'], ['cpu_hypervisor_flag', 'no'], ['dmi_vendor', 'Dell Inc.'])).toEqual(['none', 'cpuinfo'])
    // without the x86 hypervisor bit there is nothing to tell on ARM
    expect(at(['arch', 'aarch64'], ['cpu_hypervisor_flag', 'no'])).toEqual([undefined, undefined])
  })

  it('reads domain XML between its markers, and a cut-off one as an error', () => {
    const xml = libvirtXml('disk-aio')
    const text = ['virtbench-environment\t1', 'domain-xml-begin\tvm 1', xml.trimEnd(), 'domain-xml-end\tvm 1', 'domain-xml-begin\tvm2', '<domain>'].join('\n')
    const env = parseEnvironment(text, AT)
    expect(env.guests).toStrictEqual({
      'vm 1': { domain: 'vm 1', disks: [{ device: 'hda', cache: 'none', io: 'native', format: 'qcow2', bus: 'ide', sourceType: 'block', source: '/dev/HostVG/QEMUGuest1' }] },
      vm2: { domain: 'vm2', disks: [], error: 'the XML of domain vm2 was cut off (no end marker): the capture output was truncated or interrupted' }
    })
    expect(env.notes).toEqual(['the environment script stopped before its end (interrupted, timed out or cut off): later facts are missing'])
  })

  it("keeps a domain XML's parse error", () => {
    const env = parseEnvironment(output(['domain-xml-begin', 'g'], ['<capabilities/>'], ['domain-xml-end', 'g']), AT)
    expect(env.guests?.g?.error).toMatch(/root element is <capabilities>/)
  })

  it('leaves out values that are not what their key promises, with a note quoting them', () => {
    const env = parseEnvironment(
      output(['cpu_count', 'two'], ['mem_total_kib', '-5'], ['dev', 'sda', 'rotational', 'maybe'], ['nic', 'eth0', 'speed_mbps', '-1'], ['loadavg', 'high'], ['stat_cpu', '1 2 3']),
      AT
    )
    expect(env.cpuCount).toBeUndefined()
    expect(env.memoryBytes).toBeUndefined()
    expect(env.blockDevices).toStrictEqual([{ name: 'sda' }])
    expect(env.nics).toStrictEqual([{ name: 'eth0' }])
    expect(env.notes).toEqual([
      'ignored cpu_count "two": not a whole number',
      'ignored mem_total_kib "-5": not a whole number',
      'ignored sda rotational "maybe": not 0 or 1',
      'ignored eth0 speed_mbps "-1": not a link speed in Mb/s',
      'ignored loadavg "high": not three load averages',
      'ignored stat_cpu "1 2 3": not the 8 or more tick counts of /proc/stat'
    ])
  })

  it('ignores unknown lines and unknown tool ids, and keeps hostile names as plain keys', () => {
    const env = parseEnvironment(output(['future_fact', 'x'], ['tool', '__proto__', 'x 1.0'], ['domain-error', '__proto__', 'no such domain']), AT)
    expect(env.tools).toBeUndefined()
    expect(Object.keys(env.guests ?? {})).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(env.guests)).toBe(Object.prototype)
    expect(env.guests?.['__proto__']).toStrictEqual({ domain: '__proto__', disks: [], error: 'no such domain' })
  })

  it('says when the output is empty, foreign or from another format version', () => {
    expect(parseEnvironment('', AT)).toStrictEqual({ capturedAt: AT, notes: ['the environment script printed nothing'] })
    expect(parseEnvironment('sh: 1: cannot open environment.sh\n', AT).notes).toEqual([
      'this is not the output of environment.sh (its first line is missing): facts may be missing'
    ])
    expect(parseEnvironment('virtbench-environment\t2\nend\tok\n', AT).notes).toEqual([
      'the environment script speaks format "2", this VirtBench reads 1: facts may be missing'
    ])
  })

  it('reads CRLF line ends', () => {
    expect(parseEnvironment('virtbench-environment\t1\r\nkernel\t6.1.0\r\nend\tok\r\n', AT)).toStrictEqual({ capturedAt: AT, kernel: '6.1.0' })
  })

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('dev\tsda\tsize_bytes\t', 'domain-xml-begin\tx', 'domain-xml-end\tx', 'nic\t\t\t', 'tool\t\t')), { maxLength: 30 }), (lines) => {
        const env = parseEnvironment(lines.join('\n'), AT)
        expect(env.capturedAt).toBe(AT)
      }),
      { numRuns: 500 }
    )
  })
})

describe('parse helpers', () => {
  it('stealPercent: steal over user..steal, guest time not counted twice', () => {
    expect(stealPercent('100 0 0 800 0 0 0 100 50 0')).toBe(10)
    expect(stealPercent('0 0 0 0 0 0 0 0')).toBeUndefined()
    expect(stealPercent('1 2 3 4 5 6 7')).toBeUndefined()
  })

  it('activeScheduler: the one in brackets, or the only one', () => {
    expect(activeScheduler('none [mq-deadline] kyber bfq')).toBe('mq-deadline')
    expect(activeScheduler('[none] mq-deadline')).toBe('none')
    expect(activeScheduler('none')).toBe('none')
    expect(activeScheduler('noop deadline')).toBeUndefined()
  })

  it.each([
    ['QEMU', 'Standard PC (i440FX + PIIX, 1996)', 'qemu'],
    ['Red Hat', 'KVM', 'kvm'],
    ['VMware, Inc.', 'VMware7,1', 'vmware'],
    ['Microsoft Corporation', 'Virtual Machine', 'microsoft'],
    ['Microsoft Corporation', 'Surface Laptop 5', undefined],
    ['Xen', 'HVM domU', 'xen'],
    ['innotek GmbH', 'VirtualBox', 'oracle'],
    ['Amazon EC2', 'm5.large', 'amazon'],
    ['Google', 'Google Compute Engine', 'google'],
    ['Dell Inc.', 'PowerEdge R740', undefined]
  ])('virtualizationFromDmi(%j, %j) is %j', (vendor, product, expected) => {
    expect(virtualizationFromDmi(vendor, product)).toBe(expected)
  })
})
