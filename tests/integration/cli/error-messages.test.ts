/**
 * The built CLI prints the whole reason of an error, however many lines it has: a preset whose
 * tests have problems names each one, not only the sentence that introduces them.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI } from '../../harness/paths'

describe('virtbench error messages', () => {
  let dir: string
  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args, '--data-dir', path.join(dir, 'data')], { encoding: 'utf8', timeout: 30_000 })

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-cli-errors-'))
    // the plan's targets must be known before its tests are checked; nothing connects to them
    expect(cli('targets', 'add', '--name', 'phys', '--address', '192.0.2.1', '--user', 'bench').status).toBe(0)
    expect(cli('targets', 'add', '--name', 'vm', '--address', '192.0.2.2', '--user', 'bench', '--role', 'guest').status).toBe(0)
  })

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it("prints every problem of a preset's tests, one per line, then where to find help", () => {
    const preset = path.join(dir, 'bad-names.json')
    writeFileSync(
      preset,
      JSON.stringify({
        kind: 'virtbench-preset',
        version: 1,
        plan: {
          name: 'bad file names',
          baseline: { target: 'phys' },
          variants: [{ target: 'vm' }],
          tests: [
            { id: 'dash', tool: 'dd', params: { mode: 'write', fileName: '-x' } },
            { id: 'slash', tool: 'dd', params: { mode: 'write', fileName: '../y' } }
          ]
        }
      })
    )
    const result = cli('run', preset, '--out', path.join(dir, 'out'))
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      [
        "virtbench: the plan's tests have problems:",
        "- tests[0] dash (dd): fileName: a file name cannot start with '-': stat and cat would read it as an option",
        "- tests[1] slash (dd): fileName: a file name cannot contain '/': give a name inside the work directory",
        "See 'virtbench run --help'.",
        ''
      ].join('\n')
    )
  })

  it('keeps a one-line reason on one line', () => {
    const result = cli('run', path.join(dir, 'none.json'))
    expect(result).toMatchObject({ status: 2, stdout: '', stderr: "virtbench: say where the run goes with --out DIR. See 'virtbench run --help'.\n" })
  })
})
