import { IOZONE_SUBTESTS, type IozoneSubtest } from './subtests'

/**
 * iozone's main table: one line per (file size, record size) in kB, then a column per sub-test:
 *
 *               kB  reclen    write  rewrite    read    reread    read     write ...
 *               64       4   743988  4564786  9318832  7940539  6421025  4274062 ...
 *
 * Columns are fixed-width and not always apart: a value wider than its column runs into the
 * next one (`31945770128000000128000000`), and sub-tests left out with -i are blank. Only rows
 * with exactly one number per column are trusted; the others are counted, not guessed at.
 */
export interface MainTable {
  columns: IozoneSubtest[]
  rows: { fileKB: number; recordKB: number; values: number[] }[]
  /** Rows whose numbers could not be told apart, or with blank columns. */
  unreadableRows: number
}

const HEADER = /^\s*kB\s+reclen\s+(.+?)\s*$/i
const ROW = /^\s*(\d+)\s+(\d+)((?:\s+\d+)*)\s*$/

export function readMainTable(lines: readonly string[]): MainTable | null {
  const headerAt = lines.findIndex((l) => HEADER.test(l))
  if (headerAt < 0) return null
  const names = (HEADER.exec(lines[headerAt] ?? '')?.[1] ?? '').split(/\s+/)
  const columns = IOZONE_SUBTESTS.slice(0, names.length)
  if (columns.length !== names.length || columns.some((c, i) => c.column !== names[i]?.toLowerCase())) return null
  const table: MainTable = { columns, rows: [], unreadableRows: 0 }
  for (const line of lines.slice(headerAt + 1)) {
    const m = ROW.exec(line)
    if (!m) break
    const values = (m[3] ?? '').trim().split(/\s+/).filter(Boolean).map(Number)
    const fileKB = Number(m[1])
    const recordKB = Number(m[2])
    if (values.length !== columns.length || ![fileKB, recordKB, ...values].every(Number.isSafeInteger)) {
      table.unreadableRows++
      continue
    }
    table.rows.push({ fileKB, recordKB, values })
  }
  return table
}
