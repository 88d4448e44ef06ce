import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI } from '../../harness/paths'

/**
 * `virtbench --help` answers without loading any command's code: zod, ssh2 and the engine load
 * when a command runs, so the help costs about what Node's own start does (issue 18). A preload
 * script records every module the process loads; the CLI is the built one.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'vb-help-'))
const record = path.join(dir, 'record-loads.cjs')
writeFileSync(
  record,
  [
    "const Module = require('node:module')",
    'const loaded = new Set()',
    'const original = Module._load',
    'Module._load = function (request, ...rest) { loaded.add(request); return original.call(this, request, ...rest) }',
    "process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify([...loaded]) + '\\n'))"
  ].join('\n')
)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What one call prints and which modules (bare names and chunk files) it loaded. */
function callWithLoads(...args: string[]): { status: number | null; stdout: string; loaded: string[] } {
  const result = spawnSync(process.execPath, ['--require', record, CLI, ...args], { encoding: 'utf8', timeout: 30_000 })
  const line = result.stderr.split('\n').find((l) => l.startsWith('LOADED '))
  expect(line, result.stderr).toBeDefined()
  return { status: result.status, stdout: result.stdout, loaded: JSON.parse(line!.slice('LOADED '.length)) as string[] }
}

describe('virtbench --help', () => {
  it('lists every command without loading one', () => {
    const { status, stdout, loaded } = callWithLoads('--help')
    expect(status).toBe(0)
    for (const name of ['run', 'report', 'compare', 'packs', 'parse', 'serve', 'targets']) expect(stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'))
    for (const heavy of ['zod', 'ssh2', 'ws']) expect(loaded, `${heavy} loaded for --help`).not.toContain(heavy)
    expect(loaded.filter((m) => /chunks\//.test(m))).toEqual([])
  })

  it("loads a command's code for its own help and when it runs", () => {
    const help = callWithLoads('packs', '--help')
    expect(help.stdout).toContain('Usage: virtbench packs')
    expect(help.loaded.some((m) => /chunks\/packs-/.test(m))).toBe(true)
    expect(help.loaded.some((m) => /chunks\/serve-/.test(m))).toBe(false)
    const packs = callWithLoads('packs')
    expect(packs.status).toBe(0)
    expect(packs.stdout).toMatch(/^everyday +Everyday quick check/m)
    expect(packs.loaded).toContain('zod')
    expect(packs.loaded).not.toContain('ssh2')
  })
})
