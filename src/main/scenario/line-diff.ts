/**
 * A readable line diff of two texts, as people review a domain change: only the changed lines
 * with `context` lines around them, `-` for removed, `+` for added, hunks headed by their line
 * numbers in the old text. Pure. Longest-common-subsequence over lines: domain XMLs have a few
 * hundred lines at most.
 */

type Op = { kind: ' ' | '-' | '+'; line: string; oldLine: number }

function operations(a: string[], b: string[]): Op[] {
  const n = a.length
  const m = b.length
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!)
    }
  }
  const ops: Op[] = []
  let i = 0
  let j = 0
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]!, oldLine: i + 1 })
      i++
      j++
    } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
      // removals before additions, as people read a change
      ops.push({ kind: '-', line: a[i]!, oldLine: i + 1 })
      i++
    } else {
      ops.push({ kind: '+', line: b[j]!, oldLine: i + 1 })
      j++
    }
  }
  return ops
}

/** The diff of `before` and `after`; empty when they are equal. */
export function lineDiff(before: string, after: string, context = 1): string {
  if (before === after) return ''
  const ops = operations(before.split('\n'), after.split('\n'))
  const keep = ops.map(() => false)
  ops.forEach((op, k) => {
    if (op.kind === ' ') return
    for (let c = Math.max(0, k - context); c <= Math.min(ops.length - 1, k + context); c++) keep[c] = true
  })
  const out: string[] = []
  let previous = -2
  ops.forEach((op, k) => {
    if (!keep[k]) return
    if (k !== previous + 1) out.push(`@@ line ${op.oldLine} @@`)
    out.push(`${op.kind} ${op.line}`)
    previous = k
  })
  return out.join('\n')
}
