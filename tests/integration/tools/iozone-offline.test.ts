import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PACKS } from '../../../src/main/tools/packs'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { runCli, type CliResult } from '../../harness/cli'
import { debianIozone } from '../../harness/debian-iozone'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { createThrowawayUser, type ThrowawayUser } from '../ssh/session-helpers'

/**
 * Issue 17: a target with no iozone and no internet gets the real IOzone from this computer and
 * runs study 000's iozone test in its quick form; the CLI and the PDF show every sub-test.
 *
 * The program is Debian's own build of IOzone 3.489 (usr/bin/iozone of the non-free iozone3 .deb,
 * fetched, checked and unpacked by `.ci/run iozone-deb`, never installed: tests/harness/debian-iozone.ts).
 * The targets are two real sshd on 127.0.0.1, each logging in as its own throwaway account, so each
 * has an empty tool cache in its own home, as two fresh machines would; iozone is on neither's PATH.
 * `virtbench run` (the built CLI) uploads the program to each, caches it by checksum and runs it
 * from there; a second run takes it from the cache without uploading.
 */

/** iozone's 13 standard sub-tests, as the CLI and the report name them. */
const SUBTESTS = ['write', 'rewrite', 'read', 'reread', 'random read', 'random write', 'backward read', 'record rewrite', 'stride read', 'fwrite', 'frewrite', 'fread', 'freread']
const TARGETS = ['host', 'guest'] as const
const QUICK_IOZONE = PACKS['kvm-storage'].quick.find((t) => t.tool === 'iozone')!

/** The rows of the table under `header` in the CLI's output: each row's cells, split at runs of 2+ spaces. */
function summaryRows(text: string, header: string): string[][] {
  const at = text.indexOf(header)
  if (at < 0) return []
  const lines = text.slice(at).split('\n')
  const start = lines.findIndex((l) => /^\s*─+/.test(l))
  const rows: string[][] = []
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break
    rows.push(line.trim().split(/\s{2,}/))
  }
  return rows
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('IOzone 3.489 (Debian’s program) from this computer to targets without it, through the CLI', () => {
  let iozone: ReturnType<typeof debianIozone>
  let dir: string
  let dataDir: string
  const users = new Map<string, ThrowawayUser>()
  const servers = new Map<string, SshdServer>()
  const cli = (args: string[]): Promise<CliResult> => runCli([...args, '--data-dir', dataDir])

  /** Why the program is not there: each test fails with it (and the .ci/run step to run), none is skipped. */
  let missing: Error | undefined

  beforeAll(async () => {
    try {
      iozone = debianIozone()
    } catch (error) {
      missing = error as Error
      return
    }
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-iozone-offline-'))
    chmodSync(dir, 0o755)
    dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
    mkdirSync(path.join(dir, 'work'))
    chmodSync(path.join(dir, 'work'), 0o777)
    for (const name of TARGETS) {
      const user = createThrowawayUser()
      users.set(name, user)
      const server = await startSshd({ extraConfig: user.sshdConfig })
      servers.set(name, server)
      user.authorize(server)
      const added = await cli(['targets', 'add', '--name', name, '--address', '127.0.0.1', '--port', String(server.port), '--user', user.name, '--key', server.privateKeyPath])
      expect(added.status, added.stderr).toBe(0)
    }
    writeFileSync(
      path.join(dir, 'preset.json'),
      JSON.stringify({
        kind: 'virtbench-preset',
        version: 1,
        plan: { name: 'study 000 iozone, quick', baseline: { target: 'host' }, variants: [{ target: 'guest' }], tests: [QUICK_IOZONE], repetitions: 1, storage: { kind: 'directory', path: path.join(dir, 'work') } }
      })
    )
  })

  beforeEach(() => {
    if (missing) throw missing
  })

  afterAll(async () => {
    await Promise.all([...servers.values()].map((s) => s.stop()))
    for (const user of users.values()) user.remove()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  const run = (out: string, archive: boolean): Promise<CliResult> =>
    cli([
      'run',
      path.join(dir, 'preset.json'),
      '--out',
      path.join(dir, out),
      '--idle-seconds',
      '0',
      '--accept-new-host-keys',
      ...(archive ? ['--tool-archive', `iozone=${iozone.program}`, '--tool-sha256', `iozone=${iozone.sha256}`] : [])
    ])
  const cacheOf = (target: string): string => `${users.get(target)!.home}/.cache/virtbench/tools/iozone-${iozone.sha256}`
  const runDocument = (out: string): RunDocument => RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, out, 'run.json'), 'utf8')))

  it('finds iozone on neither target without the program, and says it can come from this computer', { timeout: 120_000 }, async () => {
    const result = await run('without', false)
    expect(result.status, result.stdout + result.stderr).toBe(2)
    for (const target of TARGETS) {
      const absent = runDocument('without').preflight.find((f) => f.target === target && f.code === 'tool-missing')!
      expect(absent.message).toMatch(new RegExp(`^IOzone is not installed on ${target}`))
      expect(absent.fix).toContain('virtbench run --tool-archive iozone=FILE')
    }
  })

  it('uploads it to each target, caches it there by checksum, runs the quick iozone test and shows all 13 sub-tests', { timeout: 300_000 }, async () => {
    const result = await run('first', true)
    const output = result.stdout + result.stderr
    expect(result.status, output).toBe(0)
    const doc = runDocument('first')
    expect(doc.jobs.map((j) => `${j.side} ${j.status}`)).toEqual(['host succeeded', 'guest succeeded'])
    for (const target of TARGETS) {
      const cache = cacheOf(target)
      // preflight says, on the terminal and in the run, that it came from this computer, checked by the SHA-256 given
      const said = `IOzone on ${target}: uploaded as a program in N s from iozone (sha256 ${iozone.sha256}, the SHA-256 you gave); cached in ${cache}, so later runs reuse it.`
      const built = doc.preflight.filter((f) => f.target === target && f.code === 'tool-built')
      expect(built.map((f) => `${f.severity}: ${f.message.replace(/ in (?:under 0\.1|\d+\.\d) s/, ' in N s')}`)).toEqual([`info: ${said}`])
      expect(output).toContain(`info: ${built[0]!.message}`)
      expect(doc.preflight.filter((f) => f.target === target && f.code === 'tool-missing')).toEqual([])
      // the very program, in the target's cache, and nothing left of the upload
      expect(readFileSync(`${cache}/bin/iozone`).equals(readFileSync(iozone.program))).toBe(true)
      expect(readdirSync(path.dirname(cache)).filter((f) => f.startsWith('upload-'))).toEqual([])
      // the job ran it from there, and it was the real IOzone 3.489
      const job = doc.jobs.find((j) => j.side === target)!
      expect(job.steps.find((s) => s.measured)!.command).toContain(`${cache}/bin/iozone -Raz -g 4M`)
      const raw = readFileSync(path.join(dir, 'first', 'raw', `${job.id}-a1-run.stdout`), 'utf8')
      expect(raw).toContain('Version $Revision: 3.489 $')
      // 13 sub-tests x 56 cells (files 64 KiB to 4 MiB, records 4 KiB up to the file's size)
      expect(job.samples.length).toBe(13 * 56)
    }

    // the CLI: one row per sub-test, in iozone's order, each over the 56 cells both machines measured
    const rows = summaryRows(result.stdout, '\niozone sub-tests (')
    expect(rows.map((r) => r[0]), result.stdout).toEqual(SUBTESTS)
    for (const row of rows) expect(row[1], row.join(' | ')).toBe('56')
  })

  it('gives a PDF with every sub-test’s heat maps, named in its text', { timeout: 300_000 }, async () => {
    const pdf = path.join(dir, 'first.pdf')
    const result = await runCli(['report', path.join(dir, 'first'), '--pdf', pdf])
    expect(result.status, result.stdout + result.stderr).toBe(0)
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' })
    // each map's title (each machine's figures, the guest's relative %), at a line's start or after a column gap (two maps can
    // share a line), perhaps after "iozone ": "read" never matches "reread" or "random read"
    const titled = (title: string): boolean => new RegExp(`(?:^ ?| {2})(?:iozone )?${escape(title)}`, 'm').test(text)
    const maps = (name: string): string[] => [...TARGETS.map((t) => `${name} on ${t}`), `${name}: guest against host`]
    expect(SUBTESTS.flatMap(maps).filter((title) => !titled(title)), text).toEqual([])
  })

  it('takes it from the cache on the next run, without uploading again', { timeout: 300_000 }, async () => {
    const placed = TARGETS.map((t) => statSync(`${cacheOf(t)}/bin/iozone`).ino)
    const result = await run('second', true)
    const output = result.stdout + result.stderr
    expect(result.status, output).toBe(0)
    const doc = runDocument('second')
    expect(doc.jobs.map((j) => `${j.side} ${j.status}`)).toEqual(['host succeeded', 'guest succeeded'])
    for (const target of TARGETS) {
      const arrived = doc.preflight.filter((f) => f.target === target && f.code.startsWith('tool-'))
      const reused = `IOzone on ${target}: built earlier from iozone (sha256 ${iozone.sha256}, the SHA-256 you gave), reused from ${cacheOf(target)}.`
      expect(arrived.map((f) => `${f.code} ${f.severity}: ${f.message}`)).toEqual([`tool-from-cache info: ${reused}`])
      expect(output).toContain(`info: ${reused}`)
    }
    expect(output).not.toContain('uploaded as a program')
    expect(TARGETS.map((t) => statSync(`${cacheOf(t)}/bin/iozone`).ino)).toEqual(placed)
  })
})
