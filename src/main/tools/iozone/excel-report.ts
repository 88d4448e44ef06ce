import { SUBTEST_BY_REPORT, type IozoneSubtest } from './subtests'

/**
 * The text form of iozone's `-R` report (dump_report in iozone.c), printed after
 * "Excel output is below:": per sub-test a quoted title, a row of quoted record sizes (kB), then
 * one row per file size (kB) with its values, two spaces apart:
 *
 *     "Writer report"
 *             "4"  "8"  "16"
 *     "64"   743988  1679761  1484662
 *
 * A row has a value for each record size up to the file size and stops there. In auto mode
 * without -z, files over 16 MiB skip records under 64 KiB: iozone writes 0 in those cells.
 */
export interface ReportRow {
  fileKB: number
  /** Values in the order of `recordsKB`; 0 means iozone skipped that record size. */
  values: number[]
}

export interface ReportBlock {
  subtest: IozoneSubtest
  recordsKB: number[]
  rows: ReportRow[]
  /** Line number (0-based) of the title, to quote the block in errors. */
  at: number
}

export interface ReportProblem {
  problem: string
  /** The offending line. */
  line: string
}

const TITLE = /^"([^"]+)"\s*$/
const RECORD_HEADER = /^\s*("\d+"\s*)+$/
const ROW = /^"(\d+)"((?:\s+\S+)*)\s*$/
const NUMBER = /^\d+$/

function readNumber(text: string): number {
  const value = NUMBER.test(text) ? Number(text) : NaN
  return Number.isSafeInteger(value) ? value : NaN
}

/** The report blocks of known sub-tests, or the first thing that is wrong with one. Other quoted blocks (CPU reports) are skipped. */
export function readExcelReport(lines: readonly string[]): ReportBlock[] | ReportProblem {
  const blocks: ReportBlock[] = []
  let current: ReportBlock | null = null
  for (const [i, line] of lines.entries()) {
    const title = TITLE.exec(line)
    // A quoted number alone is a row cut after its file size, not a title.
    if (title && !NUMBER.test(title[1] ?? '')) {
      const subtest = SUBTEST_BY_REPORT.get(title[1] ?? '')
      current = subtest ? { subtest, recordsKB: [], rows: [], at: i } : null
      if (current) blocks.push(current)
      continue
    }
    if (!current) continue
    if (line.trim() === '') {
      if (current.recordsKB.length > 0) current = null
      continue
    }
    if (current.recordsKB.length === 0) {
      if (!RECORD_HEADER.test(line)) return { problem: `the "${current.subtest.report}" block lacks its row of record sizes`, line }
      current.recordsKB = [...line.matchAll(/"(\d+)"/g)].map((m) => readNumber(m[1] ?? ''))
      if (current.recordsKB.some((r) => !(r > 0))) return { problem: `a record size of the "${current.subtest.report}" block is not a positive number`, line }
      continue
    }
    const row = ROW.exec(line)
    if (!row) return { problem: `a line of the "${current.subtest.report}" block is not a row of numbers`, line }
    // iozone ends every value with a space; a last line without one and without a newline was cut.
    if (i === lines.length - 1 && !/\s$/.test(line)) return { problem: `its last row ends in the middle of a number (the output was cut short?)`, line }
    const fileKB = readNumber(row[1] ?? '')
    const values = (row[2] ?? '').trim().split(/\s+/).filter(Boolean).map(readNumber)
    if (!(fileKB > 0) || values.some((v) => Number.isNaN(v))) {
      return { problem: `a row of the "${current.subtest.report}" block holds something other than whole numbers`, line }
    }
    const tested = current.recordsKB.filter((r) => r <= fileKB).length
    if (values.length !== tested) {
      return {
        problem:
          `the ${fileKB} kB row of the "${current.subtest.report}" block has ${values.length} values, but ${tested} record sizes fit that file` +
          (values.length < tested ? ' (the output was cut short?)' : ''),
        line
      }
    }
    current.rows.push({ fileKB, values })
  }
  return blocks
}
