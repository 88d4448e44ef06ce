/**
 * Preflight checks that the port a network test's server needs is free on the target that runs
 * the server (checks.sh's `ports`): a real iperf3 server already listening on it, on a real sshd
 * target, stops the run before its first job, with a finding that names the port, the program and
 * what to do. The same plan with the port free passes the check and runs.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { appendFile } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standardBeforeJobs } from '../../../src/main/engine/before-jobs'
import { startRun } from '../../../src/main/engine/start-run'
import { readRun } from '../../../src/main/store/run-store'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { TargetSchema, type Target } from '../../../src/shared/model/target'
import { freePort } from '../../harness/free-port'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { startLab, type Lab } from './run-harness'

/** A real iperf3 server on 127.0.0.1:port, resolved once it says it listens (or rejected with what it said, after 60 s). */
function iperf3Server(port: number): Promise<ChildProcess> {
  const child = spawn('iperf3', ['-s', '-p', String(port), '--bind', '127.0.0.1', '--forceflush'], { stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let said = ''
    const deadline = setTimeout(() => {
      child.kill()
      reject(new Error(`iperf3 -s did not say it listens within 60 s: ${said}`))
    }, 60_000)
    const hear = (chunk: Buffer): void => {
      said += chunk.toString('utf8')
      if (/Server listening on/.test(said)) {
        clearTimeout(deadline)
        resolve(child)
      }
    }
    child.stdout.on('data', hear)
    child.stderr.on('data', hear)
    child.on('exit', (code) => {
      clearTimeout(deadline)
      reject(new Error(`iperf3 -s exited with ${code}: ${said}`))
    })
  })
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

describe('preflight: the iperf3 server port on the server side target', () => {
  let lab: Lab
  let peerSshd: SshdServer
  let peer: Target

  beforeAll(async () => {
    lab = await startLab()
    peerSshd = await startSshd()
    await appendFile(path.join(peerSshd.dir, 'authorized_keys'), readFileSync(`${lab.host.privateKeyPath}.pub`))
    const now = new Date().toISOString()
    peer = TargetSchema.parse({
      id: 't-peer',
      name: 'itb4',
      kind: 'ssh',
      role: 'host',
      address: '127.0.0.1',
      port: peerSshd.port,
      user: peerSshd.username,
      auth: { method: 'key', keyPath: lab.host.privateKeyPath },
      createdAt: now,
      updatedAt: now
    })
  })
  afterAll(async () => {
    await peerSshd?.stop()
    await lab?.stop()
  })

  const planOn = (port: number) =>
    ComparisonPlanSchema.parse({
      name: 'port check',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      storage: { kind: 'directory', path: lab.workRoot },
      repetitions: 1,
      idleSeconds: 0,
      network: { peer: 'itb4' },
      tests: [{ id: 'iperf3', tool: 'iperf3', params: { seconds: 1, port } }]
    })

  it('stops the run before its first job when a real iperf3 server holds the port, naming it and what to do', async () => {
    const port = await freePort()
    const squatter = await iperf3Server(port)
    try {
      const runDir = path.join(lab.dir, 'run-port-taken')
      const started = await startRun(planOn(port), runDir, lab.services({ inventory: [...lab.inventory, peer], beforeJobs: standardBeforeJobs }))
      expect(await started.done).toBe('failed')
      const run = await readRun(runDir)
      const taken = run.preflight.filter((f) => f.code === 'port-taken')
      expect(taken).toEqual([
        {
          severity: 'error',
          target: 'itb4',
          code: 'port-taken',
          message: `TCP port ${port}, where iperf3's server must listen on itb4, is taken already by iperf3 (pid ${squatter.pid}): every iperf3 job with its server there would fail ("Address already in use").`,
          fix: `It looks like an iperf3 server left running: stop it on itb4 (kill ${squatter.pid}), or give the test another port (its "port" setting), then run the checks again.`
        }
      ])
      // only the server side is checked: the clients' machines run no server
      expect(run.preflight.filter((f) => f.code.startsWith('port-') && f.target !== 'itb4')).toEqual([])
      expect(run.error).toMatch(new RegExp(`^preflight found 1 problem:\\n- TCP port ${port}, where iperf3's server must listen on itb4`))
      expect(run.jobs.every((j) => j.attempts === 0 && j.samples.length === 0)).toBe(true)
    } finally {
      await stopped(squatter)
    }
  }, 180_000)

  it('passes the same plan once the port is free, and the iperf3 jobs run on it', async () => {
    const port = await freePort()
    const runDir = path.join(lab.dir, 'run-port-free')
    const started = await startRun(planOn(port), runDir, lab.services({ inventory: [...lab.inventory, peer], beforeJobs: standardBeforeJobs }))
    expect(await started.done).toBe('completed')
    const run = await readRun(runDir)
    expect(run.preflight.filter((f) => f.code.startsWith('port-'))).toEqual([])
    const servers = run.jobs.filter((j) => j.kind === 'compare').map((j) => j.steps.find((s) => s.id === 'server'))
    expect(servers.map((s) => [s?.on, s?.command.includes(`-p ${port}`)])).toEqual([
      ['itb4', true],
      ['itb4', true]
    ])
    expect(run.jobs.every((j) => j.status === 'succeeded' && j.samples.length > 0)).toBe(true)
  }, 180_000)
})
