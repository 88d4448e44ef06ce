import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CLI, ROOT } from '../../harness/paths'

const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'tools')
const parse = (args: string[], input?: string | Buffer) =>
  spawnSync(process.execPath, [CLI, 'parse', ...args], { encoding: 'utf8', timeout: 30_000, ...(input !== undefined && { input }) })

interface Printed {
  tool: string
  samples: { metric: string; value: number; unit: string; better: string; labels: Record<string, string> }[]
  warnings: string[]
}

describe('virtbench parse', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vb-parse-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('parses a real fio output run by hand, printing the tool\'s own figures in base units', () => {
    const file = path.join(FIXTURES, 'fio', 'randread-4k-libaio-qd16.stdout')
    const result = parse(['--tool', 'fio', file])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const printed = JSON.parse(result.stdout) as Printed
    const fio = JSON.parse(readFileSync(file, 'utf8')) as { jobs: { read: { iops: number; bw_bytes: number } }[] }
    expect(printed.tool).toBe('fio')
    expect(printed.samples.find((s) => s.metric === 'fio.read.iops' && !s.labels.job)).toEqual({
      metric: 'fio.read.iops',
      value: fio.jobs[0]!.read.iops,
      unit: 'op/s',
      better: 'higher',
      labels: {}
    })
    expect(printed.samples.find((s) => s.metric === 'fio.read.bandwidth')?.value).toBe(fio.jobs[0]!.read.bw_bytes)
  })

  it('reads standard input with -, and dd\'s report given as one file with 2>&1', () => {
    const dd = spawnSync('dd', ['if=/dev/zero', `of=${path.join(dir, 'f')}`, 'bs=1M', 'count=4', 'conv=fdatasync'], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } })
    expect(dd.status).toBe(0)
    const result = parse(['--tool', 'dd', '-'], dd.stderr)
    expect(result.status, result.stderr).toBe(0)
    const printed = JSON.parse(result.stdout) as Printed
    const seconds = Number(/copied, ([0-9.e-]+) s,/.exec(dd.stderr)?.[1])
    expect(printed.samples.find((s) => s.metric === 'dd.bytes')?.value).toBe(4 * 1024 * 1024)
    expect(printed.samples.find((s) => s.metric === 'dd.elapsed')?.value).toBe(seconds)
    expect(printed.samples.find((s) => s.metric === 'dd.bandwidth')?.value).toBeCloseTo((4 * 1024 * 1024) / seconds, 6)
  })

  it('refuses another tool\'s output with exit 2, the reason and the offending part, and nothing on stdout', () => {
    const file = path.join(FIXTURES, 'fio', 'randread-4k-libaio-qd16.stdout')
    const result = parse(['--tool', 'ping', file])
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^virtbench parse: .*randread-4k-libaio-qd16\.stdout is not readable as ping output: .+\n {2}near: /)
  })

  it('refuses a missing file, garbage and empty input with exit 2', () => {
    const missing = parse(['--tool', 'fio', path.join(dir, 'nope.json')])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain('no such file')
    const garbage = parse(['--tool', 'bonnie++', '-'], Buffer.from([0, 159, 146, 150, 255, 1, 2]))
    expect(garbage.status).toBe(2)
    expect(garbage.stderr).toContain('standard input is not readable as bonnie++ output')
    expect(parse(['--tool', 'iperf3', '-'], '').status).toBe(2)
  })

  it('answers usage mistakes with exit 2 and one line', () => {
    for (const args of [[], ['--tool', 'nmap', '-'], ['--tool', 'fio'], ['--tool', 'fio', '--exit-code', 'x', '-']]) {
      const result = parse(args, '')
      expect(result.status, args.join(' ')).toBe(2)
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
    }
  })
})
