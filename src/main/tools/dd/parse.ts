import type { Sample } from '../../../shared/model/sample'
import { parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { findDdReports, type DdReport, type TransferLine } from './dd-report'
import { lastDigitUnit } from './decimal'
import { findFileBytesMarkers, type FileBytesMarker } from './file-size-marker'
import { ddMetrics } from './metrics'
import { ddNumber, ddTotalBytes, type DdParams } from './params'
import { findTimings, type Timing } from './time-report'

const metric = sampler(ddMetrics)

/** Lines of dd, stat, cat, sh or a time wrapper that say something failed. */
const ERROR_LINE = /^(?:\S*\/)?(?:dd|cat|stat|sh|bash|busybox|time):\s/
/** `dd: warning: partial read …`, `bash: warning: setlocale: …`: said, but not a failure. */
const WARNING_LINE = /^(?:\S*\/)?(?:dd|cat|stat|sh|bash|busybox|time): warning:/
const TIME_EXIT_LINE = /^Command (?:exited with non-zero status|terminated by signal) /

/** A value VirtBench can record: finite and above zero (a zero time or size is no measurement). */
const plausible = (value: number) => Number.isFinite(value) && value > 0

/** Above this share of the measured time, a timer's resolution gets a warning. */
const RESOLUTION_WARNING_SHARE = 0.01

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/)
}

function formatSeconds(seconds: number): string {
  return `${Number(seconds.toPrecision(6))} s`
}

function findError(lines: readonly string[]): string | undefined {
  return lines.find((l) => (ERROR_LINE.test(l) && !WARNING_LINE.test(l)) || TIME_EXIT_LINE.test(l))
}

/** Warnings the commands printed (`dd: warning: partial read …`), passed on as they are. */
function ddWarnings(lines: readonly string[]): string[] {
  return lines.filter((l) => WARNING_LINE.test(l))
}

function timingSamples(timing: Timing, warnings: string[]): Sample[] {
  const samples: Sample[] = []
  if (plausible(timing.wall)) samples.push(metric('dd.wall', timing.wall))
  else warnings.push(`${timing.source} printed a wall-clock time of 0 (its resolution is ${timing.resolution} s); dd.wall is not recorded`)
  const cpu: [string, number | undefined][] = [
    ['dd.cpu.user', timing.user],
    ['dd.cpu.system', timing.system]
  ]
  for (const [name, value] of cpu) {
    if (value !== undefined && plausible(value)) samples.push(metric(name, value))
  }
  return samples
}

/** A warning when a timer's resolution is a noticeable part of what it timed. */
function resolutionWarning(timing: Timing): string[] {
  const share = timing.resolution / timing.wall
  if (share <= RESOLUTION_WARNING_SHARE) return []
  return [
    `${timing.source} timed the command to ${timing.resolution} s and it took only ${formatSeconds(timing.wall)}, so the bandwidth is uncertain by up to ±${Number((share * 100).toPrecision(2))} %; use more data`
  ]
}

function partialWarnings(report: DdReport): string[] {
  const partial = report.recordsOut.partial
  if (partial === 0) return []
  return [
    `dd wrote ${partial} partial record${partial === 1 ? '' : 's'} (short reads or writes), so blocks were not all of the size asked for; dd.lat.mean counts them as operations`
  ]
}

/** Checks dd's printed rate against bytes / seconds, allowing for the rounding of both. */
function rateWarnings(transfer: TransferLine, bandwidth: number): string[] {
  const rate = transfer.rate
  if (!rate) return []
  // dd rounds the seconds it prints; half a unit of their last digit moves bytes / seconds this much.
  const secondsRounding = (lastDigitUnit(transfer.secondsText) / transfer.seconds) * bandwidth
  const allowed = rate.stepBytesPerSecond + secondsRounding + bandwidth * 1e-9
  if (Math.abs(rate.bytesPerSecond - bandwidth) <= allowed) return []
  return [
    `dd printed a rate of ${rate.text}, but its bytes / seconds is ${Math.round(bandwidth)} B/s; VirtBench uses bytes / seconds`
  ]
}

/**
 * A warning when dd moved another amount than the test asked for (a short input, a small device).
 * The cat reader asks for no amount: it reads the whole file, whatever its size.
 */
function sizeWarnings(bytes: number, params: DdParams | undefined): string[] {
  if (!params || params.reader === 'cat') return []
  const asked = ddTotalBytes(params)
  if (bytes === asked) return []
  return [`the test asked for ${asked} bytes (bs=${params.blockSize} x count=${params.count}) but ${bytes} were copied; the figures are for what was copied`]
}

/** bytes, seconds, bytes / seconds and seconds / operations; a reason when they make no measurement. */
function coreSamples(bytes: number, seconds: number, operations: number): Sample[] | string {
  const bandwidth = bytes / seconds
  if (![bytes, seconds, bandwidth].every(plausible)) {
    return `${bytes} bytes in ${seconds} s is not a measurement VirtBench can record (bandwidth ${bandwidth} B/s)`
  }
  const samples = [metric('dd.bytes', bytes), metric('dd.elapsed', seconds), metric('dd.bandwidth', bandwidth)]
  const latency = seconds / operations
  if (plausible(latency)) samples.push(metric('dd.lat.mean', latency))
  return samples
}

/** dd printed its transfer line: bytes and seconds are dd's own. */
function fromTransfer(report: DdReport, transfer: TransferLine, timing: Timing | undefined, params: DdParams | undefined, warnings: string[]): ParseResult {
  if (transfer.bytes === 0) {
    return parseFailure('dd copied 0 bytes, so nothing was measured: is the input empty, or count=0?', transfer.line)
  }
  if (transfer.seconds <= 0) {
    return parseFailure(
      "dd's clock did not advance (0 s), so no bandwidth can be computed: copy more data (a larger count)",
      transfer.line
    )
  }
  const operations = report.recordsOut.full + report.recordsOut.partial
  const samples = coreSamples(transfer.bytes, transfer.seconds, operations)
  if (typeof samples === 'string') return parseFailure(samples, transfer.line)
  warnings.push(...rateWarnings(transfer, transfer.bytes / transfer.seconds), ...sizeWarnings(transfer.bytes, params))
  if (timing) samples.push(...timingSamples(timing, warnings))
  return parseSuccess(samples, [...warnings, ...partialWarnings(report)])
}

/**
 * dd printed only its record counts (BusyBox built without its transfer line): bytes are full
 * records x block size, time is the `time` wrapper's wall clock.
 */
function fromRecordsOnly(report: DdReport, timing: Timing | undefined, params: DdParams | undefined, warnings: string[]): ParseResult {
  const what = 'dd printed only its record counts, no bytes and no time (BusyBox dd is often built that way)'
  if (!timing) {
    return parseFailure(`${what}, and no \`time\` output was found: run it with a timer (timer: bash or gnu-time)`, report.line)
  }
  const blockBytes = params ? ddNumber(params.blockSize) : null
  if (blockBytes === null) {
    return parseFailure(`${what}: the byte count needs the test's block size, which is not known when parsing output alone`, report.line)
  }
  if (report.recordsOut.partial > 0) {
    return parseFailure(`${what}, and ${report.recordsOut.partial} of the records were partial, so the bytes copied are not known`, report.line)
  }
  if (timing.wall <= 0) {
    return parseFailure(`${what}, and ${timing.source} measured 0 s (resolution ${timing.resolution} s): copy more data`, timing.line)
  }
  const bytes = report.recordsOut.full * blockBytes
  if (bytes === 0) return parseFailure('dd copied 0 records, so nothing was measured', report.line)
  warnings.push(
    `${what}: dd.bytes is ${report.recordsOut.full} records x ${blockBytes} B, and dd.elapsed is ${timing.source}'s wall-clock time, which includes starting the shell`,
    ...resolutionWarning(timing)
  )
  const core = coreSamples(bytes, timing.wall, report.recordsOut.full)
  if (typeof core === 'string') return parseFailure(core, timing.line)
  return parseSuccess([...core, ...timingSamples(timing, warnings)], warnings)
}

/** Study 004's read form: `stat` printed the file size, `time sh -c "cat file > /dev/null"` the time. */
function fromTimedRead(marker: FileBytesMarker, timing: Timing | undefined, warnings: string[]): ParseResult {
  if (!timing) {
    return parseFailure('found the file size line but no `time` output: the cat reader needs a timer (timer: bash or gnu-time)', marker.line)
  }
  if (marker.bytes === 0) return parseFailure('the file read was empty (0 bytes), so nothing was measured', marker.line)
  if (timing.wall <= 0) {
    return parseFailure(
      `${timing.source} measured 0 s for the read (its resolution is ${timing.resolution} s), so no bandwidth can be computed: read a larger file`,
      timing.line
    )
  }
  const core = coreSamples(marker.bytes, timing.wall, 0)
  if (typeof core === 'string') return parseFailure(core, timing.line)
  warnings.push(...resolutionWarning(timing))
  return parseSuccess([...core, ...timingSamples(timing, warnings)], warnings)
}

function exitFailure(out: StepOutput, lines: readonly string[]): ParseResult | null {
  const tail = lines.filter((l) => l.trim() !== '').slice(-3).join('\n')
  if (out.signal) return parseFailure(`the command was stopped by signal ${out.signal} before it finished`, tail)
  if (out.exitCode !== null && out.exitCode !== 0) {
    return parseFailure(`the command exited with code ${out.exitCode}; its output is not a complete measurement`, tail)
  }
  return null
}

/**
 * Reads dd's report (GNU coreutils in any locale, or BusyBox), optionally wrapped in a `time`
 * command, or study 004's `cat` read (file size line + `time` output). Looks at stderr, where
 * dd and time report, and stdout, where the file size line is (or both, when given as one).
 */
export function parse(out: StepOutput, params?: DdParams): ParseResult {
  const lines = [...splitLines(out.stderr), ...splitLines(out.stdout)]
  if (lines.every((l) => l.trim() === '')) {
    return parseFailure('the output is empty: dd prints its report on standard error; was it kept?', '')
  }
  const error = findError(lines)
  if (error) return parseFailure(`the command reported an error: ${error}`, error)
  const exit = exitFailure(out, lines)
  if (exit) return exit

  const reports = findDdReports(lines)
  const timings = findTimings(lines)
  const markers = findFileBytesMarkers(lines)
  if (reports.length > 1) {
    return parseFailure(`found ${reports.length} dd reports; VirtBench reads the output of one dd run at a time`, reports[1]!.line)
  }
  if (timings.length > 1) {
    return parseFailure(`found ${timings.length} \`time\` reports; VirtBench reads one timed command at a time`, timings[1]!.line)
  }
  if (markers.length > 1) return parseFailure(`found ${markers.length} file size lines; expected one`, markers[1]!.line)

  const warnings = ddWarnings(lines)
  const report = reports[0]
  const timing = timings[0]
  if (report?.transfer) return fromTransfer(report, report.transfer, timing, params, warnings)
  if (report) return fromRecordsOnly(report, timing, params, warnings)
  if (markers[0]) return fromTimedRead(markers[0], timing, [...warnings, ...sizeWarnings(markers[0].bytes, params)])
  const text = lines.join('\n')
  return parseFailure(
    'no dd report found: expected "N+M records in" and "N+M records out" lines (and usually "… bytes … copied, … s, … B/s"), or a file size line and `time` output for the cat reader',
    text,
    text.search(/\S/)
  )
}
