import type { Sample } from '../../../shared/model/sample'
import { parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { readExcelReport, type ReportBlock } from './excel-report'
import { readMainTable, type MainTable } from './main-table'
import { iozoneMetrics } from './metrics'
import { expectedBlocks } from './subtests'
import type { IozoneParams } from './params'

const make = sampler(iozoneMetrics)
/** iozone's kB is 1024 bytes (it counts file sizes in units of 1024 bytes). */
const KB = 1024

const UNIT_KB = /Output is in kBytes\/sec/i
const UNIT_OTHER = /Output is in (operations per second|microseconds per operation)/i
const THROUGHPUT_MODE = /Children see throughput|Throughput test with/i
const EXCEL_START = /^Excel output is below:/m
const COMPLETE = /^iozone test complete\./m
const EXCEL_ENABLED = /Excel chart generation enabled/
const COMMAND_LINE = /Command line used: (.*)$/m

function labels(fileKB: number, recordKB: number) {
  return { file_size: String(fileKB * KB), record_size: String(recordKB * KB) }
}

function failedRun(out: StepOutput): ParseResult {
  const how = out.signal ? `was stopped by signal ${out.signal}` : `exited with status ${out.exitCode}`
  // iozone prints its errors on stdout ("Error: record length 131072 is greater than filesize 64 kB").
  const text = `${out.stdout}\n${out.stderr}`
  const error = /^\s*(Error:?.*|Can not .*|Unable to .*)$/im.exec(text)
  return parseFailure(`iozone ${how}${error ? `: ${error[1]?.trim()}` : ''}`, text.trim(), error?.index ?? Math.max(0, text.trim().length - 160))
}

/** Where the report and the main table say different things, or the report lacks a cell the table has. */
function disagreement(blocks: readonly ReportBlock[], table: MainTable): string | null {
  const bySubtest = new Map(blocks.map((b) => [b.subtest.id, b]))
  for (const row of table.rows) {
    for (const [i, column] of table.columns.entries()) {
      const block = bySubtest.get(column.id)
      const cell = block?.rows.find((r) => r.fileKB === row.fileKB)?.values[block.recordsKB.indexOf(row.recordKB)]
      if (cell !== row.values[i]) {
        return (
          `iozone's -R report and its main table disagree on ${column.id} for a ${row.fileKB} kB file with ${row.recordKB} kB records ` +
          `(report: ${cell ?? 'nothing'}, table: ${row.values[i]}); the output was cut short or is not one iozone run.`
        )
      }
    }
  }
  return null
}

/** Every block must list the same file sizes as the first: a shorter one was cut. */
function unevenBlock(blocks: readonly ReportBlock[]): ReportBlock | null {
  const first = blocks[0]
  if (!first) return null
  const shape = (b: ReportBlock) => b.rows.map((r) => `${r.fileKB}:${r.values.length}`).join(',')
  return blocks.find((b) => b.rows.length === 0 || shape(b) !== shape(first)) ?? null
}

function fromReport(blocks: readonly ReportBlock[]): { samples: Sample[]; skipped: number } {
  const samples: Sample[] = []
  let skipped = 0
  for (const block of blocks) {
    for (const row of block.rows) {
      for (const [i, value] of row.values.entries()) {
        if (value === 0) skipped++
        else samples.push(make(`iozone.${block.subtest.id}`, value * KB, labels(row.fileKB, block.recordsKB[i] ?? 0), 'iozone.<subtest>'))
      }
    }
  }
  return { samples, skipped }
}

function fromTable(table: MainTable): Sample[] {
  return table.columns.flatMap((column, i) =>
    table.rows.map((row) => make(`iozone.${column.id}`, (row.values[i] ?? NaN) * KB, labels(row.fileKB, row.recordKB), 'iozone.<subtest>'))
  )
}

/** Why this text is not iozone kBytes/sec output, or null when it is. */
function wrongKind(text: string, stderr: string): ParseResult | null {
  if (!/Iozone: Performance Test of File I\/O|Excel output is below:|\breclen\b/i.test(text)) {
    return parseFailure('This does not look like iozone output: no "Iozone: Performance Test of File I/O" banner, main table or report.', text || stderr)
  }
  const other = UNIT_OTHER.exec(text)
  if (other) {
    return parseFailure(`This iozone output is in ${other[1]} (-O or -N); VirtBench reads throughput in kBytes/sec: run iozone without -O and -N.`, text, other.index)
  }
  const throughput = THROUGHPUT_MODE.exec(text)
  if (throughput) return parseFailure('This is iozone throughput mode (-t) output, which VirtBench does not read; run iozone in auto mode (-a).', text, throughput.index)
  if (!UNIT_KB.test(text)) {
    return parseFailure('iozone\'s "Output is in kBytes/sec" line is missing, so the unit of its numbers is unknown; pass the whole output.', text)
  }
  return null
}

/** Samples from the -R report, after checking it is whole and agrees with the main table. */
function readReport(text: string, reportStart: number, table: MainTable | null): ParseResult {
  const report = text.slice(reportStart)
  const blocks = readExcelReport(report.split('\n'))
  if ('problem' in blocks) return parseFailure(`iozone's -R report: ${blocks.problem}.`, blocks.line)
  if (blocks.length === 0) return parseFailure('iozone printed "Excel output is below:" but no report block follows; the output was cut short?', report)
  const uneven = unevenBlock(blocks)
  if (uneven) {
    return parseFailure(
      `iozone's -R report: the "${uneven.subtest.report}" block has other file sizes or cells than the "${blocks[0]?.subtest.report}" block; the output was cut short?`,
      report.split('\n').slice(uneven.at).join('\n')
    )
  }
  const expected = expectedBlocks(COMMAND_LINE.exec(text)?.[1] ?? null)
  const missing = expected?.filter((id) => !blocks.some((b) => b.subtest.id === id)) ?? []
  if (missing.length > 0) {
    return parseFailure(`iozone's -R report lacks the blocks of ${missing.join(', ')}, which its command line asked for; the output was cut short?`, report, report.length)
  }
  const mismatch = table ? disagreement(blocks, table) : null
  if (mismatch) return parseFailure(mismatch, report)
  const { samples, skipped } = fromReport(blocks)
  if (samples.length === 0) return parseFailure("iozone's -R report has no measured cell (all 0).", report)
  const warnings =
    skipped > 0 ? [`${skipped} cells of iozone's report are 0 and were left out: without -z, iozone skips record sizes under 64 KiB for files over 16 MiB.`] : []
  return parseSuccess(samples, warnings)
}

/** Samples from the main table of a run without -R: its readable rows, when the run finished. */
function readTableOnly(text: string, table: MainTable | null): ParseResult {
  if (EXCEL_ENABLED.test(text)) {
    return parseFailure('iozone was run with -R ("Excel chart generation enabled") but its report is missing: the run was cut short.', text, text.length)
  }
  if (!table || table.rows.length === 0) {
    return parseFailure('No iozone results found: neither a -R report ("Excel output is below:") nor a readable main table. Run iozone with -R.', text)
  }
  if (!COMPLETE.test(text)) {
    return parseFailure('iozone\'s main table is not followed by "iozone test complete.": the run was cut short.', text, text.length)
  }
  const warnings = ['No -R report in this iozone output; the numbers were read from its main table.']
  if (table.unreadableRows > 0) {
    const rows = table.unreadableRows === 1 ? '1 row' : `${table.unreadableRows} rows`
    warnings.push(`${rows} of iozone's main table left out: numbers run together or columns are blank (-i). Run iozone with -R to get every cell.`)
  }
  return parseSuccess(fromTable(table), warnings)
}

/**
 * Reads iozone's throughput results (kBytes/sec, so `-O` and `-N` are refused): from the `-R`
 * report when it is there (authoritative: its numbers are always apart), checked against the main
 * table's readable rows; otherwise from the main table's readable rows.
 */
export function parse(out: StepOutput, _params?: IozoneParams): ParseResult {
  if (out.signal || (out.exitCode !== null && out.exitCode !== 0)) return failedRun(out)
  const text = out.stdout.replace(/\r\n/g, '\n')
  const wrong = wrongKind(text, out.stderr)
  if (wrong) return wrong
  const table = readMainTable(text.split('\n'))
  const reportAt = EXCEL_START.exec(text)
  return reportAt ? readReport(text, reportAt.index, table) : readTableOnly(text, table)
}
