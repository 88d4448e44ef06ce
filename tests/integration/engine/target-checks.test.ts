/**
 * A target's checks before a run in one command (runTargetChecks, resources/scripts/linux/checks.sh)
 * against a real sshd: the same facts and environment as preflight and the environment capture
 * give on their own, the idle gate sampled around them, and one exec for all of it.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standardBeforeJobs } from '../../../src/main/engine/before-jobs'
import { captureEnvironment } from '../../../src/main/engine/environment/capture'
import type { PreflightFacts, Unreachable } from '../../../src/main/engine/preflight/facts'
import { collectPreflightFacts } from '../../../src/main/engine/preflight/preflight'
import { createRunDocument, type EngineTarget } from '../../../src/main/engine/runner'
import { checksSections, runTargetChecks } from '../../../src/main/engine/target-checks'
import { scriptsDir } from '../../../src/main/resources'
import { LocalSession } from '../../../src/main/ssh/local-session'
import { SshSession } from '../../../src/main/ssh/session'
import type { Session } from '../../../src/main/ssh/types'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { connectClient, createThrowawayUser, waitFor, type ThrowawayUser } from '../ssh/session-helpers'

function reachable(facts: PreflightFacts | Unreachable): PreflightFacts {
  if ('unreachable' in facts) throw new Error(`unreachable: ${facts.unreachable}`)
  return facts
}

/** Counts the commands a session runs (the session itself is real). */
function counting<S extends Session>(session: S): { session: S; execs: string[] } {
  const execs: string[] = []
  const exec = session.exec.bind(session)
  session.exec = (command, opts) => {
    execs.push(typeof command === 'string' ? command : 'argv' in command ? command.argv.join(' ') : command.script)
    return exec(command, opts)
  }
  return { session, execs }
}

describe('runTargetChecks over SSH', () => {
  let user: ThrowawayUser
  let server: SshdServer
  let scratch: string
  const sessions: SshSession[] = []
  const open = (): SshSession => {
    const s = new SshSession({ label: 'target', connect: () => connectClient(server, { username: user.name }) })
    sessions.push(s)
    return s
  }

  beforeAll(async () => {
    user = createThrowawayUser()
    server = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(server)
    scratch = mkdtempSync(path.join(os.tmpdir(), 'vb-target-checks-'))
  })
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()))
    await server?.stop()
    user?.remove()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('gives the facts and the environment the separate checks give, the idle facts, in one command', async () => {
    const dir = path.join(user.home, 'work')
    const { session, execs } = counting(open())
    await session.ensureScripts(scriptsDir())
    const before = execs.length
    const checks = await runTargetChecks(session, scriptsDir(), {
      preflight: { scriptsDir: scriptsDir(), dir, tools: ['dd', 'fio', 'no-such-tool'], idleSeconds: 1 },
      environment: { workDir: dir }
    })
    expect(execs.slice(before)).toHaveLength(1)
    expect(execs.at(-1)).toMatch(/linux\/checks\.sh 1 /)

    const facts = reachable(checks.facts)
    const alone = await collectPreflightFacts(open(), { scriptsDir: scriptsDir(), dir, tools: ['dd', 'fio', 'no-such-tool'] })
    expect(facts.problems).toEqual(alone.problems)
    expect(facts.problems).toEqual(['"no-such-tool" is not a tool name'])
    expect(facts.tools).toEqual(alone.tools)
    expect(facts.dir).toMatchObject({ path: dir, exists: true, writable: true })
    expect({ ...facts, idle: undefined, dir: undefined }).toEqual({ ...alone, idle: undefined, dir: undefined })
    expect(facts.idle?.seconds).toBe(1)
    expect(facts.idle?.load).toHaveLength(3)
    expect(facts.idle?.busyPct).toBeGreaterThanOrEqual(0)
    expect(facts.idle?.busyPct).toBeLessThanOrEqual(100)

    const env = await captureEnvironment(open(), { scriptsDir: scriptsDir(), workDir: dir })
    expect(checks.environment.notes ?? []).toEqual(env.notes ?? [])
    expect(checks.environment).toMatchObject({ os: env.os, kernel: env.kernel, arch: env.arch, machineId: env.machineId, bootId: env.bootId })
    // (free space moves between two reads)
    expect({ ...checks.environment.workDir, freeBytes: 0 }).toEqual({ ...env.workDir, freeBytes: 0 })
    expect(checks.environment.tools).toEqual(env.tools)
  })

  it('without idle seconds, has no idle facts', async () => {
    const dir = path.join(user.home, 'work-2')
    const checks = await runTargetChecks(open(), scriptsDir(), { preflight: { scriptsDir: scriptsDir(), dir, tools: [], idleSeconds: 0 }, environment: { workDir: dir } })
    const facts = reachable(checks.facts)
    expect(facts.problems).toEqual([])
    expect(facts.idle).toBeUndefined()
    expect(checks.environment.kernel).toBe(os.release())
  })

  it('a target that cannot be reached is unreachable, with an environment that says why', async () => {
    const gone = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(gone)
    const session = new SshSession({ label: 'gone', connect: () => connectClient(gone, { username: user.name }), reconnectDelaysMs: [] })
    sessions.push(session)
    await gone.stop()
    const checks = await runTargetChecks(session, scriptsDir(), { preflight: { scriptsDir: scriptsDir(), tools: [], idleSeconds: 1 }, environment: { workDir: '/tmp' } })
    expect(checks.facts).toMatchObject({ unreachable: expect.any(String) })
    expect(checks.environment.notes?.[0]).toMatch(/^gone: the environment could not be read: /)
  })
})

describe('standardBeforeJobs: the idle gate on a retry', () => {
  let scratch: string
  const sessions: LocalSession[] = []

  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'vb-before-jobs-'))
  })
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()))
    rmSync(scratch, { recursive: true, force: true })
  })

  it('does not sample again a target this run found idle minutes ago, says so, and samples the others', async () => {
    const targets: EngineTarget[] = [
      { name: 'a', label: 'a', role: 'baseline', kind: 'local', addresses: {}, sudo: false },
      { name: 'b', label: 'b', role: 'variant', kind: 'local', addresses: {}, sudo: false }
    ]
    const plan = ComparisonPlanSchema.parse({
      name: 'retry',
      baseline: { target: 'a' },
      variants: [{ target: 'b' }],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      repetitions: 1,
      storage: { kind: 'directory', path: path.join(scratch, 'work') }
    })
    const run = createRunDocument(plan, targets, 'test')
    const checkedAt = new Date(Date.now() - 60_000).toISOString()
    // a found idle a minute ago; b was never checked by this run
    run.environment = { a: { capturedAt: checkedAt } }
    const session = (name: string): LocalSession => {
      const s = new LocalSession({ label: name, workRoot: path.join(scratch, `scripts-${name}`) })
      sessions.push(s)
      return s
    }
    const counted = { a: counting(session('a')), b: counting(session('b')) }
    const result = await standardBeforeJobs({
      run,
      targets,
      sessions: new Map<string, Session>([['a', counted.a.session], ['b', counted.b.session]]),
      workDirs: new Map([['a', path.join(scratch, 'work', 'a')], ['b', path.join(scratch, 'work', 'b')]]),
      scriptsDir: scriptsDir(),
      signal: new AbortController().signal
    })
    // a quick plan samples 1 s; a's check asked for none
    expect(counted.a.execs.filter((e) => e.includes('linux/checks.sh'))).toEqual([expect.stringMatching(/linux\/checks\.sh 0 /)])
    expect(counted.b.execs.filter((e) => e.includes('linux/checks.sh'))).toEqual([expect.stringMatching(/linux\/checks\.sh 1 /)])
    expect(result.findings?.filter((f) => f.code === 'idle-skipped')).toEqual([
      { severity: 'info', target: 'a', code: 'idle-skipped', message: `a was not sampled for idleness again: this run found it idle at ${checkedAt}.` }
    ])
    expect(result.findings?.some((f) => f.code === 'not-idle' && f.target === 'a')).toBe(false)
    expect(Object.keys(result.environment ?? {}).sort()).toEqual(['a', 'b'])
    expect(result.environment?.b?.kernel).toBe(os.release())
  })
})

describe('checks.sh stopped (a time limit, a cancel)', () => {
  it('prints what its parts found before the stop, and no idle facts of a window cut short', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'vb-checks-cut-'))
    try {
      const work = path.join(tmp, 'work')
      const child = spawn('sh', [path.join(scriptsDir(), 'linux', 'checks.sh'), '60', '2', '--dir', work, work], {
        env: { ...process.env, TMPDIR: tmp },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe']
      })
      let out = ''
      child.stdout.on('data', (c: Buffer) => (out += c.toString()))
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
      // both parts have ended; the idle window (60 s) has not
      const partsDone = (): boolean => {
        const dirs = readdirSync(tmp).filter((d) => d.startsWith('vb-checks.'))
        const read = (f: string): string => (dirs[0] && existsSync(path.join(tmp, dirs[0], f)) ? readFileSync(path.join(tmp, dirs[0], f), 'utf8') : '')
        return read('pre').includes('end\t1') && read('env').includes('end\tok')
      }
      expect(await waitFor(partsDone, 60_000, 50)).toBe(true)
      process.kill(-child.pid!, 'SIGTERM')
      expect(await closed).toBe(143)
      const sections = checksSections(out)
      // 0 when the part had been waited for, 143 when the stop came first
      expect([0, 143]).toContain(sections.get('preflight')?.status)
      expect(sections.get('preflight')?.text).toContain(`dir.path\t${work}\n`)
      expect(sections.get('preflight')?.text).not.toContain('idle.')
      expect(sections.get('environment')?.text).toContain(`workdir\tpath\t${work}\n`)
      // and its scratch folder is gone
      expect(readdirSync(tmp).filter((d) => d.startsWith('vb-checks.'))).toEqual([])
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  })
})
