import { lastDigitUnit, parseDecimal } from './decimal'

/** Full and partial (short) blocks, as in `1000+0 records in`. */
export interface RecordCounts {
  full: number
  partial: number
}

/** The rate dd printed, only ever used to check the bandwidth VirtBench computes. */
export interface PrintedRate {
  text: string
  /** In B/s. */
  bytesPerSecond: number
  /** One unit of the last printed digit, in B/s: how far rounding may move the printed rate. */
  stepBytesPerSecond: number
}

/**
 * dd's last line: `16777216 bytes (17 MB, 16 MiB) copied, 0.0419217 s, 400 MB/s` (GNU coreutils
 * 8.24+, in any language), `… bytes (1.1 GB) copied, 2.3 s, 466 MB/s` (older), `1 byte copied, …`,
 * or `512000 bytes (500.0KB) copied, 0.005123 seconds, 95.3MB/s` (BusyBox built with its
 * transfer line).
 */
export interface TransferLine {
  line: string
  bytes: number
  /** As printed; 0 when dd's clock did not advance. */
  seconds: number
  secondsText: string
  /** Absent for `Infinity B/s` (no time passed). */
  rate?: PrintedRate
}

export interface DdReport {
  recordsIn: RecordCounts
  recordsOut: RecordCounts
  /** Absent when dd printed only the record counts (BusyBox without its transfer line, status=noxfer). */
  transfer?: TransferLine
  /** The `… records in` line, for error messages. */
  line: string
}

const RECORDS = /^([0-9]{1,19})\+([0-9]{1,19}) \S.*$/
const TRUNCATED = /^[0-9]+ truncated records?$/
const TRANSFER = /^([0-9]{1,19}) .+, (\S+) (?:s|seconds?), (\S+?)( ?)([kKMGTPEZYRQ]?i?B)\/s$/

const SI_PREFIXES = 'kMGTPEZYRQ'
const BINARY_PREFIXES = 'KMGTPEZY'

/**
 * Bytes per unit of a printed rate. GNU dd prints SI units with a space before them (kB = 1000);
 * BusyBox prints powers of 1024 without the space (KB = 1024); an `i` (KiB) is always 1024.
 */
function unitFactor(unit: string, spaced: boolean): number | null {
  const prefix = unit.replace(/i?B$/, '')
  if (prefix === '') return 1
  const binary = unit.includes('i') || !spaced
  const index = binary ? BINARY_PREFIXES.indexOf(prefix.toUpperCase()) : SI_PREFIXES.indexOf(prefix)
  if (index < 0) return null
  return (binary ? 1024 : 1000) ** (index + 1)
}

function counts(m: RegExpExecArray): RecordCounts | null {
  const full = Number(m[1])
  const partial = Number(m[2])
  return Number.isSafeInteger(full) && Number.isSafeInteger(partial) ? { full, partial } : null
}

export function parseTransferLine(line: string): TransferLine | null {
  const m = TRANSFER.exec(line)
  if (!m) return null
  const bytes = Number(m[1])
  const seconds = parseDecimal(m[2]!)
  if (!Number.isSafeInteger(bytes) || seconds === null) return null
  const transfer: TransferLine = { line, bytes, seconds, secondsText: m[2]! }
  const rateValue = parseDecimal(m[3]!)
  const factor = unitFactor(m[5]!, m[4] === ' ')
  if (rateValue !== null && factor !== null) {
    transfer.rate = {
      text: `${m[3]}${m[4]}${m[5]}/s`,
      bytesPerSecond: rateValue * factor,
      stepBytesPerSecond: lastDigitUnit(m[3]!) * factor
    }
  }
  return transfer
}

/**
 * Every dd report in the lines: two record-count lines (`N+M records in`, `N+M records out`,
 * in any language), an optional `truncated records` line, and the transfer line if dd printed
 * one. status=progress lines come before the record counts and are not part of a report.
 */
export function findDdReports(lines: readonly string[]): DdReport[] {
  const reports: DdReport[] = []
  for (let i = 0; i + 1 < lines.length; i++) {
    const recordsIn = RECORDS.exec(lines[i]!)
    const recordsOut = recordsIn && RECORDS.exec(lines[i + 1]!)
    if (!recordsIn || !recordsOut) continue
    const inCounts = counts(recordsIn)
    const outCounts = counts(recordsOut)
    if (!inCounts || !outCounts) continue
    let next = i + 2
    if (next < lines.length && TRUNCATED.test(lines[next]!)) next++
    const transfer = next < lines.length ? parseTransferLine(lines[next]!) : null
    const report: DdReport = { recordsIn: inCounts, recordsOut: outCounts, line: lines[i]! }
    if (transfer) report.transfer = transfer
    reports.push(report)
    i = transfer ? next : i + 1
  }
  return reports
}
