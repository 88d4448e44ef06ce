/**
 * Scenario detection on a real guest run by libvirt (the lab's own libvirtd): inside the guest,
 * the virtualization, the data disk's write cache and its blk-mq queues; on the physical host
 * (the harness sshd, whose sessions reach the lab libvirtd through LIBVIRT_DEFAULT_URI, set with
 * sshd's SetEnv), the domain's `virsh dumpxml` driver cache, io and queues. A plan that declares
 * the cache mode the domain has is not flagged; one that declares another is.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { labLibvirtUri, type Guest } from '../../../lab/driver'
import type { TargetEnvironment } from '../../../src/shared/model/environment'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import type { ScenarioMismatch } from '../../../src/shared/model/scenario'
import type { SshdServer } from '../../harness/sshd'
import { BOOT_TIMEOUT_MS, BUILD_TIMEOUT_MS, openLab, saveTargets, virtbenchRun, writePreset, type LabContext } from './lab-fixture'

describe('scenario detection on a real libvirt guest', () => {
  let lab: LabContext
  let host: SshdServer
  let guest: Guest

  beforeAll(async () => {
    lab = await openLab('scen')
    const uri = labLibvirtUri(lab.stateDir)
    ;[host, [guest]] = await Promise.all([
      lab.physicalHost({ extraConfig: [`SetEnv LIBVIRT_DEFAULT_URI=${uri}`] }),
      lab.boot([{ name: 'detect', cache: 'none', queues: 2, libvirt: true }])
    ])
  }, BUILD_TIMEOUT_MS + BOOT_TIMEOUT_MS)

  afterAll(async () => {
    await lab?.stop()
  }, 60_000)

  it('the domain is what was asked for: virsh dumpxml shows cache, io and queues of every disk', () => {
    expect(guest.domain).toBe('vb-lab-detect')
    const dump = spawnSync('virsh', ['-c', guest.libvirtUri!, 'dumpxml', guest.domain!], { encoding: 'utf8' })
    expect(dump.status, dump.stderr).toBe(0)
    const drivers = [...dump.stdout.matchAll(/<driver name='qemu' type='(\w+)' cache='(\w+)' io='(\w+)' queues='(\d+)'\/>/g)].map((m) => m.slice(1).join(' '))
    expect(drivers).toEqual(['qcow2 none native 2', 'raw none native 2', 'qcow2 none native 2'])
    // the user-mode network travels on the qemu command line, restricted
    expect(dump.stdout).toMatch(/<qemu:arg value='user,id=vbnet0,restrict=on,hostfwd=tcp:127\.0\.0\.1:\d+-:22/)
  })

  it('reads the guest from inside and the domain from the host; flags the declared cache that differs, not the one that matches', async () => {
    // the same guest twice: declared as it is (cache=none, 2 queues), and declared cache=writeback
    saveTargets(lab, [
      { name: 'phys', port: host.port, role: 'host' },
      { name: 'vm-as-is', port: guest.sshPort, role: 'guest' },
      { name: 'vm-declared-wb', port: guest.sshPort, role: 'guest' }
    ])
    const preset = writePreset(lab, 'scenario', {
      baseline: { target: 'phys' },
      variants: [
        { target: 'vm-as-is', scenario: { hypervisor: 'kvm', cache: 'none', queues: 2, bus: 'virtio-blk', storage: 'file-qcow2', domain: guest.domain } },
        { target: 'vm-declared-wb', scenario: { hypervisor: 'kvm', cache: 'writeback', bus: 'virtio-blk', domain: guest.domain } }
      ],
      tests: [{ id: 'dd', tool: 'dd', params: { mode: 'write', blockSize: '1M', count: '4', direct: true } }],
      repetitions: 1
    })
    const out = path.join(lab.dir, 'run')
    const result = await virtbenchRun([preset, '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys'])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    const environment = run.environment as Record<string, (TargetEnvironment & { scenarioMismatches?: ScenarioMismatch[] }) | undefined>

    // inside the guest
    const inside = environment['vm-as-is']!
    expect(inside.virtualization).toBe(guest.accel === 'kvm' ? 'kvm' : 'qemu')
    const vdb = inside.blockDevices?.find((d) => d.name === guest.devices.raw)
    // cache=none keeps the disk's volatile write cache visible to the guest (flushes reach the disk)
    expect(vdb).toMatchObject({ writeCache: 'write back', mqQueues: 2, sizeBytes: 256 * 1024 * 1024 })
    expect(inside.blockDevices?.find((d) => d.name === guest.devices.data)?.mqQueues).toBe(2)

    // on the host: the domain XML, read through virsh on the physical host
    const seen = environment.phys?.guests?.[guest.domain!]
    expect(seen?.error).toBeUndefined()
    expect(seen?.disks.map((d) => [d.device, d.bus, d.cache, d.io, d.queues, d.format])).toEqual([
      ['vda', 'virtio-blk', 'none', 'native', 2, 'qcow2'],
      ['vdb', 'virtio-blk', 'none', 'native', 2, 'raw'],
      ['vdc', 'virtio-blk', 'none', 'native', 2, 'qcow2']
    ])

    // declared vs detected
    const mismatches = run.preflight.filter((f) => f.code === 'scenario-mismatch')
    expect(mismatches.map((f) => f.target)).toEqual(['vm-declared-wb'])
    expect(mismatches[0]!.message).toBe("declared cache=writeback but the host's domain XML for vm-declared-wb (disk vda) says cache=none: the numbers measure none")
    expect(result.stdout).toMatch(/warning: .*declared cache=writeback/)
    expect(environment['vm-declared-wb']?.scenarioMismatches?.map((m) => m.field)).toEqual(['cache'])
    expect(environment['vm-as-is']?.scenarioMismatches).toBeUndefined()
    expect(run.jobs.every((j) => j.status === 'succeeded')).toBe(true)
  }, 600_000)
})
