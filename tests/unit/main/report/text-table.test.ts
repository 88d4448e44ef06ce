import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { comparisonTable } from '../../../../src/main/report/text-table'
import { describeRun } from '../../../../src/main/tools/describe-run'
import { compare } from '../../../../src/shared/compare'
import { leadingRows } from '../../../../src/shared/compare/summary'
import type { Comparison } from '../../../../src/shared/model/comparison'
import { RunDocumentSchema } from '../../../../src/shared/model/run'
import { comparisonInputOf } from '../../../../src/shared/run-comparison'

/** The stored loopback run (host against guest), compared as `virtbench run` prints it. */
function comparison(): Comparison {
  const file = path.join(__dirname, '../../../fixtures/runs/loopback-quick/run.json')
  return compare(comparisonInputOf(describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))))
}

/** The table's body lines (under the rule, up to the first blank line). */
function bodyOf(table: string): string[] {
  const lines = table.split('\n')
  const rule = lines.findIndex((l) => l.startsWith('─'))
  return lines.slice(rule + 1, lines.indexOf('', rule))
}

describe('the overhead table in a terminal', () => {
  it('lines up figures, percentages, intervals and verdicts whatever notes a cell carries', () => {
    const c = comparison()
    // a cell with two notes, one with one, the others none (the bug: the cells were right-aligned
    // as a whole, so a second note pushed its figures one mark to the left of the others)
    const cells = leadingRows(c).map((r) => r.cells[0]!)
    const [two, one] = cells
    two!.flags = [
      { kind: 'noisy', message: 'first note' },
      { kind: 'contaminated', message: 'second note' }
    ]
    one!.flags = [{ kind: 'noisy', message: 'first note' }]
    for (const cell of cells.slice(2)) cell.flags = []
    const table = comparisonTable(c)
    const body = bodyOf(table)
    expect(body[0]).toMatch(/can't tell \[1\]\[2\]$/)
    expect(body[1]).toMatch(/can't tell \[1\]$/)
    expect(body[2]).toMatch(/can't tell$/)
    // every row's percentage ends in one column, and so does its interval, and its verdict starts in one
    const columnOf = (re: RegExp): number[] => body.map((l) => { const m = re.exec(l); return m ? m.index + m[0].length : -1 })
    expect(new Set(columnOf(/\d+ %/))).toHaveProperty('size', 1)
    expect(new Set(columnOf(/\[\d+–\d+\]/))).toHaveProperty('size', 1)
    expect(new Set(body.map((l) => l.indexOf("can't tell")))).toHaveProperty('size', 1)
    expect(table).toContain('[1] first note\n[2] second note\n')
  })

  it('shows the run as it was measured: each figure with its unit, relative % and interval', () => {
    const body = bodyOf(comparisonTable(comparison()))
    expect(body[0]).toMatch(/^4 KiB random read · fio\.read\.iops\s+21\.2k op\/s\s+21\.8k op\/s 103 % \[93–113\] can't tell$/)
    expect(body.find((l) => l.startsWith('ping · ping.rtt.avg') || l.startsWith('ping ping · ping.rtt.avg'))).toMatch(/19\.0 µs\s+19\.0 µs 100 % \[89–110\] can't tell/)
  })
})
