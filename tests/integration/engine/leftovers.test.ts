/**
 * `job.sh sweep` at a run's start removes earlier runs' folders on the target, and only the
 * leftovers of runs that are over: a run whose jobs all ended and whose marker has not changed for
 * two hours (a crash). A run between two jobs (another VirtBench's, on the same machine) rewrites
 * its marker at each job's start and keeps its folder; a run with a job running keeps it too.
 * Against the harness's real sshd.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BoundedOutput } from '../../../src/main/engine/bounded-output'
import { runDetached, sweepLeftovers } from '../../../src/main/engine/detached'
import { scriptsDir } from '../../../src/main/resources'
import type { SshSession } from '../../../src/main/ssh/session'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { sessionFor } from '../ssh/session-helpers'

const HOURS = 3_600_000

describe('the sweep of earlier runs’ folders', () => {
  let server: SshdServer
  let session: SshSession
  let scripts: string
  let root: string

  beforeAll(async () => {
    server = await startSshd()
    session = sessionFor(server)
    scripts = (await session.ensureScripts(scriptsDir())).remoteDir
    root = mkdtempSync(path.join(os.tmpdir(), 'vb-leftovers-'))
  })

  afterAll(async () => {
    await session?.close()
    await server?.stop()
    if (root) rmSync(root, { recursive: true, force: true })
  })

  /** A run folder as setUpRunDir makes it, its marker last changed `ageMs` ago, with one ended job. */
  const runFolder = (id: string, ageMs: number): string => {
    const dir = path.join(root, `vb-${id}-t`)
    mkdirSync(path.join(dir, '.jobs', 'j1'), { recursive: true })
    writeFileSync(path.join(dir, '.jobs', 'j1', 'status'), '0\n')
    const marker = path.join(dir, '.virtbench-run')
    writeFileSync(marker, `${id}\n`)
    const then = new Date(Date.now() - ageMs)
    utimesSync(marker, then, then)
    return dir
  }

  it('removes a crashed run’s folder and keeps a live run’s between two jobs, and its own', async () => {
    const crashed = runFolder('crashed', 3 * HOURS)
    const between = runFolder('between', 60_000)
    const own = runFolder('own', 3 * HOURS)
    const removed = await sweepLeftovers(session, scripts, root, 'own')
    expect(removed).toEqual([crashed])
    expect(existsSync(crashed)).toBe(false)
    expect(existsSync(between)).toBe(true)
    expect(existsSync(own)).toBe(true)
  })

  it('keeps a run alive by each job’s start: its marker is rewritten with the same content', async () => {
    const dir = runFolder('ongoing', 3 * HOURS)
    const marker = path.join(dir, '.virtbench-run')
    const before = statSync(marker).mtimeMs
    const output = { stdout: new BoundedOutput(undefined, 1 << 16, 1 << 16), stderr: new BoundedOutput(undefined, 1 << 16, 1 << 16) }
    const result = await runDetached(session, scripts, { dir: path.join(dir, '.jobs', 'j2'), script: 'true', timeoutSeconds: 30, output })
    expect(result.status).toBe(0)
    expect(statSync(marker).mtimeMs).toBeGreaterThan(before + 2 * HOURS)
    expect(execFileSync('cat', [marker], { encoding: 'utf8' })).toBe('ongoing\n')
    expect(await sweepLeftovers(session, scripts, root, 'someone-else')).not.toContain(dir)
    expect(existsSync(dir)).toBe(true)
  })
})
