import type { AcceptanceResult } from './judge'

/**
 * The acceptance verdict as plain text, for the terminal (virtbench run and report) and logs:
 *
 *   Acceptance: FAILED (1 of 2 criteria passed)
 *   PASS  1. storage primary figures at least 90 % of the baseline: 2 of 2 figures passed
 *   FAIL  2. cpu primary figures at least 90 % of the baseline: 1 of 1 figure failed
 *           guest, sysbench cpu sysbench.cpu.events: 50.2 % [95 % interval 49.1 % to 51.3 %], slower: below 90 %
 *
 * Failing figures are listed under their criterion (all of them: a CI log is read when it failed).
 */
export function acceptanceText(result: AcceptanceResult): string {
  const head = `Acceptance: ${result.passed ? 'PASSED' : 'FAILED'} (${result.summary.split(';')[0]})`
  const lines = result.results.flatMap((r) => {
    const mark = r.status === 'passed' ? 'PASS ' : r.status === 'failed' ? 'FAIL ' : 'ERROR'
    const failing = r.cells.filter((c) => c.counts === 'fail').map((c) => `        ${c.text}`)
    return [`${mark} ${r.index + 1}. ${r.name}: ${r.summary}`, ...failing]
  })
  return `${[head, ...lines].join('\n')}\n`
}
