import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { diskActivityBlocks } from '../../../src/shared/studies/disk-activity'
import { runCli, type CliResult } from '../../harness/cli'
import { startSshd, type SshdServer } from '../../harness/sshd'

/**
 * Study 004 through the CLI: a guest saved as running on a physical host (two real sshd on
 * 127.0.0.1), the seq-dd pack in its quick form, the host monitor on. `virtbench run` prints the
 * atop table of the guest and its host with the logical-to-physical ratio, from the figures the
 * run document keeps.
 */
describe('virtbench run: study 004’s guest and host disk activity', () => {
  let host: SshdServer
  let guest: SshdServer
  let dir: string
  let dataDir: string
  const cli = (args: string[]): Promise<CliResult> => runCli([...args, '--data-dir', dataDir])

  beforeAll(async () => {
    ;[host, guest] = await Promise.all([startSshd(), startSshd()])
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-004-'))
    dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
  })

  afterAll(async () => {
    await Promise.all([host?.stop(), guest?.stop()])
    rmSync(dir, { recursive: true, force: true })
  })

  it('prints, per guest job, the guest’s and the host’s lines and their ratio, as the run document has them', async () => {
    for (const [name, server, role] of [['host', host, ['--role', 'host']], ['guest', guest, ['--role', 'guest', '--runs-on', 'host']]] as const) {
      const added = await cli(['targets', 'add', '--name', name, '--address', '127.0.0.1', '--port', String(server.port), '--user', server.username, '--key', server.privateKeyPath, ...role])
      expect(added.status, added.stderr).toBe(0)
      const tested = await cli(['targets', 'test', name, '--accept-new-host-keys'])
      expect(tested.status, tested.stdout + tested.stderr).toBe(0)
    }
    const preset = path.join(dir, 'seq-dd.json')
    const work = path.join(dir, 'work')
    writeFileSync(
      preset,
      JSON.stringify({
        kind: 'virtbench-preset',
        version: 1,
        plan: { name: 'study 004', baseline: { target: 'host' }, variants: [{ target: 'guest' }], tests: [{ pack: 'seq-dd', form: 'quick', only: ['dd-write'] }], repetitions: 2, storage: { kind: 'directory', path: work } }
      })
    )
    const out = path.join(dir, 'out')
    const result = await cli(['run', preset, '--out', out, '--idle-seconds', '0'])
    expect(result.status, result.stdout + result.stderr).toBe(0)

    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    const blocks = diskActivityBlocks(run)
    // both guest jobs were monitored on the guest and on its host (here one machine: one device each)
    expect(blocks.map((b) => [...new Set(b.lines.map((l) => `${l.view}:${l.machine}`))].join(' '))).toEqual(['guest:guest host:host', 'guest:guest host:host'])
    const section = result.stdout.slice(result.stdout.indexOf('Disk activity of the guests and their hosts (host monitor, as atop shows it)'))
    expect(section.length).toBeLessThan(result.stdout.length)
    for (const block of blocks) {
      expect(section).toContain(`Write 64 MiB with dd bs=8k · guest, repetition ${block.repetition} · monitored`)
      // the ratio printed is the one of the requests the run document kept (or why there is none: a host disk that completed nothing)
      const r = block.ratio
      const what = r?.direction === 'write' ? 'writes' : 'reads'
      expect(section).toContain(r ? `(the guest's ${r.guestDevice}: ${r.guestRequests} ${what}; the host's ${r.hostDevice}: ${r.hostRequests} ${what}).` : block.noRatio)
    }
    expect(section).toMatch(/^guest\s+(LVM|MDD|DSK)\s+guest\s+\S+\s+[\d.]+ %\s+[\d.]+k? op\/s/m)
    expect(section).toMatch(/^host\s+(LVM|MDD|DSK)\s+host\s+\S+\s+[\d.]+ %\s+[\d.]+k? op\/s/m)
  })
})
