/**
 * Runs the real mbw (Debian's 1.2.2) through the plan's own script at 16 MiB with 2 runs per
 * test, then checks parse() against mbw's own lines read here with a simple regular expression.
 */
import { execFile } from 'node:child_process'
import { tmpdir } from 'node:os'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { mbwParamsSchema, type MbwParamsInput } from '../../../src/main/tools/mbw/params'
import { parse } from '../../../src/main/tools/mbw/parse'
import { plan } from '../../../src/main/tools/mbw/plan'
import type { StepOutput } from '../../../src/main/tools/types'

const execFileAsync = promisify(execFile)
const MIB = 1048576

async function runPlan(input: MbwParamsInput) {
  const params = mbwParamsSchema.parse(input)
  const p = plan(params, { target: { os: 'linux', workDir: tmpdir() } })
  expect(p.steps).toHaveLength(1)
  const { stdout, stderr } = await execFileAsync('sh', ['-c', p.steps[0]!.script], { timeout: 30_000 })
  return { params, out: { stdout, stderr, exitCode: 0 } satisfies StepOutput }
}

/** mbw's own result lines, read independently: [METHOD, run or AVG, Copy in MiB/s]. */
function printed(stdout: string): [string, string, number][] {
  return [...stdout.matchAll(/^(\d+|AVG)\tMethod: (\w+)\tElapsed: [0-9.]+\tMiB: [0-9.]+\tCopy: ([0-9.]+) MiB\/s$/gm)].map((m) => [m[2]!, m[1]!, Number(m[3])])
}

describe('mbw (real) through plan and parse', () => {
  it('mbw -n 2 16: every run and AVG of MEMCPY, DUMB and MCBLOCK, in B/s', async () => {
    const { params, out } = await runPlan({ sizeMiB: 16, iterations: 2 })
    const lines = printed(out.stdout)
    expect(lines).toHaveLength(9)
    const result = parse(out, params)
    if (!result.ok) throw new Error(result.error.reason)
    expect(result.samples.map((s) => [s.metric, s.labels.iteration ?? 'AVG', s.value])).toEqual(
      lines.map(([method, run, copy]) => [`mbw.${method.toLowerCase()}.bandwidth`, run, copy * MIB])
    )
    // Debian's mbw is 1.2.2: the probe line shows its usage text, so the label warning is given.
    expect(out.stdout.split('\n')[0]).toBe('Usage: mbw [options] array_size_in_MiB')
    expect(result.warnings[0]).toMatch(/older than 1.4/)
  })

  it('mbw -n 2 -t2 -b 65536 16: only MCBLOCK, no label warning', async () => {
    const { params, out } = await runPlan({ sizeMiB: 16, iterations: 2, tests: ['mcblock'], blockSizeBytes: 65536 })
    expect(out.stdout).toContain('Using 65536 bytes as blocks for memcpy block copy test.')
    const result = parse(out, params)
    if (!result.ok) throw new Error(result.error.reason)
    expect(result.samples.map((s) => s.value)).toEqual(printed(out.stdout).map(([, , copy]) => copy * MIB))
    expect(result.warnings.some((w) => w.includes('older than 1.4'))).toBe(false)
  })
})
