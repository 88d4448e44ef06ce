/**
 * Raw-device safety on a real guest disk. The guest's raw data disk (no signature, not mounted)
 * is written after the typed confirmation; its root disk (mounted at /) and the same data disk
 * once it has been given a filesystem are refused by preflight, and their bytes are the same
 * before and after.
 *
 * The guest plays both sides of the comparison (two saved targets at the same address), so no
 * device of the machine running the tests is ever named.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Guest } from '../../../lab/driver'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { BOOT_TIMEOUT_MS, BUILD_TIMEOUT_MS, openLab, saveTargets, virtbenchRun, writePreset, type LabContext } from './lab-fixture'

/** The region the block-dd quick tests write (64 MiB from the start of the device). */
const REGION_MIB = 64

describe('raw-device safety on a real guest disk', () => {
  let lab: LabContext
  let guest: Guest
  let raw: string
  let root: string

  beforeAll(async () => {
    lab = await openLab('raw')
    ;[guest] = await lab.boot([{ name: 'rawdev', cache: 'none' }])
    raw = `/dev/${guest.devices.raw}`
    root = `/dev/${guest.devices.root}`
    saveTargets(lab, [
      { name: 'side-a', port: guest.sshPort, role: 'guest' },
      { name: 'side-b', port: guest.sshPort, role: 'guest' }
    ])
  }, BUILD_TIMEOUT_MS + BOOT_TIMEOUT_MS)

  afterAll(async () => {
    await lab?.stop()
  }, 60_000)

  async function inGuest(command: string): Promise<string> {
    const result = await guest.exec(command, 120_000)
    expect(result.code, `${command}: ${result.stderr}`).toBe(0)
    return result.stdout.trim()
  }

  /** sha256 of the first REGION_MIB MiB of a device, read uncached. */
  const regionHash = (device: string): Promise<string> => inGuest(`dd if=${device} bs=1M count=${REGION_MIB} iflag=direct status=none | sha256sum | cut -d' ' -f1`)

  async function runOn(device: string, confirm: string, name: string): Promise<{ result: Awaited<ReturnType<typeof virtbenchRun>>; run: RunDocument }> {
    const preset = writePreset(lab, name, {
      baseline: { target: 'side-a' },
      variants: [{ target: 'side-b' }],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      repetitions: 1,
      storage: { kind: 'device', path: device, confirm }
    })
    const out = path.join(lab.dir, name)
    const result = await virtbenchRun([preset, '--out', out, '--data-dir', lab.dataDir, '--accept-new-host-keys'])
    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    return { result, run }
  }

  it(`runs on the raw data disk (no signature, not mounted) after the typed confirmation, and really writes it`, async () => {
    // a pattern that is no known signature, so the write shows
    await inGuest(`yes virtbench-lab | head -c ${REGION_MIB * 1024 * 1024} | dd of=${raw} bs=1M oflag=direct iflag=fullblock status=none && blkid -p ${raw}; test $? -eq 2`)
    const before = await regionHash(raw)
    const { result, run } = await runOn(raw, raw, 'raw-ok')
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(run.jobs.map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded'])
    expect(run.jobs.every((j) => j.samples.length > 0)).toBe(true)
    expect(await regionHash(raw)).not.toBe(before)
  }, 600_000)

  it('refuses the root disk (mounted at /) and writes nothing to it', async () => {
    const superblock = `dd if=${root} bs=1024 count=2 iflag=direct status=none | od -A d -t x1 | sed -n '1,4p;/^0001072/p'`
    const identity = `blkid -p -o export ${root} | grep -E '^(UUID|LABEL|TYPE)='`
    const [sbBefore, idBefore] = [await inGuest(superblock), await inGuest(identity)]
    expect(idBefore).toContain('LABEL=vbroot')
    const { result, run } = await runOn(root, root, 'raw-root')
    expect(result.status, result.stdout + result.stderr).toBe(2)
    expect(result.stderr).toMatch(/preflight found \d+ problems? \(listed above\); nothing ran/)
    const mounted = run.preflight.filter((f) => f.code === 'device-mounted' && f.severity === 'error')
    expect(mounted.map((f) => f.target).sort()).toEqual(['side-a', 'side-b'])
    expect(mounted[0]!.message).toContain(root)
    expect(run.jobs.every((j) => j.status === 'queued' && j.steps.length === 0)).toBe(true)
    expect(await inGuest(superblock)).toBe(sbBefore)
    expect(await inGuest(identity)).toBe(idBefore)
  }, 600_000)

  it('refuses the raw disk once it has been given a filesystem, and leaves every byte of it as it was', async () => {
    await inGuest(`mkfs.ext4 -q -F -L justmade ${raw} && sync`)
    const before = await regionHash(raw)
    const { result, run } = await runOn(raw, raw, 'raw-fs')
    expect(result.status, result.stdout + result.stderr).toBe(2)
    const signature = run.preflight.filter((f) => f.code === 'device-signature' && f.severity === 'error')
    expect(signature.map((f) => f.target).sort()).toEqual(['side-a', 'side-b'])
    expect(signature[0]!.message).toMatch(/ext4/)
    expect(run.jobs.every((j) => j.status === 'queued' && j.steps.length === 0)).toBe(true)
    expect(await regionHash(raw)).toBe(before)
    expect(await inGuest(`blkid -p -o value -s LABEL ${raw}`)).toBe('justmade')
  }, 600_000)
})
