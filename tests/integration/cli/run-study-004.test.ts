import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
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

  it('monitors the hosts the guests run on when the plan names only the guests, and warns about a host it cannot reach', async () => {
    // study 004's shape: a guest on Hyper-V as the baseline, a guest on VMware as the variant, their hosts saved but not in the plan
    const data = path.join(dir, 'data-guests-only')
    mkdirSync(data)
    const cliHere = (args: string[]): Promise<CliResult> => runCli([...args, '--data-dir', data])
    const closedPort = await freePort()
    // (two names for each sshd: the two hosts are one machine here, and so are the guests)
    const saved: [string, SshdServer, number, string[]][] = [
      ['hyperv-host', host, host.port, ['--role', 'host']],
      ['vmware-host', host, host.port, ['--role', 'host']],
      ['lost-host', host, closedPort, ['--role', 'host']],
      ['hyperv-guest', guest, guest.port, ['--role', 'guest', '--runs-on', 'hyperv-host']],
      ['vmware-guest', guest, guest.port, ['--role', 'guest', '--runs-on', 'vmware-host']],
      ['lost-guest', guest, guest.port, ['--role', 'guest', '--runs-on', 'lost-host']]
    ]
    for (const [name, server, port, role] of saved) {
      const added = await cliHere(['targets', 'add', '--name', name, '--address', '127.0.0.1', '--port', String(port), '--user', server.username, '--key', server.privateKeyPath, ...role])
      expect(added.status, added.stderr).toBe(0)
      if (name.startsWith('lost')) continue
      const tested = await cliHere(['targets', 'test', name, '--accept-new-host-keys'])
      expect(tested.status, tested.stdout + tested.stderr).toBe(0)
    }
    const preset = path.join(dir, 'seq-dd-guests.json')
    writeFileSync(
      preset,
      JSON.stringify({
        kind: 'virtbench-preset',
        version: 1,
        plan: {
          name: 'study 004, guests only',
          baseline: { target: 'hyperv-guest' },
          variants: [{ target: 'vmware-guest' }, { target: 'lost-guest' }],
          tests: [{ pack: 'seq-dd', form: 'quick', only: ['dd-write'] }],
          repetitions: 1,
          storage: { kind: 'directory', path: path.join(dir, 'work-guests') }
        }
      })
    )
    const out = path.join(dir, 'out-guests')
    const result = await cliHere(['run', preset, '--out', out, '--idle-seconds', '0'])
    // the unreachable host is a warning: the run completes
    expect(result.status, result.stdout + result.stderr).toBe(0)

    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    expect(run.targets.map((t) => t.name)).toEqual(['hyperv-guest', 'vmware-guest', 'lost-guest'])
    // preflight says which hosts are monitored and why, and which could not be reached
    const hostFindings = run.preflight.filter((f) => f.code.startsWith('host-monitor')).map((f) => [f.severity, f.code, f.target])
    expect(hostFindings).toEqual([
      ['info', 'host-monitored', 'hyperv-host'],
      ['info', 'host-monitored', 'vmware-host'],
      ['warning', 'host-monitor-unreachable', 'lost-host']
    ])
    expect(result.stdout).toContain("info: hyperv-host's disks are monitored during hyperv-guest's storage tests: it is the host hyperv-guest's target names; it is not a target of this run")
    expect(result.stdout).toContain('warning: lost-host, the host lost-guest runs on, could not be reached (')

    const blocks = diskActivityBlocks(run)
    const machines = (b: (typeof blocks)[number]): string => [...new Set(b.lines.map((l) => `${l.view}:${l.machine}`))].join(' ')
    const blockOf = (guestName: string): (typeof blocks)[number] => {
      const found = blocks.find((b) => b.variant === guestName)
      expect(found, `${guestName}'s block`).toBeDefined()
      return found!
    }
    // both hosts were monitored through monitoring-only sessions: the guest's and the host's lines, and the ratio (or why none)
    const section = result.stdout.slice(result.stdout.indexOf('Disk activity of the guests and their hosts (host monitor, as atop shows it)'))
    expect(section.length).toBeLessThan(result.stdout.length)
    for (const [guestName, hostName] of [['hyperv-guest', 'hyperv-host'], ['vmware-guest', 'vmware-host']] as const) {
      const block = blockOf(guestName)
      expect(machines(block)).toBe(`guest:${guestName} host:${hostName}`)
      const r = block.ratio
      const what = r?.direction === 'write' ? 'writes' : 'reads'
      expect(section).toContain(r ? `(the guest's ${r.guestDevice}: ${r.guestRequests} ${what}; the host's ${r.hostDevice}: ${r.hostRequests} ${what}).` : block.noRatio)
      expect(section).toMatch(new RegExp(`^host\\s+(LVM|MDD|DSK)\\s+${hostName}\\s+\\S+\\s+[\\d.]+ %`, 'm'))
    }
    // the guest whose host could not be reached: its own lines, and the reason in place of the ratio
    const lost = blockOf('lost-guest')
    expect(machines(lost)).toBe('guest:lost-guest')
    expect(lost.noRatio).toContain('host monitor on lost-host: not reached before the jobs (')
    expect(section).toContain(lost.noRatio)
  })
})

/** A port nothing listens on (one the system just gave and took back). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}
