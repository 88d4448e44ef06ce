/**
 * `virtbench run --fio-job-file FILE` (the built CLI) against two real sshd on loopback: the
 * admin's own job file runs as the only test, its jobs in the table, its text printed as run and
 * kept in run.json; a job file that would run a command is refused before anything connects.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { runCli, type CliResult } from '../../harness/cli'
import { startSshd, type SshdServer } from '../../harness/sshd'

const cli = (args: string[]): Promise<CliResult> => runCli(['run', ...args])

const JOB_FILE = `[global]
ioengine=psync
bs=4k
size=16m
runtime=1
time_based

[reader]
rw=randread

[writer]
rw=randwrite
`

describe('virtbench run --fio-job-file', () => {
  let host: SshdServer
  let guest: SshdServer
  let dir: string

  beforeAll(async () => {
    ;[host, guest] = await Promise.all([startSshd(), startSshd()])
    appendFileSync(path.join(guest.dir, 'authorized_keys'), readFileSync(`${host.privateKeyPath}.pub`))
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-jobfile-'))
    mkdirSync(path.join(dir, 'data'))
  })

  afterAll(async () => {
    await Promise.all([host?.stop(), guest?.stop()])
    rmSync(dir, { recursive: true, force: true })
  })

  const urls = (): string[] => [
    '--baseline', `phys=ssh://${host.username}@127.0.0.1:${host.port}`,
    '--variant', `vm=ssh://${guest.username}@127.0.0.1:${guest.port}`,
    '--identity', host.privateKeyPath,
    '--data-dir', path.join(dir, 'data'),
    '--accept-new-host-keys',
    '--work-dir', path.join(dir, 'work'),
    '--repeat', '1',
    '--idle-seconds', '0'
  ]

  it('runs the job file as the only test, prints its jobs (each under its name) and its text, and keeps the text in run.json', async () => {
    const file = path.join(dir, 'two-jobs.fio')
    writeFileSync(file, JOB_FILE)
    const out = path.join(dir, 'out')
    const result = await cli([...urls(), '--fio-job-file', file, '--out', out, '--all-metrics'])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    // the jobs side by side, added up (the primary figures), then each job under its name
    expect(result.stdout).toMatch(/^fio job file · fio\.read\.iops\s+\d/m)
    expect(result.stdout).toMatch(/^fio job file · fio\.read\.iops \(job=reader\)\s+\d/m)
    expect(result.stdout).toMatch(/^fio job file · fio\.write\.iops \(job=writer\)\s+\d/m)
    expect(result.stdout).toContain(`\nfio job files, as run (kept in the run document)\nfio job file (fio-job-file):\n${JOB_FILE.replace(/\n$/, '').split('\n').map((l) => `    ${l}`).join('\n')}\n`)
    const run = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
    expect(run.tests.map((t) => [t.id, t.params.jobFile])).toEqual([['fio-job-file', JOB_FILE]])
  })

  it('refuses a job file that runs a command, naming the line, section and option, and runs nothing', async () => {
    const file = path.join(dir, 'bad.fio')
    writeFileSync(file, `${JOB_FILE}exec_prerun=touch ${path.join(dir, 'ran')}\n`)
    const out = path.join(dir, 'out-bad')
    const result = await cli([...urls(), '--fio-job-file', file, '--out', out])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('job file line 13, [writer], exec_prerun: exec_prerun runs a command on the target before the job')
    expect(existsSync(path.join(dir, 'ran'))).toBe(false)
    expect(existsSync(path.join(out, 'run.json'))).toBe(false)
  })

  it('says which file it cannot read', async () => {
    const missing = path.join(dir, 'missing.fio')
    const result = await cli([...urls(), '--fio-job-file', missing, '--out', path.join(dir, 'out-missing')])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(`--fio-job-file: cannot read ${missing} (ENOENT); give the path of a fio job file on this computer`)
  })
})
