/**
 * A plan that declares cache=none for a guest whose domain XML (on its physical host) says
 * cache=writeback: the engine's pre-job stage flags it, the run keeps both, and the comparison
 * carries the flag on every cell of that variant.
 *
 * libvirt is not installed here: the physical host is this computer with a stand-in `virsh` first
 * on PATH that prints a real libvirt test domain (tests/fixtures/environment/libvirt/disk-cache.xml,
 * whose first disk is hda: qcow2, cache=writeback, bus ide). Everything else is real.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standardBeforeJobs } from '../../../src/main/engine/before-jobs'
import { createRunDocument, type EngineTarget } from '../../../src/main/engine/runner'
import { scriptsDir } from '../../../src/main/resources'
import { LocalSession } from '../../../src/main/ssh/local-session'
import type { ExecOptions, RemoteCommand, Session } from '../../../src/main/ssh/types'
import { compare } from '../../../src/shared/compare'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { comparisonInputOf } from '../../../src/shared/run-comparison'

const FIXTURE = path.resolve(__dirname, '../../fixtures/environment/libvirt/disk-cache.xml')

/** This computer, with `dir` first on PATH for every command. */
function withPath(session: LocalSession, dir: string): Session {
  return Object.assign(Object.create(session) as Session, {
    exec: (command: RemoteCommand | string, opts: ExecOptions = {}) =>
      session.exec(command, { ...opts, env: { ...opts.env, PATH: `${dir}:${process.env.PATH ?? '/usr/bin:/bin'}` } })
  })
}

describe('declared vs detected scenario', () => {
  let dir: string
  const sessions: LocalSession[] = []

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-virsh-'))
    writeFileSync(path.join(dir, 'virsh'), `#!/bin/sh\n# stand-in: virsh dumpxml DOMAIN\n[ "$1" = dumpxml ] || [ "$3" = dumpxml ] || exit 1\ncat ${JSON.stringify(FIXTURE)}\n`)
    chmodSync(path.join(dir, 'virsh'), 0o755)
  })

  afterAll(async () => {
    for (const s of sessions) await s.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('flags a guest declared cache=none whose host says cache=writeback, loudly, in findings and in the comparison', async () => {
    const plan = ComparisonPlanSchema.parse({
      name: 'mismatch',
      baseline: { target: 'phys' },
      variants: [{ target: 'vm1', label: 'vm1 none', scenario: { hypervisor: 'kvm', cache: 'none', bus: 'virtio-blk', domain: 'vm1-domain' } }],
      tests: [{ id: 'dd', tool: 'dd', params: { blockSize: '1M', count: '1', direct: false } }],
      repetitions: 1,
      storage: { kind: 'directory', path: dir }
    })
    const targets: EngineTarget[] = [
      { name: 'phys', label: 'phys', role: 'baseline', kind: 'local', addresses: {}, sudo: false },
      { name: 'vm1', label: 'vm1 none', role: 'variant', kind: 'local', addresses: {}, sudo: false, scenario: plan.variants[0]!.scenario, hostName: 'phys' }
    ]
    const run = createRunDocument(plan, targets, 'test')
    const phys = new LocalSession({ label: 'phys' })
    const vm1 = new LocalSession({ label: 'vm1' })
    sessions.push(phys, vm1)
    const result = await standardBeforeJobs({
      run,
      targets,
      sessions: new Map<string, Session>([['phys', withPath(phys, dir)], ['vm1', vm1]]),
      workDirs: new Map([['phys', dir], ['vm1', dir]]),
      scriptsDir: scriptsDir(),
      signal: new AbortController().signal
    })
    const mismatch = (result.findings ?? []).filter((f) => f.code === 'scenario-mismatch')
    expect(mismatch.map((f) => f.target)).toEqual(['vm1', 'vm1'])
    expect(mismatch[0]!.message).toMatch(/declared cache=none .*writeback/i)
    expect(mismatch.some((f) => /bus/i.test(f.message) && /ide/i.test(f.message))).toBe(true)

    // what the host said is kept with the run, next to what was declared
    const physEnv = result.environment!.phys!
    expect(physEnv.guests!['vm1-domain']!.disks[0]).toMatchObject({ device: 'hda', cache: 'writeback' })

    // the comparison carries the flag on the variant, so every table and report shows it
    run.environment = result.environment ?? {}
    const input = comparisonInputOf(run)
    expect(input.mismatches!['vm1 none']!.length).toBe(2)
    const comparison = compare({ ...input, measurements: [] })
    // and, as both targets are this one test machine (one machine and boot id), that it was measured twice
    expect(comparison.variantFlags['vm1 none']!.map((f) => f.kind)).toEqual(['scenario-mismatch', 'scenario-mismatch', 'same-machine'])
  })
})
