import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalSession } from '../../../src/main/ssh/local-session'
import { readScriptBundle } from '../../../src/main/ssh/upload'
import { SessionError } from '../../../src/main/ssh/types'
import { pgrep, uniqueSleep, waitFor } from './session-helpers'

const SCRIPTS = path.resolve(__dirname, '../../../resources/scripts')
const HOSTILE = ['$(touch pwned); rm -rf ~', "'; reboot #", 'it\'s a "quoted" name', 'new\nline', '`touch pwned`', '']

function allRunning(...sleeps: string[]): boolean {
  return sleeps.every((s) => pgrep(`sleep ${s}`).length > 0)
}

function noneRunning(...sleeps: string[]): boolean {
  return sleeps.every((s) => pgrep(`sleep ${s}`).length === 0)
}

describe('LocalSession: this computer as a target', () => {
  let scratch: string
  let session: LocalSession

  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'virtbench-local-'))
    session = new LocalSession({ killGraceMs: 400, workRoot: path.join(scratch, 'work') })
  })
  afterAll(async () => {
    await session.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('describes this computer', async () => {
    expect(session.label).toBe('this computer')
    expect(await session.facts()).toEqual({ shell: 'posix', system: 'Linux', release: os.release(), machine: os.machine(), homeDir: os.homedir() })
  })

  it('reports exit codes, signals and separate streams', async () => {
    const r = await session.exec({ script: 'echo out; echo err >&2; exit 4' }, { capture: { maxBytes: 100 } })
    expect(r).toMatchObject({ exitCode: 4, signal: null, stdoutBytes: 4, stderrBytes: 4, timedOut: false, cancelled: false })
    expect(r.stdout?.toString()).toBe('out\n')
    expect(r.stderr?.toString()).toBe('err\n')
    expect(await session.exec({ script: 'kill -s KILL $$' })).toMatchObject({ exitCode: null, signal: 'KILL' })
    expect(await session.exec({ argv: ['sh', '-c', 'kill -s TERM $$'] })).toMatchObject({ exitCode: null, signal: 'TERM' })
  })

  it('sends stdin and returns bytes unchanged', async () => {
    const bytes = Buffer.concat([randomBytes(70_000), Buffer.from('\x1b[31mred\x1b[0m\r\n')])
    const chunks: Buffer[] = []
    const r = await session.exec({ argv: ['cat'] }, { stdin: bytes, onStdout: (c) => void chunks.push(c), capture: { maxBytes: 1 << 20 } })
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true)
    expect(r.stdout?.equals(bytes)).toBe(true)
    const none = await session.exec({ argv: ['cat'] }, { timeoutMs: 5000 })
    expect(none).toMatchObject({ exitCode: 0, stdoutBytes: 0, timedOut: false })
  })

  it('keeps hostile arguments, environment values and paths as plain strings', async () => {
    const dir = path.join(scratch, `d $(touch pwned) 'q'\nnl`)
    mkdirSync(dir)
    const env = Object.fromEntries(HOSTILE.map((v, i) => [`VB_${i}`, v]))
    const r = await session.exec({ script: HOSTILE.map((_, i) => `printf '%s|' "$VB_${i}"`).join('; ') + '; pwd' }, { env, cwd: dir, capture: { maxBytes: 10_000 } })
    expect(r.stdout?.toString()).toBe(HOSTILE.map((v) => `${v}|`).join('') + `${dir}\n`)
    const argv = await session.exec({ argv: ['printf', '%s\\0', ...HOSTILE] }, { cwd: dir, capture: { maxBytes: 10_000 } })
    expect(argv.stdout?.toString()).toBe(HOSTILE.map((v) => `${v}\0`).join(''))
    for (const where of [scratch, dir, process.cwd(), os.homedir()]) expect(existsSync(path.join(where, 'pwned'))).toBe(false)
    await expect(session.exec('true', { env: { 'BAD NAME': 'x' } })).rejects.toThrow(SessionError)
  })

  it('stops the whole process group on cancel and on timeout, TERM first, then KILL', async () => {
    const [bg, stubborn, last] = [uniqueSleep(), uniqueSleep(), uniqueSleep()]
    const ac = new AbortController()
    const running = session.exec({ script: `sleep ${bg} & sh -c 'trap "" TERM; sleep ${stubborn}; :' & sleep ${last}` }, { signal: ac.signal })
    expect(await waitFor(() => allRunning(bg, stubborn, last), 5000)).toBe(true)
    const t0 = Date.now()
    ac.abort()
    const r = await running
    expect(r.cancelled).toBe(true)
    expect(Date.now() - t0).toBeLessThan(3000)
    expect(noneRunning(bg, stubborn, last)).toBe(true)

    const [a, b] = [uniqueSleep(), uniqueSleep()]
    const timed = await session.exec({ script: `sleep ${a} & sleep ${b}` }, { timeoutMs: 300 })
    expect(timed).toMatchObject({ timedOut: true, cancelled: false })
    expect(noneRunning(a, b)).toBe(true)

    expect(await session.exec({ argv: ['touch', path.join(scratch, 'never')] }, { signal: AbortSignal.abort() })).toMatchObject({ cancelled: true })
    expect(existsSync(path.join(scratch, 'never'))).toBe(false)
  })

  it('streams 200 MB with an exact count in bounded memory', async () => {
    const rss0 = process.memoryUsage.rss()
    let peak = 0
    let seen = 0
    const hash = createHash('sha256')
    const r = await session.exec(
      { argv: ['head', '-c', '200000000', '/dev/zero'] },
      {
        onStdout: (c) => {
          seen += c.length
          hash.update(c)
          if (seen % (16 << 20) < c.length) peak = Math.max(peak, process.memoryUsage.rss() - rss0)
        }
      }
    )
    expect(r.stdoutBytes).toBe(200_000_000)
    expect(seen).toBe(200_000_000)
    const zeros = createHash('sha256')
    const block = Buffer.alloc(1_000_000)
    for (let i = 0; i < 200; i++) zeros.update(block)
    expect(hash.digest('hex')).toBe(zeros.digest('hex'))
    expect(peak).toBeLessThan(64 * 1024 * 1024)
  })

  it('ensures scripts once, verified and executable, and cleans up', async () => {
    const bundle = await readScriptBundle(SCRIPTS)
    const first = await session.ensureScripts(SCRIPTS)
    expect(first).toEqual({ remoteDir: path.join(scratch, 'work', bundle.hash), uploaded: true, hash: bundle.hash })
    const probe = path.join(first.remoteDir, 'linux', 'probe.sh')
    expect(readFileSync(probe).equals(readFileSync(path.join(SCRIPTS, 'linux', 'probe.sh')))).toBe(true)
    expect(statSync(probe).mode & 0o777).toBe(0o755)
    expect((await session.ensureScripts(SCRIPTS)).uploaded).toBe(false)
    const fresh = new LocalSession({ workRoot: path.join(scratch, 'work') })
    expect((await fresh.ensureScripts(SCRIPTS)).uploaded).toBe(false)
    writeFileSync(probe, 'tampered')
    const third = new LocalSession({ workRoot: path.join(scratch, 'work') })
    expect((await third.ensureScripts(SCRIPTS)).uploaded).toBe(true)
    const out = await session.exec({ argv: [probe] }, { capture: { maxBytes: 10_000 } })
    expect(out.stdout?.toString()).toContain(`kernel=${os.release()}\n`)
    await session.removeWorkDir()
    expect(existsSync(path.join(scratch, 'work'))).toBe(false)
  })

  it('copies and writes files atomically with the mode asked for', async () => {
    const src = path.join(scratch, 'src.bin')
    const data = randomBytes(100_000)
    writeFileSync(src, data)
    const dest = path.join(scratch, `dest $(x) it's.bin`)
    await session.upload(src, dest, { mode: 0o600 })
    expect(readFileSync(dest).equals(data)).toBe(true)
    expect(statSync(dest).mode & 0o777).toBe(0o600)
    await session.writeFile(dest, 'text\n')
    expect(readFileSync(dest, 'utf8')).toBe('text\n')
    expect(readdirSync(scratch).filter((n) => n.includes('vb-tmp'))).toEqual([])
    await expect(session.upload(src, path.join(scratch, 'missing-dir', 'x'))).rejects.toThrow(/^copying .* on this computer failed: ENOENT/)
  })

  it('runs commands as root through sudo (passwordless for root here)', async () => {
    const r = await session.exec({ argv: ['id', '-un'] }, { sudo: { mode: 'passwordless' }, capture: { maxBytes: 100 } })
    expect(r.stdout?.toString()).toBe('root\n')
    const s = uniqueSleep()
    const ac = new AbortController()
    const running = session.exec({ script: `sleep ${s}; echo never` }, { sudo: { mode: 'passwordless' }, signal: ac.signal })
    expect(await waitFor(() => allRunning(s), 5000)).toBe(true)
    ac.abort()
    expect(await running).toMatchObject({ cancelled: true, stdoutBytes: 0 })
    expect(noneRunning(s)).toBe(true)
  })

  it('close() stops running commands and refuses new ones', async () => {
    const own = new LocalSession({ killGraceMs: 300 })
    const s = uniqueSleep()
    const running = own.exec({ argv: ['sleep', s] })
    expect(await waitFor(() => allRunning(s), 5000)).toBe(true)
    await own.close()
    expect((await running).cancelled).toBe(true)
    expect(noneRunning(s)).toBe(true)
    await expect(own.exec('true')).rejects.toMatchObject({ code: 'closed' })
  })
})
