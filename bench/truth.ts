/**
 * VirtBench's accuracy against a known truth, as a figure anyone can reproduce:
 *
 *   npm run bench:truth            (needs root: cgroups, loop devices, network namespaces)
 *
 * For each known-truth case (tests/harness/truth-run.ts: a guest given 40 % of the baseline's CPU
 * quota, disk rate, disk IOPS and network rate, and a twin given the same limits as the baseline),
 * the real engine measures the three targets with adaptive repetitions, and this prints the
 * truth, what VirtBench reported, the error in points, the interval and verdict, the twin's
 * figure and verdict, and the repetitions it needed. Exit code 1 when a guest is off by more than
 * 3 points, a verdict is not "slower", or a twin is not "same".
 */
import { cellOf, measureAgainstTruth, primaryTotalRow, TRUTH_CASES, TRUTH_PCT } from '../tests/harness/truth-run'

const TOLERANCE = 3

function pct(n: number | undefined): string {
  return n === undefined ? '—' : `${n.toFixed(1)} %`
}

async function main(): Promise<void> {
  const rows: string[][] = [['category', 'figure', 'truth', 'VirtBench', 'error', '95 % interval', 'verdict', 'twin', 'twin verdict', 'repetitions', 'stopped', 'seconds']]
  let failed = false
  for (const truthCase of TRUTH_CASES) {
    const measured = await measureAgainstTruth(truthCase.specs, truthCase.plan)
    try {
      for (const { testId, what } of truthCase.tests) {
        const row = primaryTotalRow(measured.comparison, testId)
        if (!row) {
          rows.push([truthCase.category, what, `${TRUTH_PCT} %`, 'no result'])
          failed = true
          continue
        }
        const guest = cellOf(row, 'guest')
        const twin = cellOf(row, 'twin')
        const error = guest.relativePct === undefined ? undefined : guest.relativePct - TRUTH_PCT
        const adaptive = measured.run.tests.find((t) => t.id === testId)?.adaptive
        if (error === undefined || Math.abs(error) > TOLERANCE || guest.verdict !== 'slower' || twin.verdict !== 'same') failed = true
        rows.push([
          truthCase.category,
          what,
          `${TRUTH_PCT} %`,
          pct(guest.relativePct),
          error === undefined ? '—' : `${error >= 0 ? '+' : ''}${error.toFixed(2)}`,
          guest.ci95 ? `${pct(guest.ci95[0])} – ${pct(guest.ci95[1])}` : '—',
          guest.verdict,
          pct(twin.relativePct),
          twin.verdict,
          String(adaptive?.repetitions ?? '—'),
          adaptive?.stoppedBecause ?? '—',
          measured.seconds.toFixed(0)
        ])
      }
    } finally {
      await measured.lab.stop()
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  for (const [i, row] of rows.entries()) {
    console.log(row.map((c, j) => (j < 2 ? c.padEnd(widths[j]!) : c.padStart(widths[j]!))).join('  '))
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  }
  console.log(`\nGoal: every guest within ± ${TOLERANCE} points of ${TRUTH_PCT} % with the verdict "slower", every twin "same": ${failed ? 'MISSED' : 'met'}.`)
  process.exitCode = failed ? 1 : 0
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
