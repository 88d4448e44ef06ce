import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { writeFileAtomic } from '../../main/fs/atomic-file'
import { readRun, RunFileError } from '../../main/store/run-store'
import { describeRun } from '../../main/tools/describe-run'
import { compare } from '../../shared/compare'
import { pctText } from '../../shared/compare/message-text'
import { compareReleases, releaseCounts, RELEASE_VERDICTS, type ReleaseComparison, type ReleaseRow, type ReleaseSide } from '../../shared/compare/release'
import { environmentChanges, type TargetEnvironmentChange } from '../../shared/environment-diff'
import { formatValue } from '../../shared/format'
import type { RunDocument } from '../../shared/model/run'
import { comparisonInputOf } from '../../shared/run-comparison'
import type { CliCommand } from '../io'
import { UsageError } from '../usage-error'

const USAGE = `Usage: virtbench compare NEW OLD [--json FILE] [--all-metrics] [--fail-on-regression]

A release comparison: two runs of one preset (NEW, for example this release, and OLD, the last
one), each a run's folder or its run.json. For each variant and metric it shows how the guest's
relative % moved from OLD to NEW (NEW / OLD x 100: 100 % is unchanged), with a 95 % interval for
the change and a verdict: regressed, improved, unchanged (the whole interval within 100 % ± the
plan's equivalence margin) or inconclusive. Then what changed on each machine between the runs
(kernel, OS, CPU, tool and qemu versions, guests' disk setup...).

Options:
  --json FILE            the release comparison as JSON (- for standard output)
  --all-metrics          every metric, not only the primary figures
  --fail-on-regression   exit 3 when a primary figure regressed (for CI)

Exit status: 0 compared; 2 bad arguments or a run that cannot be read; 3 a primary figure
regressed and --fail-on-regression was given.`

export const compareCommand: CliCommand = {
  name: 'compare',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        json: { type: 'string' },
        'all-metrics': { type: 'boolean' },
        'fail-on-regression': { type: 'boolean' }
      },
      strict: true,
      allowPositionals: true
    })
    if (positionals.length !== 2) throw new UsageError('give two runs: NEW (the newer) and OLD (the one to compare with), each a folder or its run.json')
    const newer = await readRunAt(positionals[0]!, 'NEW')
    const older = await readRunAt(positionals[1]!, 'OLD')
    if (newer.run.id === older.run.id) throw new UsageError(`NEW and OLD are the same run (${newer.run.id})`)
    if (newer.run.plan.name !== older.run.plan.name) {
      io.stderr(`virtbench compare: warning: the runs are of different plans ("${newer.run.plan.name}" and "${older.run.plan.name}"); figures are matched by test, metric and variant.\n`)
    }
    const release = compareReleases(compare(comparisonInputOf(older.run)), compare(comparisonInputOf(newer.run)), newer.run.plan.equivalenceMarginPct)
    const environment = environmentChanges(older.run, newer.run)
    const allMetrics = values['all-metrics'] === true
    if (values.json !== undefined) {
      const text = `${JSON.stringify(releaseExport(release, environment, newer, older), null, 2)}\n`
      if (values.json === '-') io.stdout(text)
      else {
        const file = path.resolve(values.json)
        await writeFileAtomic(file, text, { fileMode: 0o666 })
        io.stderr(`Release comparison: ${file}\n`)
      }
    }
    if (values.json !== '-') io.stdout(releaseText(release, environment, newer.run, older.run, allMetrics))
    const regressed = release.rows.some((r) => r.primary && r.cells.some((c) => c.verdict === 'regressed'))
    return values['fail-on-regression'] === true && regressed ? 3 : 0
  }
}

interface RunAt {
  run: RunDocument
  dir: string
}

async function readRunAt(given: string, which: string): Promise<RunAt> {
  const source = path.resolve(given)
  const isFile = existsSync(source) && statSync(source).isFile()
  if (isFile && path.basename(source) !== 'run.json') throw new UsageError(`${which} ${source} is not a run.json; give the run's folder or its run.json`)
  const dir = isFile ? path.dirname(source) : source
  try {
    return { run: describeRun(await readRun(dir)), dir }
  } catch (error) {
    const why = error instanceof RunFileError ? error.message : (error as Error).message
    throw new UsageError(`cannot read the ${which} run at ${source}: ${why}`)
  }
}

function sideText(row: ReleaseRow, side: ReleaseSide | undefined): string {
  if (!side) return 'absent'
  if (row.comparison === 'ratio') return side.relativePct === undefined ? 'no result' : pctText(side.relativePct)
  return side.difference === undefined ? 'no result' : signed(side.difference, row)
}

function signed(v: number, row: ReleaseRow): string {
  return `${v > 0 ? '+' : ''}${formatValue(v, row.unit)}`
}

function rowTitle(row: ReleaseRow): string {
  const labels = Object.entries(row.labels).map(([k, v]) => `${k}=${v}`)
  return `${row.testTitle} · ${row.metric}${row.comparison === 'difference' ? ' Δ' : ''}${labels.length ? ` (${labels.join(', ')})` : ''}`
}

/** The release comparison for a terminal: per variant a table of OLD → NEW, the change with its interval and verdict; then the environment changes. */
export function releaseText(release: ReleaseComparison, environment: TargetEnvironmentChange[], newer: RunDocument, older: RunDocument, allMetrics: boolean): string {
  const out: string[] = [
    `Release comparison of "${newer.plan.name}"`,
    `  NEW ${newer.id} (${newer.createdAt}, VirtBench ${newer.app.version})`,
    `  OLD ${older.id} (${older.createdAt}, VirtBench ${older.app.version})`,
    `  change = NEW relative % / OLD relative % x 100 (100 % unchanged); unchanged when its whole 95 % interval is within 100 % ± ${release.marginPct} %`,
    ''
  ]
  const rows = allMetrics || !release.rows.some((r) => r.primary) ? release.rows : release.rows.filter((r) => r.primary)
  for (const variant of release.variants) {
    const header = ['test · metric', 'OLD', 'NEW', 'change [95 % interval]', 'verdict']
    const body = rows.map((row) => {
      const cell = row.cells.find((c) => c.variant === variant)!
      let change = '–'
      if (row.comparison === 'ratio' && cell.changePct !== undefined) {
        change = `${pctText(cell.changePct)}${cell.ci95 ? ` [${pctText(cell.ci95[0])}…${pctText(cell.ci95[1])}]` : ''}`
      } else if (cell.changeDifference !== undefined) {
        change = `${signed(cell.changeDifference, row)}${cell.ci95 ? ` [${signed(cell.ci95[0], row)}…${signed(cell.ci95[1], row)}]` : ''}`
      }
      return [rowTitle(row), sideText(row, cell.older), sideText(row, cell.newer), change, cell.verdict]
    })
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)))
    const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()
    const counts = releaseCounts(rows, variant)
    const summary = RELEASE_VERDICTS.filter((v) => counts[v] > 0).map((v) => `${counts[v]} ${v}`).join(', ') || 'nothing compared'
    out.push(`${variant} against ${release.baseline.newer}: ${summary}`, line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line), '')
  }
  const notes = rows.flatMap((row) => row.cells.filter((c) => c.verdict === 'inconclusive' && c.changePct === undefined && c.changeDifference === undefined).map((c) => `${c.variant}, ${rowTitle(row)}: ${c.reason}`))
  if (notes.length > 0) out.push('Not compared:', ...notes.map((n) => `  ${n}`), '')
  out.push('Environment changes (OLD → NEW)')
  for (const t of environment) {
    if (t.missing) out.push(`  ${t.target} (${t.role}): the ${t.missing} run has no environment for it`)
    else if (t.differences.length === 0) out.push(`  ${t.target} (${t.role}): no change`)
    else {
      out.push(`  ${t.target} (${t.role}):`)
      for (const d of t.differences) out.push(`    ${d.label}: ${d.a ?? 'not reported'} → ${d.b ?? 'not reported'}`)
    }
  }
  if (!allMetrics && rows.length < release.rows.length) out.push('', `${release.rows.length - rows.length} more metrics (--all-metrics shows them).`)
  return `${out.join('\n')}\n`
}

/** The release comparison as JSON: one row per variant and metric, and the environment changes. */
export function releaseExport(release: ReleaseComparison, environment: TargetEnvironmentChange[], newer: RunAt, older: RunAt): unknown {
  const runOf = (r: RunAt) => ({ id: r.run.id, name: r.run.name, dir: r.dir, createdAt: r.run.createdAt, appVersion: r.run.app.version })
  const sideOf = (s: ReleaseSide | undefined) =>
    s && {
      ...(s.relativePct !== undefined ? { relativePct: s.relativePct } : {}),
      ...(s.difference !== undefined ? { difference: s.difference } : {}),
      ...(s.ci95 ? { ciLow: s.ci95[0], ciHigh: s.ci95[1] } : {}),
      ...(s.n !== undefined ? { n: s.n } : {}),
      verdict: s.verdict
    }
  return {
    kind: 'virtbench-release-comparison',
    version: 1,
    newer: runOf(newer),
    older: runOf(older),
    baseline: release.baseline.newer,
    marginPct: release.marginPct,
    method: release.method,
    rows: release.rows.flatMap((row) =>
      row.cells.map((c) => ({
        variant: c.variant,
        test: row.testId,
        testTitle: row.testTitle,
        metric: row.metric,
        labels: row.labels,
        unit: row.unit,
        primary: row.primary,
        ...(row.category ? { category: row.category } : {}),
        comparison: row.comparison,
        older: sideOf(c.older) ?? null,
        newer: sideOf(c.newer) ?? null,
        ...(c.changePct !== undefined ? { changePct: c.changePct } : {}),
        ...(c.changePoints !== undefined ? { changePoints: c.changePoints } : {}),
        ...(c.changeDifference !== undefined ? { changeDifference: c.changeDifference } : {}),
        ...(c.ci95 ? { ciLow: c.ci95[0], ciHigh: c.ci95[1] } : {}),
        verdict: c.verdict,
        reason: c.reason
      }))
    ),
    environment
  }
}
