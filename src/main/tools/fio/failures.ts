import { parseFailure } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { describeErrno } from './errno'
import type { JobResult } from './report'

/** At most this many of fio's error lines lead a failure. */
const MAX_ERROR_LINES = 3

/** What to do about fio's error, by what fio said; the last entry fits every error. */
const ADVICE: readonly (readonly [RegExp, string])[] = [
  [/not loadable|failed to load engine/i, 'install the I/O engine on the target or choose another ioengine'],
  [/No space left on device|err=\s*28\b/i, "free space on the target's disk or lower the test's size"],
  [/unable to open '.*' job file/i, 'check that the job file exists on the target'],
  [/not a directory|No such file or directory|Permission denied|Read-only file system/i, 'check the path and its permissions on the target'],
  [/failed parsing|invalid|unknown option|bad option/i, "check the test's fio parameters"],
  [/.*/, 'fix the cause (path, free space, permissions or job options) and run the test again']
]

function adviceFor(lines: readonly string[]): string {
  const text = lines.join('\n')
  return ADVICE.find(([pattern]) => pattern.test(text))![1]
}

/** The advice as a sentence of its own. */
function adviceSentence(lines: readonly string[]): string {
  const advice = adviceFor(lines)
  return `${advice.charAt(0).toUpperCase()}${advice.slice(1)}`
}

/**
 * fio's own error lines ("fio: pid=0, err=20/file:filesetup.c:455, func=fstat, error=Not a
 * directory", "fio: failed parsing rw=sideways"), once each, the `err=<errno>` lines first.
 */
function fioErrorLines(texts: readonly string[]): string[] {
  const lines = new Set<string>()
  for (const text of texts) {
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim()
      if (line.startsWith('fio: ')) lines.add(line)
    }
  }
  const withErrno = [...lines].filter((line) => /\berr=\s*\d+/.test(line))
  return [...withErrno, ...[...lines].filter((line) => !withErrno.includes(line))].slice(0, MAX_ERROR_LINES)
}

/** Why there is no report: nothing printed, fio's own error, or the report is cut short. */
export function noReport(out: StepOutput): ParseResult {
  const exited = out.exitCode !== null && out.exitCode !== 0 ? ` and exited with code ${out.exitCode}` : ''
  if (out.stdout.trim() === '' && out.stderr.trim() === '') {
    return parseFailure(`fio printed nothing${exited}; check that fio is installed and runs on this target`, '')
  }
  if (/(^|\n)\s*\{/.test(out.stdout)) {
    return parseFailure(
      `fio's JSON report is cut short or damaged${exited}: it starts but is not complete JSON; run the test again and check that the output is kept whole`,
      out.stdout,
      Math.max(0, out.stdout.length - 100)
    )
  }
  const errors = fioErrorLines([out.stderr, out.stdout])
  const [first] = errors
  if (first) {
    const source = out.stderr.includes(first) ? out.stderr : out.stdout
    return parseFailure(`fio failed: ${errors.join(' / ')}; it wrote no JSON report${exited}. ${adviceSentence(errors)}`, source, source.indexOf(first))
  }
  const said = firstLine(out.stderr) ?? firstLine(out.stdout)
  if (exited || out.stderr.trim() !== '') {
    return parseFailure(`fio failed before writing its report${exited}: ${said ?? ''}`, out.stderr.trim() ? out.stderr : out.stdout)
  }
  return parseFailure('there is no JSON report in this output; fio must run with --output-format=json (VirtBench\'s plans always add it)', out.stdout)
}

function firstLine(text: string): string | undefined {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line !== '')
}

/** fio's line about a job's errno ("fio: pid=0, err=20/file:..., error=Not a directory"), if it printed one. */
function errorLineOf(job: JobResult, notes: readonly string[]): string | undefined {
  return notes.find((line) => new RegExp(`\\berr=\\s*${job.error}\\b`).test(line))
}

function stoppedWith(job: JobResult, labels: readonly string[]): string {
  return `job '${labels[job.index]}' stopped with ${describeErrno(job.error)}`
}

/** Every job stopped with an errno: nothing measures the requested I/O. */
export function everyJobFailed(failed: readonly JobResult[], labels: readonly string[], notes: readonly string[], source: string, at: number): ParseResult {
  const what = failed.map((job) => stoppedWith(job, labels)).join('; ')
  const said = failed.map((job) => errorLineOf(job, notes)).find((line) => line !== undefined) ?? notes.find((line) => /\berror=/.test(line))
  const reason =
    `fio ${what}, so the numbers in its report do not measure the requested I/O` +
    (said ? `; fio said: ${said}` : '') +
    `. ${adviceSentence(said ? [said] : [])}`
  return said ? parseFailure(reason, said) : parseFailure(reason, source, at)
}

/**
 * Some jobs stopped with an errno and the others ran: one warning per failed job (its errno and
 * fio's line about it), then what is given instead. Also the lines quoted, so they are not
 * passed on a second time.
 */
export function someJobsFailed(
  failed: readonly JobResult[],
  jobCount: number,
  labels: readonly string[],
  notes: readonly string[]
): { warnings: string[]; quoted: string[] } {
  const quoted: string[] = []
  const warnings = failed.map((job) => {
    const said = errorLineOf(job, notes)
    if (said) quoted.push(said)
    return `${stoppedWith(job, labels)}, so its figures are left out${said ? `; fio said: ${said}` : ''}`
  })
  warnings.push(
    `${failed.length} of ${jobCount} jobs failed: the jobs that ran are given each on its own (labels.job), and no totals over all jobs, since the failed ${failed.length === 1 ? "job's share is" : "jobs' shares are"} missing. To measure every job, ${adviceFor(quoted)}`
  )
  return { warnings, quoted }
}
