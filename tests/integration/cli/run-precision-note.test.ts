/**
 * `virtbench run --precision POINTS` says when the goal leaves "same" too little room at the margin
 * (precisionAdvice): before anything connects, on standard error. Runs the built CLI (out/); each
 * case stops at once on `--comparison -` (a usage error), after the note.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../harness/cli'

describe('virtbench run --precision: the note on a goal too wide for the margin', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-precision-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const stopsAfterNote = async (extra: string[]): Promise<string> => {
    const base = ['run', '--baseline', 'phys=local', '--variant', 'vm=local', '--pack', 'block-dd', '--quick', '--data-dir', path.join(dir, 'data'), '--out', path.join(dir, 'out')]
    const result = await runCli([...base, ...extra, '--comparison', '-'])
    expect(result.status, result.stderr).toBe(2)
    expect(result.stderr).toContain('--comparison needs a file name')
    return result.stderr
  }

  it('notes ± 2 at the default margin of 3, and nothing at ± 1.5 or at a margin of 5', async () => {
    expect(await stopsAfterNote(['--precision', '2'])).toContain(
      'Note: Repeating until ± 2 points with a margin of ± 3 points: a result reads "same" only when its interval\'s centre lies within 1 point of 100 %'
    )
    expect(await stopsAfterNote(['--precision', '1.5'])).not.toContain('Note:')
    expect(await stopsAfterNote(['--precision', '2', '--margin', '5'])).not.toContain('Note:')
  })
})
