/**
 * `virtbench run --idle-seconds N` (issue 22): the length of preflight's idle check, 0 to skip it.
 * Runs the built CLI (out/) on this computer as both sides.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { runCli, type CliResult } from '../../harness/cli'

const cli = (args: string[]): Promise<CliResult> => runCli(['run', ...args])

describe('virtbench run --idle-seconds', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-idle-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const local = (): string[] => ['--baseline', 'phys=local', '--variant', 'vm=local', '--pack', 'block-dd', '--quick', '--repeat', '1', '--data-dir', path.join(dir, 'data')]

  it('0 skips the idle check, 1 samples it: on a machine kept busy, only the sampled run warns', async () => {
    // two CPU burners (this machine has 2 cores or more): busy beyond the idle gate's 10 %, for certain
    const burners = [0, 1].map(() => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }))
    try {
      const runWith = async (seconds: string) => {
        const out = path.join(dir, `idle-${seconds}`)
        const result = await cli([...local(), '--idle-seconds', seconds, '--work-dir', path.join(dir, 'work'), '--out', out])
        expect(result.status, result.stdout + result.stderr).toBe(0)
        return RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')))
      }
      const skipped = await runWith('0')
      expect(skipped.plan.idleSeconds).toBe(0)
      expect(skipped.preflight.filter((f) => f.code === 'not-idle' || f.code === 'idle-skipped')).toEqual([])
      expect(skipped.jobs.map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded'])
      const sampled = await runWith('1')
      expect(sampled.plan.idleSeconds).toBe(1)
      expect(sampled.preflight.filter((f) => f.code === 'not-idle').map((f) => f.target).sort()).toEqual(['phys', 'vm'])
    } finally {
      for (const burner of burners) burner.kill('SIGKILL')
    }
  })

  it('refuses a length out of range and a resumed run, naming the option and what it takes', async () => {
    const tooLong = await cli([...local(), '--idle-seconds', '61', '--out', path.join(dir, 'o1')])
    expect(tooLong.status).toBe(2)
    expect(tooLong.stderr).toContain('--idle-seconds must be a whole number of seconds from 0 to 60 (0 skips the idle check), not "61"')
    const fraction = await cli([...local(), '--idle-seconds', '0.5', '--out', path.join(dir, 'o2')])
    expect(fraction.status).toBe(2)
    expect(fraction.stderr).toContain('not "0.5"')
    const resumed = await cli(['--resume', path.join(dir, 'idle-0'), '--idle-seconds', '1'])
    expect(resumed.status).toBe(2)
    expect(resumed.stderr).toContain("--idle-seconds sets a new run's idle check: a resumed run keeps its plan")
  })
})
