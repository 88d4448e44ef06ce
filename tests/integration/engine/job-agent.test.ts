/**
 * The job server (issue 22): `job.sh serve` answers `run` requests written to its stdin exactly
 * as `job.sh run` answers, and JobAgent (src/main/engine/job-agent.ts) keeps one per target and
 * splits its answers off its streams. Real job.sh, run through this computer (LocalSession) and
 * through a real loopback sshd as a throwaway user (SshSession); `sh job.sh run` run directly is
 * the reference each answer is held to.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JobAgent, MarkedStream } from '../../../src/main/engine/job-agent'
import { scriptsDir } from '../../../src/main/resources'
import { LocalSession } from '../../../src/main/ssh/local-session'
import { SshSession } from '../../../src/main/ssh/session'
import { SessionError, type ExecResult, type Session } from '../../../src/main/ssh/types'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { scratchDir } from '../faults/fault-kit'
import { connectClient, createThrowawayUser, pgrep, uniqueSleep, waitFor, type ThrowawayUser } from '../ssh/session-helpers'

const SOURCE_JOB_SH = path.join(scriptsDir(), 'linux', 'job.sh')

let nonces = 0
/** A fresh nonce of the engine's form. */
function nonce(): string {
  nonces++
  return `VBJOB-${process.pid.toString(16).padStart(8, '0')}${nonces.toString(16).padStart(8, '0')}`
}

interface Answer {
  stdout: Buffer
  stderr: Buffer
}

/** `sh JOB_SH run DIR NONCE LIMIT KEEP` run here directly, `script` on stdin: the reference answer. */
function directRun(jobSh: string, dir: string, id: string, script: string, keep = '1000'): Promise<Answer & { status: number | null }> {
  return new Promise((resolve) => {
    const child = spawn('sh', [jobSh, 'run', dir, id, '60', keep], { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => err.push(c))
    child.on('close', (status) => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), status }))
    child.stdin.end(script)
  })
}

/**
 * What may differ between two answers for the same script: the free KiB in a status line (the
 * disk changes), and the numbers of the counters line (the CPU's).
 */
function comparable(answer: Answer, id: string): { stdout: string; stderr: string } {
  const stdout = answer.stdout.toString('latin1').replace(new RegExp(`^(${id} \\S+ \\d+ \\d+) \\d+ `), '$1 <KiB> ')
  const at = answer.stderr.lastIndexOf(`${id}+`)
  const stderr = at < 0 ? answer.stderr.toString('latin1') : answer.stderr.toString('latin1', 0, at) + answer.stderr.toString('latin1', at).replace(/\d+/g, '#')
  return { stdout, stderr }
}

/** An answer's status line, the job's stdout and stderr, and the counters line. */
function parts(answer: Answer, id: string): { line: string; out: string; err: string; counters: string } {
  const text = answer.stdout.toString('latin1')
  const eol = text.indexOf('\n')
  const err = answer.stderr.toString('latin1')
  const at = err.lastIndexOf(`${id}+`)
  return { line: text.slice(0, eol), out: text.slice(eol + 1), err: at < 0 ? err : err.slice(0, at), counters: at < 0 ? '' : err.slice(at) }
}

/** Pids of the servers (and of the subshell serving a job) run from `jobSh`. */
function servers(jobSh: string): number[] {
  return pgrep(`^sh ${jobSh} serve$`)
}

/** A process's parent and process group, from /proc. */
function statOf(pid: number): { ppid: number; pgid: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')
  return { ppid: Number(fields[1]), pgid: Number(fields[2]) }
}

/**
 * The pid of the server run from `jobSh` while it serves a job: of it and the subshell serving the
 * job (a fork of it, with the same command line), the one whose parent is not the other.
 */
async function serverServing(jobSh: string): Promise<number> {
  expect(await waitFor(() => servers(jobSh).length === 2, 30_000)).toBe(true)
  const pids = servers(jobSh)
  const server = pids.find((pid) => !pids.includes(statOf(pid).ppid))
  expect(server).toBeGreaterThan(0)
  return server!
}

/** Until job folder `dir` names the job's process group (the job runs). */
async function jobStarted(dir: string): Promise<void> {
  const pgid = path.join(dir, 'pgid')
  expect(await waitFor(() => existsSync(pgid) && readFileSync(pgid, 'utf8').trim() !== '', 30_000)).toBe(true)
}

interface Target {
  session: Session
  /** The user the jobs run as owns the files they write. */
  uid: number
  close(): Promise<void>
}

const targets: { name: string; open: () => Promise<Target> }[] = [
  {
    name: 'this computer',
    open: () => {
      const session = new LocalSession({ label: 'local', killGraceMs: 500 })
      return Promise.resolve({ session, uid: process.getuid!(), close: () => session.close() })
    }
  },
  {
    name: 'a loopback sshd, as a throwaway user',
    open: async () => {
      const user: ThrowawayUser = createThrowawayUser()
      let server: SshdServer | undefined
      try {
        server = await startSshd({ extraConfig: user.sshdConfig })
        user.authorize(server)
        const sshd = server
        const session = new SshSession({ label: 'loopback', connect: () => connectClient(sshd, { username: user.name }), killGraceMs: 500 })
        return {
          session,
          uid: user.uid,
          close: async () => {
            await session.close()
            await sshd.stop()
            user.remove()
          }
        }
      } catch (err) {
        await server?.stop()
        user.remove()
        throw err
      }
    }
  }
]

describe.each(targets)('JobAgent and job.sh serve on $name', ({ open }) => {
  let target: Target
  let scratch: ReturnType<typeof scratchDir>
  /** A copy of job.sh of this suite's own, so that pgrep finds only this suite's servers. */
  let jobSh: string
  let agent: JobAgent

  beforeAll(async () => {
    scratch = scratchDir()
    // the throwaway user writes its jobs' folders here
    chmodSync(scratch.dir, 0o777)
    mkdirSync(path.join(scratch.dir, 'bin'), { mode: 0o755 })
    jobSh = path.join(scratch.dir, 'bin', 'job.sh')
    copyFileSync(SOURCE_JOB_SH, jobSh)
    chmodSync(jobSh, 0o644)
    target = await open()
    // no idle end between this file's jobs, however slow a loaded machine is between them
    agent = new JobAgent(target.session, jobSh, { idleMs: 600_000 })
  }, 120_000)

  afterAll(async () => {
    await agent?.close()
    await target?.close()
    scratch?.remove()
  }, 120_000)

  const where = (name: string): string => path.join(scratch.dir, name)

  /** One job through `agent`; its answer as the agent passed it on. */
  async function viaAgent(
    dir: string,
    id: string,
    script: string,
    opts: { keep?: string; signal?: AbortSignal } = {}
  ): Promise<Answer & { result: ExecResult }> {
    const out: Buffer[] = []
    const err: Buffer[] = []
    const result = await agent.run({ dir, nonce: id, limit: '60', keep: opts.keep ?? '1000' }, script, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      onStdout: (c) => void out.push(Buffer.from(c)),
      onStderr: (c) => void err.push(Buffer.from(c))
    })
    return { result, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }
  }

  it('runs jobs one after another through one server, each answered exactly as job.sh run answers it', { timeout: 120_000 }, async () => {
    const verbatim = [
      'cat <<\'EOF\'',
      'a \\backslash, two \\\\ and \\n, $HOME ${x:-y} `id` $(id) "double" \'single\'',
      '    four spaces before, a tab and spaces after\t  ',
      '',
      'EOF',
      '  printf \'%s\' "no newline: $((6 * 7)) \\"quoted\\""'
    ].join('\n')
    const jobs = [
      { name: 'plain', script: 'echo hello; echo oops >&2', status: '0', out: 'hello\n', err: 'oops\n' },
      { name: 'failing', script: 'echo failing\nexit 3\n', status: '3', out: 'failing\n', err: '' },
      {
        name: 'verbatim',
        script: verbatim,
        status: '0',
        out:
          'a \\backslash, two \\\\ and \\n, $HOME ${x:-y} `id` $(id) "double" \'single\'\n' +
          '    four spaces before, a tab and spaces after\t  \n\nno newline: 42 "quoted"',
        err: ''
      }
    ]
    const answers: (Answer & { id: string; result: ExecResult })[] = []
    const seen: number[][] = []
    for (const job of jobs) {
      const id = nonce()
      answers.push({ id, ...(await viaAgent(where(`row-${job.name}`), id, job.script)) })
      seen.push(servers(jobSh))
    }
    // one server for all three, still there between jobs
    expect(seen[0]).toHaveLength(1)
    expect(seen).toEqual([seen[0], seen[0], seen[0]])

    for (const [i, job] of jobs.entries()) {
      const { id, result } = answers[i]!
      const got = parts(answers[i]!, id)
      expect(result.exitCode).toBe(0)
      expect(result.cancelled).toBe(false)
      expect(result.stdoutBytes).toBe(answers[i]!.stdout.length)
      expect(result.stderrBytes).toBe(answers[i]!.stderr.length)
      const line = `${id} ${job.status} ${Buffer.byteLength(job.out)} ${Buffer.byteLength(job.err)}`
      // the free KiB and the mount point follow any status but 0
      if (job.status === '0') expect(got.line).toBe(line)
      else expect(got.line).toMatch(new RegExp(`^${line} \\d+ /`))
      expect(got.out).toBe(job.out)
      expect(got.err).toBe(job.err)
      expect(got.counters).toMatch(new RegExp(`^${id}\\+cpu .*\\|cpu .*\\|.*\\n$`))
      // the script as it was sent, with the last newline it lacked
      const dir = where(`row-${job.name}`)
      expect(readFileSync(path.join(dir, 'cmd.sh'), 'utf8')).toBe(job.script.endsWith('\n') ? job.script : `${job.script}\n`)
      expect(statSync(path.join(dir, 'cmd.sh')).uid).toBe(target.uid)
      // and what job.sh run, run here, answers for it
      const direct = await directRun(jobSh, where(`direct-${job.name}`), id, job.script)
      expect(direct.status).toBe(0)
      expect(comparable(answers[i]!, id)).toEqual(comparable(direct, id))
    }
  })

  it('ends a server left without a job (its stdin closed), and the next job starts a new one', { timeout: 120_000 }, async () => {
    const idle = new JobAgent(target.session, jobSh, { idleMs: 0 })
    try {
      // the servers there were before (the suite's own agent's)
      const before = servers(jobSh)
      const first = nonce()
      let during: number[] = []
      const answer = await idle.run({ dir: where('idle-1'), nonce: first, limit: '60', keep: '1000' }, 'echo one', {
        onStdout: () => void (during = servers(jobSh)),
        onStderr: () => undefined
      })
      expect(answer.exitCode).toBe(0)
      // it had a server of its own while it served the job, and that server ends without a job
      expect(during.filter((pid) => !before.includes(pid)).length).toBeGreaterThan(0)
      expect(await waitFor(() => servers(jobSh).every((pid) => before.includes(pid)), 30_000)).toBe(true)
      const out: Buffer[] = []
      const second = nonce()
      const again = await idle.run({ dir: where('idle-2'), nonce: second, limit: '60', keep: '1000' }, 'echo two', { onStdout: (c) => void out.push(Buffer.from(c)), onStderr: () => undefined })
      expect(again.exitCode).toBe(0)
      expect(Buffer.concat(out).toString()).toBe(`${second} 0 4 0\ntwo\n`)
    } finally {
      await idle.close()
    }
  })

  it('sends the head and the tail of a long output, as job.sh run does', { timeout: 120_000 }, async () => {
    const id = nonce()
    const script = 'yes line | head -c 3000000'
    const answer = await viaAgent(where('long'), id, script, { keep: '1000' })
    expect(answer.result.exitCode).toBe(0)
    const text = answer.stdout.toString('latin1')
    expect(text.split('\n')[0]).toBe(`${id} 0 3000000 0`)
    // 500 bytes of "line\n" from the start, and the last 500
    expect(text.slice(text.indexOf('\n') + 1)).toBe('line\n'.repeat(100) + 'line\n'.repeat(100))
    const direct = await directRun(jobSh, where('long-direct'), id, script, '1000')
    expect(comparable(answer, id)).toEqual(comparable(direct, id))
  })

  it('answers a job that cannot start with exit code 70 and job.sh\'s reason, and serves the next one', { timeout: 120_000 }, async () => {
    const file = where('a-file')
    writeFileSync(file, 'not a folder\n')
    chmodSync(file, 0o644)
    const id = nonce()
    const failed = await viaAgent(path.join(file, 'job'), id, 'echo never')
    expect(failed.result.exitCode).toBe(70)
    expect(failed.stdout.length).toBe(0)
    expect(failed.stderr.toString()).toMatch(new RegExp(`^job\\.sh: cannot start the job in ${file}/job: its files cannot be written \\(\\d+ KiB free on /.*\\)\\n$`))
    const nextId = nonce()
    const next = await viaAgent(where('after-70'), nextId, 'echo next')
    expect(next.result.exitCode).toBe(0)
    expect(parts(next, nextId)).toMatchObject({ line: `${nextId} 0 5 0`, out: 'next\n' })
  })

  it('leaves a cancelled job running on its own, and the next job starts a new server', { timeout: 120_000 }, async () => {
    const dir = where('cancelled')
    const sleep = uniqueSleep(30)
    const control = new AbortController()
    const running = viaAgent(dir, nonce(), `sleep ${sleep}`, { signal: control.signal })
    await jobStarted(dir)
    const server = await serverServing(jobSh)
    control.abort()
    const { result } = await running
    expect(result.cancelled).toBe(true)
    expect(agent.busy).toBe(false)
    // the job is in a session of its own: the server's end did not end it
    expect(await waitFor(() => !servers(jobSh).includes(server), 30_000)).toBe(true)
    expect(pgrep(`sleep ${sleep}`)).toHaveLength(1)
    const stop = spawnSync('sh', [jobSh, 'stop', dir, '500'], { encoding: 'utf8' })
    expect(stop.status).toBe(0)
    expect(await waitFor(() => pgrep(`sleep ${sleep}`).length === 0, 30_000)).toBe(true)

    const id = nonce()
    const next = await viaAgent(where('after-cancel'), id, 'echo again')
    expect(next.result.exitCode).toBe(0)
    expect(parts(next, id)).toMatchObject({ line: `${id} 0 6 0`, out: 'again\n' })
    const now = servers(jobSh)
    expect(now).toHaveLength(1)
    expect(now[0]).not.toBe(server)
  })

  it.each([
    {
      what: "the server's process group, as the end of its SSH session would",
      name: 'group',
      kill: (server: number) => process.kill(-statOf(server).pgid, 'SIGKILL'),
      // nothing holds the server's streams open any more
      rejectsBeforeTheJobEnds: true
    },
    {
      what: 'the server alone',
      name: 'alone',
      kill: (server: number) => process.kill(server, 'SIGKILL'),
      // the subshell serving the job holds the streams open and sends the job's answer at its end, with no marker after it
      rejectsBeforeTheJobEnds: false
    }
  ])('rejects with a channel error when $what is killed while a job runs; the job runs on and job.sh wait gives its end', { timeout: 120_000 }, async ({ name, kill, rejectsBeforeTheJobEnds }) => {
    const dir = where(`orphaned-${name}`)
    const go = where(`orphaned-${name}.go`)
    const id = nonce()
    const failed = viaAgent(dir, id, `while [ ! -e ${go} ]; do sleep 0.05; done; echo finished`).then(
      () => undefined,
      (err: unknown) => err
    )
    await jobStarted(dir)
    const server = await serverServing(jobSh)
    kill(server)
    if (rejectsBeforeTheJobEnds) {
      const err = await failed
      expect(err).toBeInstanceOf(SessionError)
      expect(['channel', 'connection-lost']).toContain((err as SessionError).code)
      expect(agent.busy).toBe(false)
    }
    // the job runs on
    expect(await waitFor(() => !servers(jobSh).includes(server), 30_000)).toBe(true)
    expect(pgrep(`job-main 60 ${dir}`).length).toBeGreaterThan(0)
    writeFileSync(go, '')
    const err = await failed
    expect(err).toBeInstanceOf(SessionError)
    expect(['channel', 'connection-lost']).toContain((err as SessionError).code)
    expect(agent.busy).toBe(false)
    const wait = spawnSync('sh', [jobSh, 'wait', dir, id, '60', '1000'], { encoding: 'latin1', timeout: 60_000 })
    expect(wait.status).toBe(0)
    expect(wait.stdout).toBe(`${id} 0 9 0\nfinished\n`)
    expect(wait.stderr).toMatch(new RegExp(`^${id}\\+cpu `))
    // and the next job starts a new server
    const nextId = nonce()
    const next = await viaAgent(where(`after-${name}`), nextId, 'echo again')
    expect(parts(next, nextId)).toMatchObject({ line: `${nextId} 0 6 0`, out: 'again\n' })
  })
})

/** `sh job.sh serve` as a child of this process, its answers read with MarkedStream. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams
  readonly exited: Promise<number | null>
  private current: { out: MarkedStream; err: MarkedStream } | undefined

  constructor(jobSh: string) {
    this.child = spawn('sh', [jobSh, 'serve'], { stdio: ['pipe', 'pipe', 'pipe'] })
    this.child.stdout.on('data', (c: Buffer) => void this.current?.out.write(c))
    this.child.stderr.on('data', (c: Buffer) => void this.current?.err.write(c))
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)))
  }

  /** Sends `request` and reads the answer to nonce `id` on both streams. */
  async ask(request: string, id: string): Promise<Answer & { code: number | undefined }> {
    const out: Buffer[] = []
    const err: Buffer[] = []
    const current = {
      out: new MarkedStream(id, (c) => void out.push(Buffer.from(c)), () => undefined),
      err: new MarkedStream(id, (c) => void err.push(Buffer.from(c)), () => undefined)
    }
    this.current = current
    this.child.stdin.write(request)
    expect(await waitFor(() => current.out.code !== undefined && current.err.code !== undefined, 30_000)).toBe(true)
    expect(current.err.code).toBe(current.out.code)
    return { stdout: Buffer.concat(out), stderr: Buffer.concat(err), code: current.out.code }
  }
}

describe('job.sh serve read directly', () => {
  let scratch: ReturnType<typeof scratchDir>
  let jobSh: string
  beforeAll(() => {
    scratch = scratchDir()
    jobSh = path.join(scratch.dir, 'job.sh')
    copyFileSync(SOURCE_JOB_SH, jobSh)
  })
  afterAll(() => scratch?.remove())
  let bad = 0

  const request = (dir: string, id: string, script: string[], verb = 'run'): string =>
    `${verb}\n${dir}\n${id}\n60\n1000\n${script.length}\n${script.map((l) => `${l}\n`).join('')}`

  it.each([
    ['an unknown verb', (dir: string) => request(dir, nonce(), ['true'], 'bogus')],
    ['a line count that is no number', (dir: string) => `run\n${dir}\n${nonce()}\n60\n1000\n1x\ntrue\n`],
    ['a limit that is no number', (dir: string) => `run\n${dir}\n${nonce()}\nsixty\n1000\n1\ntrue\n`],
    ['an empty keep', (dir: string) => `run\n${dir}\n${nonce()}\n60\n\n1\ntrue\n`]
  ])('ends with exit 64 on %s, its stdin still open, having started no job', async (_what, make) => {
    const dir = path.join(scratch.dir, `bad-${++bad}`)
    const server = new RawServer(jobSh)
    server.child.stdin.write(make(dir))
    expect(await server.exited).toBe(64)
    expect(existsSync(dir)).toBe(false)
    server.child.stdin.destroy()
  })

  it('ends with exit 64 when stdin ends before the script lines it announced', async () => {
    const server = new RawServer(jobSh)
    server.child.stdin.end(`run\n${path.join(scratch.dir, 'short')}\n${nonce()}\n60\n1000\n3\necho one\n`)
    expect(await server.exited).toBe(64)
  })

  it('answers a job whose folder cannot be made with exit 70 and the reason job.sh run gives, then serves the next request', async () => {
    const file = path.join(scratch.dir, 'plain-file')
    writeFileSync(file, 'x')
    const server = new RawServer(jobSh)
    const id = nonce()
    const failed = await server.ask(request(path.join(file, 'job'), id, ['echo never']), id)
    expect(failed.code).toBe(70)
    expect(failed.stdout.length).toBe(0)
    const direct = await directRun(jobSh, path.join(file, 'job'), id, 'echo never\n')
    expect(direct.status).toBe(70)
    expect(direct.stdout.length).toBe(0)
    const reason = `job.sh: cannot start the job in ${file}/job: its files cannot be written (`
    expect(failed.stderr.toString()).toMatch(new RegExp(`^${reason.replace(/[.()/]/g, '\\$&')}\\d+ KiB free on /.*\\)\\n$`))
    expect(direct.stderr.toString().replace(/\(\d+ KiB/, '(N KiB')).toBe(failed.stderr.toString().replace(/\(\d+ KiB/, '(N KiB'))

    const next = nonce()
    const answer = await server.ask(request(path.join(scratch.dir, 'next'), next, ['echo served', 'exit 5']), next)
    expect(answer.code).toBe(0)
    expect(parts(answer, next)).toMatchObject({ out: 'served\n', err: '' })
    expect(parts(answer, next).line).toMatch(new RegExp(`^${next} 5 7 0 \\d+ /`))
    server.child.stdin.end()
    expect(await server.exited).toBe(0)
  })
})
