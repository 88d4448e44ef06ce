/**
 * A test of `virtbench run` on "This computer" targets: for the whole test file, a scratch folder
 * with a data directory of its own; targets added with `targets add --local`; a plan run as a
 * preset (its storage a folder under the scratch folder, no idle gate); and the run document read
 * back and compared as the app and the CLI compare it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import { describeRun } from '../../src/main/tools/describe-run'
import { compare } from '../../src/shared/compare'
import type { Comparison } from '../../src/shared/model/comparison'
import { RunDocumentSchema, type RunDocument } from '../../src/shared/model/run'
import { comparisonInputOf } from '../../src/shared/run-comparison'
import { runCli, type CliResult } from './cli'

export interface LocalCli {
  /** The scratch folder (made before the file's tests, removed after them). */
  dir(): string
  /** `virtbench ARGS --data-dir <the file's own data directory>`. */
  cli(args: readonly string[]): Promise<CliResult>
  /** Adds each name as a "This computer" target. */
  addTargets(names: readonly string[]): Promise<void>
  /** Runs `plan` (a comparison plan without storage) as a preset into `<dir>/out`, and expects it to succeed. */
  run(plan: Record<string, unknown>): Promise<{ result: CliResult; out: string }>
}

export function useLocalCli(prefix: string): LocalCli {
  let dir = ''
  let dataDir = ''
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix))
    dataDir = path.join(dir, 'data')
    mkdirSync(dataDir)
  })
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })
  const cli = (args: readonly string[]): Promise<CliResult> => runCli([...args, '--data-dir', dataDir])
  return {
    dir: () => dir,
    cli,
    async addTargets(names) {
      for (const name of names) {
        const added = await cli(['targets', 'add', '--name', name, '--local'])
        expect(added.status, added.stderr).toBe(0)
      }
    },
    async run(plan) {
      const preset = path.join(dir, 'preset.json')
      writeFileSync(preset, JSON.stringify({ kind: 'virtbench-preset', version: 1, plan: { ...plan, storage: { kind: 'directory', path: path.join(dir, 'work') } } }))
      const out = path.join(dir, 'out')
      const result = await cli(['run', preset, '--out', out, '--idle-seconds', '0'])
      expect(result.status, result.stdout + result.stderr).toBe(0)
      return { result, out }
    }
  }
}

/** The run document of a run folder, described, and its comparison. */
export function comparedRun(out: string): { run: RunDocument; comparison: Comparison } {
  const run = describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8'))))
  return { run, comparison: compare(comparisonInputOf(run)) }
}

/** What `stdout` prints after the line `title`; fails when no line is `title`. */
export function sectionOf(stdout: string, title: string): string {
  const at = stdout.indexOf(`\n${title}\n`)
  expect(at, stdout).toBeGreaterThan(0)
  return stdout.slice(at + title.length + 2)
}
