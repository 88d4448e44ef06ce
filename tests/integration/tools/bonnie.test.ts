import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { bonnieParamsSchema, type BonnieParams } from '../../../src/main/tools/bonnie/params'
import { parse } from '../../../src/main/tools/bonnie/parse'
import { plan } from '../../../src/main/tools/bonnie/plan'
import type { StepOutput } from '../../../src/main/tools/types'
import type { Sample } from '../../../src/shared/model/sample'

const run = promisify(execFile)

/** Field names of bonnie++'s CSV format 1.98 (2.00a), written out here from its source, not taken from the parser. */
const FIELDS_198 = [
  'format_version', 'bonnie_version', 'name', 'concurrency', 'seed', 'file_size', 'io_chunk_size', 'seeks', 'seek_proc_count',
  'putc', 'putc_cpu', 'put_block', 'put_block_cpu', 'rewrite', 'rewrite_cpu', 'getc', 'getc_cpu', 'get_block', 'get_block_cpu', 'seeks_rate', 'seeks_cpu',
  'num_files', 'max_size', 'min_size', 'num_dirs', 'file_chunk_size',
  'seq_create', 'seq_create_cpu', 'seq_stat', 'seq_stat_cpu', 'seq_del', 'seq_del_cpu',
  'ran_create', 'ran_create_cpu', 'ran_stat', 'ran_stat_cpu', 'ran_del', 'ran_del_cpu',
  'putc_latency', 'put_block_latency', 'rewrite_latency', 'getc_latency', 'get_block_latency', 'seeks_latency',
  'seq_create_latency', 'seq_stat_latency', 'seq_del_latency', 'ran_create_latency', 'ran_stat_latency', 'ran_del_latency'
]
const KIB_TESTS = ['putc', 'put_block', 'rewrite', 'getc', 'get_block']
const OP_TESTS = ['seeks', 'seq_create', 'seq_stat', 'seq_del', 'ran_create', 'ran_stat', 'ran_del']

/** What bonnie++'s own CSV line says, read with a plain split on commas: metric → value, only measured fields. */
function expectedFromLine(line: string): Record<string, number> {
  const values = line.split(',')
  expect(values).toHaveLength(FIELDS_198.length)
  const field = (name: string) => values[FIELDS_198.indexOf(name)] ?? ''
  const out: Record<string, number> = {}
  for (const test of [...KIB_TESTS, ...OP_TESTS]) {
    const rate = field(test === 'seeks' ? 'seeks_rate' : test)
    if (rate !== '' && rate !== '+++++') {
      out[`bonnie.${test}`] = parseFloat(rate) * (KIB_TESTS.includes(test) ? 1024 : 1)
      out[`bonnie.${test}.cpu`] = parseInt(field(`${test}_cpu`), 10)
    }
    const latency = field(`${test}_latency`)
    if (latency.endsWith('us')) out[`bonnie.${test}.latency`] = parseFloat(latency) / 1e6
    else if (latency.endsWith('ms')) out[`bonnie.${test}.latency`] = parseFloat(latency) / 1e3
    else if (latency.endsWith('s')) out[`bonnie.${test}.latency`] = parseFloat(latency)
  }
  return out
}

function valuesOf(samples: Sample[], repetition: string): Record<string, number> {
  return Object.fromEntries(samples.filter((s) => s.labels.repetition === repetition).map((s) => [s.metric, s.value]))
}

describe('bonnie++ for real', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vb-bonnie-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  /** Runs the plan's own script with sh, as the engine would over SSH, in a work directory of its own. */
  async function runPlan(name: string, params: BonnieParams): Promise<{ out: StepOutput; workDir: string }> {
    const workDir = join(dir, name)
    const step = plan(params, { target: { os: 'linux', workDir } }).steps[0]!
    const { stdout, stderr } = await run('/bin/sh', ['-c', step.script], { cwd: dir, timeout: 30_000 })
    return { out: { stdout, stderr, exitCode: 0 }, workDir }
  }

  it("reads one run (16 MiB file, O_DIRECT, 1024 files) exactly as bonnie++'s CSV line says", async () => {
    const params = bonnieParamsSchema.parse({ fileSize: '16', ramMiB: 8, numFiles: 1, skipPerChar: true, directIo: true })
    const { out, workDir } = await runPlan('one', params)
    const lines = out.stdout.trim().split('\n').filter((l) => /^1\.98,/.test(l))
    expect(lines).toHaveLength(1)
    const result = parse(out, params)
    if (!result.ok) throw new Error(result.error.reason)
    expect(valuesOf(result.samples, '1')).toEqual(expectedFromLine(lines[0]!))
    expect(result.samples.every((s) => s.labels.repetition === '1')).toBe(true)
    // The plan's folder is left empty: bonnie++ removed its files, cleanup removes the folder.
    expect(readdirSync(join(workDir, 'bonnie'))).toEqual([])
  })

  it('labels each -x repetition (file tests only, -s 0)', async () => {
    const params = bonnieParamsSchema.parse({ fileSize: '0', numFiles: 1, repetitions: 2 })
    const { out } = await runPlan('two', params)
    const lines = out.stdout.trim().split('\n').filter((l) => /^1\.98,/.test(l))
    expect(lines).toHaveLength(2)
    expect(out.stdout.startsWith('format_version,bonnie_version,')).toBe(true)
    const result = parse(out, params)
    if (!result.ok) throw new Error(result.error.reason)
    expect(valuesOf(result.samples, '1')).toEqual(expectedFromLine(lines[0]!))
    expect(valuesOf(result.samples, '2')).toEqual(expectedFromLine(lines[1]!))
    expect(result.samples.some((s) => s.metric.startsWith('bonnie.put_block'))).toBe(false)
  })
})
