import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { domainXml, qemuArgv, resolveGuestSpec, type GuestFiles } from '../../../lab/guest-spec'
import {
  CAP_QUEUE_BYTES,
  MAX_MEMBERS,
  PUBLIC_SUBNET,
  ROUTER_ADDRESS,
  capArgs,
  capBurstBytes,
  guestNicScript,
  memberAddresses,
  memberMac,
  natRuleset,
  tapName
} from '../../../lab/network-plan'

describe('lab network plan', () => {
  it('gives member i the private address .10+i and the EIP .10+i, up to the last member', () => {
    expect(memberAddresses(0)).toEqual({ index: 0, privateAddress: '192.168.77.10', publicAddress: '198.18.77.10' })
    expect(memberAddresses(MAX_MEMBERS - 1)).toMatchObject({ privateAddress: '192.168.77.250', publicAddress: '198.18.77.250' })
    expect(() => memberAddresses(MAX_MEMBERS)).toThrow('the lab network has room for 241 members (index 0 to 240), not index 241')
    expect(() => memberAddresses(-1)).toThrow('not index -1')
  })

  it('names taps within the 15 characters Linux allows, and MACs locally administered', () => {
    expect(tapName(4194304, 99, 12)).toBe('vb4194304n99t12')
    expect(() => tapName(4194304, 100, 12)).toThrow('longer than the 15 characters Linux allows')
    expect(memberMac(300, 2)).toBe('52:54:00:b7:2c:02')
  })

  it('translates each EIP to its private address and back, replacing the whole table at once', () => {
    const text = natRuleset([memberAddresses(0), memberAddresses(1)])
    expect(text.split('\n').slice(0, 3)).toEqual(['table ip vblab', 'delete table ip vblab', 'table ip vblab {'])
    expect(text).toContain('    ip daddr 198.18.77.10 dnat to 192.168.77.10\n    ip daddr 198.18.77.11 dnat to 192.168.77.11\n')
    expect(text).toContain('    ip saddr 192.168.77.10 snat to 198.18.77.10\n    ip saddr 192.168.77.11 snat to 198.18.77.11\n')
    expect(text).toContain('type nat hook prerouting priority dstnat;')
    expect(text).toContain('type nat hook postrouting priority srcnat;')
  })

  it('the ruleset is one nft accepts (nft --check)', () => {
    // --check parses and validates against the kernel without changing anything
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vb-nft-'))
    try {
      const file = path.join(dir, 'rules.nft')
      writeFileSync(file, natRuleset([memberAddresses(0), memberAddresses(3)]))
      execFileSync('nft', ['--check', '-f', file], { stdio: 'pipe' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('caps a member with an htb class, a deep byte fifo and a u32 filter on its address', () => {
    expect(capArgs('togw', 1, 'src', '192.168.77.11', 30e6)).toEqual([
      ['class', 'replace', 'dev', 'togw', 'parent', '1:', 'classid', '1:65', 'htb', 'rate', '30000000bit', 'ceil', '30000000bit',
        'burst', '37500', 'cburst', '37500', 'quantum', '60000'],
      ['qdisc', 'replace', 'dev', 'togw', 'parent', '1:65', 'bfifo', 'limit', String(CAP_QUEUE_BYTES)],
      ['filter', 'replace', 'dev', 'togw', 'parent', '1:', 'protocol', 'ip', 'prio', '1', 'handle', '800::65', 'u32', 'match', 'ip', 'src', '192.168.77.11/32', 'flowid', '1:65']
    ])
    expect(capBurstBytes(1e6)).toBe(32 * 1024)
    expect(() => capArgs('togw', 0, 'dst', '192.168.77.10', 1000)).toThrow("an EIP's cap is a whole number of bit/s, at least 8000, not 1000")
  })

  it('configures the guest NIC found by its MAC: address, MTU and the route to the EIPs', () => {
    const script = guestNicScript('52:54:00:b7:01:00', memberAddresses(0), 9000)
    expect(script).toContain(`if [ "$(cat "$d/address")" = '52:54:00:b7:01:00' ]`)
    expect(script).toContain('ip link set "$dev" mtu 9000 up\nip addr replace 192.168.77.10/24 dev "$dev"\n')
    expect(script).toContain(`ip route replace ${PUBLIC_SUBNET} via ${ROUTER_ADDRESS} dev "$dev"`)
    expect(() => guestNicScript("52:54:00:b7:01:00'; reboot; '", memberAddresses(0), 9000)).toThrow('not a MAC address')
  })

  it('a guest with a lab NIC gets a tap netdev qemu creates, in plain qemu and in the libvirt domain', () => {
    const files: GuestFiles = {
      kernel: '/k',
      initrd: '/i',
      rootOverlay: '/g/root.qcow2',
      rawDisk: '/g/raw.img',
      dataDisk: '/g/data.qcow2',
      serialLog: '/g/serial.log',
      pidFile: '/g/qemu.pid'
    }
    const spec = resolveGuestSpec({ name: 'vm1' })
    const nic = { tap: 'vb1n1t0', mac: '52:54:00:b7:01:00' }
    const argv = qemuArgv(spec, files, { ssh: 1, iperf: [] }, 'tcg', nic)
    expect(argv.join(' ')).toContain('-netdev tap,id=lab0,ifname=vb1n1t0,script=no,downscript=no -device virtio-net-pci,netdev=lab0,mac=52:54:00:b7:01:00')
    // the user-mode NIC stays the first (eth0: management SSH)
    expect(argv.indexOf('user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:1-:22')).toBeLessThan(argv.indexOf('tap,id=lab0,ifname=vb1n1t0,script=no,downscript=no'))
    expect(qemuArgv(spec, files, { ssh: 1, iperf: [] }, 'tcg').join(' ')).not.toContain('tap,')
    const xml = domainXml(spec, files, { ssh: 1, iperf: [] }, 'tcg', '/usr/bin/qemu-system-x86_64', nic)
    expect(xml).toContain("<qemu:arg value='virtio-net-pci,netdev=lab0,mac=52:54:00:b7:01:00,bus=pci.0,addr=0x1e'/>")
    expect(() => qemuArgv(spec, files, { ssh: 1, iperf: [] }, 'tcg', { tap: 'a,b', mac: nic.mac })).toThrow('a tap device name is 1 to 15 letters')
  })
})
