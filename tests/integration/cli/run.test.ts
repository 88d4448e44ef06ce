import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { runCli, type CliResult } from '../../harness/cli'
import { mountedBlockDevice } from '../../harness/devices'
import { startSshd, type SshdServer } from '../../harness/sshd'

const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCli(['run', ...args], env)


describe('virtbench run', () => {
  let host: SshdServer
  let guest: SshdServer
  let dir: string
  let dataDir: string

  beforeAll(async () => {
    ;[host, guest] = await Promise.all([startSshd(), startSshd()])
    appendFileSync(path.join(guest.dir, 'authorized_keys'), readFileSync(`${host.privateKeyPath}.pub`))
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-run-'))
    dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
  })

  afterAll(async () => {
    await Promise.all([host?.stop(), guest?.stop()])
    rmSync(dir, { recursive: true, force: true })
  })

  const urls = (): string[] => [
    '--baseline', `phys=ssh://${host.username}@127.0.0.1:${host.port}`,
    '--variant', `vm=ssh://${guest.username}@127.0.0.1:${guest.port}`,
    '--identity', host.privateKeyPath,
    '--data-dir', dataDir,
    '--accept-new-host-keys'
  ]

  it('runs a pack on ssh:// targets, prints progress and the overhead table, and writes run.json with the raw outputs', async () => {
    const out = path.join(dir, 'out-dd')
    const work = path.join(dir, 'work')
    const result = await cli([...urls(), '--pack', 'block-dd', '--quick', '--repeat', '2', '--out', out, '--work-dir', work])
    expect(result.stderr).toContain('Accepted and remembered (--accept-new-host-keys)')
    expect(result.status, result.stdout + result.stderr).toBe(0)
    // plain progress lines (not a terminal), one per job start and end
    expect(result.stdout).toMatch(/^\[1\/8\] Throughput: 64 MiB O_DIRECT write on phys #1 started/m)
    expect(result.stdout).toMatch(/^\[8\/8\] Latency: 200 x 512 B O_DIRECT writes on vm #2 ok \(4 values\)/m)
    expect(result.stdout).toMatch(/^test · metric\s+phys \(baseline\)\s+vm$/m)
    expect(result.stdout).toMatch(/^Throughput: 64 MiB O_DIRECT write · dd\.bandwidth\s+\d[\d.]* [KMG]iB\/s\s+\d[\d.]* [KMG]iB\/s\s+\d+ %/m)
    expect(result.stdout).toContain('Run completed: 8 of 8 jobs succeeded.')
    expect(result.stdout).toContain(`Run document: ${path.join(out, 'run.json')}`)

    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    expect(run.targets.map((t) => `${t.name}:${t.role}`)).toEqual(['phys:baseline', 'vm:variant'])
    expect(run.jobs.every((j) => j.status === 'succeeded')).toBe(true)
    for (const job of run.jobs) {
      for (const step of job.steps) expect(existsSync(path.join(out, step.stdoutFile!))).toBe(true)
    }
    // preflight and the environment ran before the jobs and were kept
    expect(Object.keys(run.environment).sort()).toEqual(['phys', 'vm'])
    expect((run.environment.phys as { kernel?: string }).kernel).toBe(os.release())
    // nothing left where the tests wrote
    expect(existsSync(work) ? readdirSync(work) : []).toEqual([])
  })

  it('--resume runs again what did not succeed (a crash left a job unfinished), keeping the rest', async () => {
    const out = path.join(dir, 'out-dd')
    const file = path.join(out, 'run.json')
    const before = RunDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
    // as a crash leaves it: the last job was running when the process died
    const crashed = { ...before, status: 'running', jobs: before.jobs.map((j, i) => (i === before.jobs.length - 1 ? { ...j, status: 'running', samples: [] } : j)) }
    writeFileSync(file, JSON.stringify(crashed))
    const result = await cli(['--resume', out, '--identity', host.privateKeyPath, '--data-dir', dataDir])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toContain('Running 1 job.')
    // counted over the whole run: 7 jobs kept, this one the 8th of 8
    expect(result.stdout).toMatch(/^\[8\/8\] Latency: 200 x 512 B O_DIRECT writes on vm #2 started/m)
    expect(result.stdout).toMatch(/^\[8\/8\] Latency: 200 x 512 B O_DIRECT writes on vm #2 ok \(4 values\)$/m)
    expect(result.stdout.match(/^\[\d\/\d\]/gm)).toEqual(['[8/8]', '[8/8]'])
    const after = RunDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
    expect(after.status).toBe('completed')
    expect(after.jobs.map((j) => j.attempts)).toEqual([1, 1, 1, 1, 1, 1, 1, 2])
    expect(after.jobs.slice(0, 7)).toEqual(before.jobs.slice(0, 7))
    expect(after.jobs[7]!.samples.length).toBe(4)
  })

  it('exits 2 with a clear message on usage errors, before touching any target', async () => {
    const missingOut = await cli([...urls(), '--pack', 'block-dd'])
    expect(missingOut.status).toBe(2)
    expect(missingOut.stderr).toBe("virtbench: say where the run goes with --out DIR. See 'virtbench run --help'.\n")

    const used = path.join(dir, 'used')
    mkdirSync(used)
    writeFileSync(path.join(used, 'run.json'), '{}')
    const notEmpty = await cli([...urls(), '--pack', 'block-dd', '--out', used])
    expect(notEmpty.status).toBe(2)
    expect(notEmpty.stderr).toContain('is not empty (it holds another run)')

    const badUrl = await cli(['--baseline', 'phys=http://x', '--variant', 'vm=local', '--pack', 'block-dd', '--out', path.join(dir, 'o1')])
    expect(badUrl.status).toBe(2)
    expect(badUrl.stderr).toContain('phys: "http://x" must start with ssh://')

    const badPack = await cli([...urls(), '--pack', 'nope', '--out', path.join(dir, 'o2')])
    expect(badPack.status).toBe(2)
    expect(badPack.stderr).toContain('there is no pack "nope"')

    const badWait = await cli([...urls(), '--pack', 'block-dd', '--reconnect-wait', '2.5', '--out', path.join(dir, 'o3')])
    expect(badWait.status).toBe(2)
    expect(badWait.stderr).toContain('--reconnect-wait must be a whole number of seconds from 0 to 86400, not "2.5"')
  })

  it('refuses a preset whose raw device has no confirmation, and one whose device is mounted (preflight, exit 2, nothing written to it)', async () => {
    const { device } = mountedBlockDevice()
    const preset = (confirm: string | undefined) => ({
      kind: 'virtbench-preset',
      version: 1,
      plan: {
        name: 'raw device',
        baseline: { target: 'phys' },
        variants: [{ target: 'vm' }],
        tests: [{ pack: 'block-dd', form: 'quick' }],
        repetitions: 1,
        storage: { kind: 'device', path: device, ...(confirm !== undefined ? { confirm } : {}) }
      }
    })
    // the targets come from the inventory for a preset
    const targets = [
      { name: 'phys', port: host.port },
      { name: 'vm', port: guest.port }
    ].map((t, i) => ({
      id: `t${i}`, kind: 'ssh', name: t.name, role: i === 0 ? 'host' : 'guest', address: '127.0.0.1', port: t.port, user: host.username,
      auth: { method: 'key', keyPath: host.privateKeyPath, hasPassphrase: false }, addresses: {}, sudo: 'none', labels: {},
      createdAt: '2026-11-20T00:00:00.000Z', updatedAt: '2026-11-20T00:00:00.000Z'
    }))
    writeFileSync(path.join(dataDir, 'targets.json'), JSON.stringify({ kind: 'virtbench.targets', version: 1, data: { targets } }))

    const unconfirmed = path.join(dir, 'unconfirmed.json')
    writeFileSync(unconfirmed, JSON.stringify(preset(undefined)))
    const noConfirm = await cli([unconfirmed, '--out', path.join(dir, 'o3'), '--data-dir', dataDir, '--accept-new-host-keys'])
    expect(noConfirm.status).toBe(2)
    expect(noConfirm.stderr).toMatch(/is not a valid preset: plan\.storage\.confirm/)

    const mounted = path.join(dir, 'mounted.json')
    writeFileSync(mounted, JSON.stringify(preset(device)))
    const refused = await cli([mounted, '--out', path.join(dir, 'o4'), '--data-dir', dataDir, '--accept-new-host-keys'])
    expect(refused.status, refused.stdout + refused.stderr).toBe(2)
    expect(refused.stdout).toMatch(new RegExp(`^error: .*${device.replace(/[/.]/g, '\\$&')}.*mounted`, 'm'))
    expect(refused.stderr).toMatch(/preflight found \d+ problems? \(listed above\); nothing ran/)
    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'o4', 'run.json'), 'utf8')))
    expect(run.jobs.every((j) => j.status === 'queued' && j.steps.length === 0)).toBe(true)
    expect(run.preflight.some((f) => f.code === 'device-mounted' && f.severity === 'error')).toBe(true)
  })
})
