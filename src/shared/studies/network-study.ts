import { capEvidenceText, readCap, sendsAtSetRate } from '../compare/bandwidth-cap'
import { bitRateText, pctText } from '../compare/message-text'
import { relativePct } from '../compare/relative'
import { aggregateOf } from '../compare/stats'
import { formatValue } from '../format'
import { networkMachines } from '../model/plan'
import type { RunDocument } from '../model/run'
import type { Unit } from '../model/sample'
import { SCENARIO_LABELS, type NetworkPath } from '../model/scenario'
import type { TargetRole } from '../model/target'
import { networkMatrices, type MetricKey, type NetworkMatrix } from '../network-tables'

/**
 * Study 001's two network tables, from a run's matrix jobs (src/shared/network-tables.ts):
 *
 * - the Source x Destination grid by kind of machine (physical, VM), one per network path, whose
 *   diagonal is a machine to a second machine of its kind, each cell with its % of the physical
 *   to physical figure;
 * - the path table, one row per path (physical to physical, VM to VM over the private path, VM
 *   EIP to VM EIP) with its %, when the plan measured named paths (network.paths).
 *
 * A cell pools the repetitions of every pair of machines of its kinds and takes the test's
 * aggregate of them. The % is relative to the physical-to-physical figure of the first path that
 * measured one (never the EIP path); where there is none, the cells say why instead of a %.
 * Bandwidths held just below a round limit are named by the bandwidth-cap check's one rule
 * (readCap): every figure of the cell, each pair and repetition, steady just below the limit; a
 * lone figure there is never named, only noted as unable to tell.
 */

export const MACHINE_WORDS: Record<TargetRole, string> = { host: 'Physical', guest: 'VM' }
const KINDS: readonly TargetRole[] = ['host', 'guest']

export interface StudyCell {
  from: TargetRole
  to: TargetRole
  /** The network path the cell was measured over, when the plan named paths. */
  path?: NetworkPath
  /** How a table names the cell: "Physical → VM", "VM EIP → VM EIP". */
  label: string
  /** The pairs of machines whose repetitions the cell pools ("host → peer"), in the matrix's order. */
  pairs: string[]
  /** Every pair's repetitions (base units). */
  values: number[]
  /** The test's aggregate of `values`; absent when nothing was measured. */
  value?: number
  /** `value` as a % of the physical-to-physical figure (100 % as good; more is better). */
  pct?: number
  /** Why the cell has no figure, or no %. */
  note?: string
  /** The round limit (bit/s) that holds every figure of the cell (readCap), when one does: a cap to lift. */
  capBits?: number
  /** The round limit (bit/s) the cell's only figure sits just below: one repetition cannot tell a cap from a coincidence. */
  singleNearCapBits?: number
}

export interface StudyGrid {
  path?: NetworkPath
  /** "private/VPC", or "" when the plan named no paths. */
  pathLabel: string
  /** Physical → physical, physical → VM, VM → physical, VM → VM. */
  cells: StudyCell[]
}

/** The metric of the matrix the study groups (not its path: a study holds every path's grid). */
export interface NetworkStudy extends Pick<MetricKey, 'testId' | 'testTitle' | 'metric' | 'direction' | 'unit' | 'better' | 'aggregate'> {
  /** The physical-to-physical figure every % is of, and the path it was measured over. */
  reference?: { value: number; path?: NetworkPath }
  /** Why there is no %: the reference was not measured. */
  noReference?: string
  grids: StudyGrid[]
  /** One row per path (study 001's VPC table); empty when the plan named no paths. */
  paths: StudyCell[]
  /** One sentence per cell held just below a round limit. */
  caps: string[]
  /** One sentence per cell whose only figure sits just below a round limit, saying that it cannot tell. */
  unconfirmedCaps: string[]
}

/**
 * The study tables of a run's network matrix, one per test, metric and direction; only those that
 * say more than the matrix does: with the physical-to-physical reference (the % it gives), the
 * paths the plan named, or a cap found. A matrix of one physical host and its guests over one path
 * would give the matrix's own figures again under "no %".
 */
export function networkStudies(run: RunDocument): NetworkStudy[] {
  return allNetworkStudies(run).filter((s) => s.reference !== undefined || s.paths.length > 0 || s.caps.length > 0)
}

function allNetworkStudies(run: RunDocument): NetworkStudy[] {
  const roleOf = rolesByLabel(run)
  const groups = new Map<string, NetworkMatrix[]>()
  for (const m of networkMatrices(run)) {
    const id = [m.testId, m.metric, m.direction ?? '', m.measuredBy ?? ''].join('\u0000')
    groups.set(id, [...(groups.get(id) ?? []), m])
  }
  return [...groups.values()].map((matrices) => studyOf(run, matrices, roleOf))
}

function studyOf(run: RunDocument, matrices: NetworkMatrix[], roleOf: (label: string) => TargetRole): NetworkStudy {
  const first = matrices[0] as NetworkMatrix
  const planned = plannedPairs(run, first.testId, roleOf)
  const test = run.tests.find((t) => t.id === first.testId)
  const readsCaps = test === undefined || !sendsAtSetRate(test)
  const grids: StudyGrid[] = matrices.map((m) => ({
    ...(m.path ? { path: m.path } : {}),
    pathLabel: m.path ? SCENARIO_LABELS.network[m.path] : '',
    cells: KINDS.flatMap((from) => KINDS.map((to) => cellOf(m, from, to, roleOf, planned, readsCaps)))
  }))
  const referenceCell = grids.filter((g) => g.path !== 'eip').map((g) => g.cells[0] as StudyCell).find((c) => c.value !== undefined)
  const reference = referenceCell?.value !== undefined ? { value: referenceCell.value, ...(referenceCell.path ? { path: referenceCell.path } : {}) } : undefined
  const why = grids.find((g) => g.path !== 'eip')?.cells[0]?.note ?? 'not measured: the EIP path is measured between guests only'
  const noReference = reference ? undefined : `no %: physical → physical has no figure (${why})`
  const withPct = (cell: StudyCell): StudyCell => {
    if (cell.value === undefined) return cell
    if (!reference) return { ...cell, note: noReference! }
    const pct = cell === referenceCell ? 100 : relativePct(cell.value, reference.value, first.better)
    return pct === undefined ? cell : { ...cell, pct }
  }
  for (const grid of grids) grid.cells = grid.cells.map(withPct)
  const named = grids.some((g) => g.path !== undefined)
  const paths = named
    ? grids.flatMap((g) => (g.path === 'eip' ? [g.cells[3] as StudyCell] : [g.cells[0] as StudyCell, g.cells[3] as StudyCell]))
    : []
  const capped = named ? paths : grids.flatMap((g) => g.cells)
  const caps = capped.flatMap((c) => (c.capBits !== undefined && c.value !== undefined ? [capSentence(c, first.unit)] : []))
  const unconfirmedCaps = capped.flatMap((c) => (c.singleNearCapBits !== undefined && c.value !== undefined ? [singleFigureSentence(c, first.unit)] : []))
  return {
    testId: first.testId,
    testTitle: test?.title ?? first.testTitle,
    metric: first.metric,
    ...(first.direction !== undefined ? { direction: first.direction } : {}),
    unit: first.unit,
    better: first.better,
    aggregate: first.aggregate,
    ...(reference ? { reference } : { noReference: noReference! }),
    grids,
    paths,
    caps,
    unconfirmedCaps
  }
}

/** How tables name a cell: "Physical → VM", with the path: "VM → VM (private/VPC)", "VM EIP → VM EIP". */
export function cellLabel(from: TargetRole, to: TargetRole, path: NetworkPath | undefined): string {
  const toWord = to === 'host' ? 'physical' : MACHINE_WORDS[to]
  if (path === 'eip') return `${MACHINE_WORDS[from]} EIP → ${toWord} EIP`
  const words = `${MACHINE_WORDS[from]} → ${toWord}`
  return path ? `${words} (${SCENARIO_LABELS.network[path]})` : words
}

function cellOf(
  m: NetworkMatrix,
  from: TargetRole,
  to: TargetRole,
  roleOf: (label: string) => TargetRole,
  planned: Map<string, number>,
  readsCaps: boolean
): StudyCell {
  const cells = m.cells.filter((c) => roleOf(c.from) === from && roleOf(c.to) === to)
  const values = cells.flatMap((c) => c.values)
  const value = aggregateOf(values, m.aggregate, m.better)
  const base = { from, to, ...(m.path ? { path: m.path } : {}), label: cellLabel(from, to, m.path), pairs: cells.map((c) => `${c.from} → ${c.to}`), values }
  if (value === undefined) return { ...base, note: missingNote(from, to, m.path, planned.get(plannedId(m.path, from, to)) ?? 0) }
  // the matrix's figures are a network tool's (iperf3, iperf); a UDP sender's own pace is no limit
  const cap = readsCaps ? readCap(values, m.unit, 'network') : undefined
  if (cap?.kind === 'held') return { ...base, value, capBits: cap.capBits }
  return { ...base, value, ...(cap?.kind === 'single' ? { singleNearCapBits: cap.capBits } : {}) }
}

/** Why a cell has no figure: nothing was planned between such machines (and what would measure it), or its jobs all failed. */
function missingNote(from: TargetRole, to: TargetRole, path: NetworkPath | undefined, plannedJobs: number): string {
  if (plannedJobs > 0) return `not measured: none of its ${plannedJobs} matrix job${plannedJobs === 1 ? '' : 's'} succeeded (see the jobs' errors)`
  if (path === 'eip' && (from === 'host' || to === 'host')) return 'not measured: the EIP path is measured between guests only'
  if (from === to) {
    return from === 'host'
      ? 'not measured: it needs a second physical machine (name one as network.peer)'
      : 'not measured: it needs a second guest (another variant, or a peer with peerRole "guest")'
  }
  return `not measured: the plan has no ${from === 'host' ? 'guest' : 'physical machine'} to pair with`
}

/** How many matrix jobs (any outcome) were planned between machines of each kind, per path. */
function plannedPairs(run: RunDocument, testId: string, roleOf: (label: string) => TargetRole): Map<string, number> {
  const labelOf = new Map(run.targets.map((t) => [t.name.toLowerCase(), t.label]))
  const counts = new Map<string, number>()
  for (const job of run.jobs) {
    if (job.kind !== 'matrix' || job.testId !== testId || job.peer === undefined) continue
    const id = plannedId(job.network, roleOf(job.side), roleOf(labelOf.get(job.peer.toLowerCase()) ?? job.peer))
    counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  return counts
}

function plannedId(path: NetworkPath | undefined, from: TargetRole, to: TargetRole): string {
  return `${path ?? ''}:${from}:${to}`
}

/** A machine's kind by the label tables use: the plan's roles (docs/comparison.md, "Network study tables"). */
function rolesByLabel(run: RunDocument): (label: string) => TargetRole {
  const roles = new Map(networkMachines(run.plan).map((m) => [m.target.toLowerCase(), m.role]))
  const byLabel = new Map<string, TargetRole>()
  for (const t of run.targets) byLabel.set(t.label, roles.get(t.name.toLowerCase()) ?? (t.role === 'variant' ? 'guest' : 'host'))
  return (label) => byLabel.get(label) ?? roles.get(label.toLowerCase()) ?? 'host'
}

function bitsOf(value: number, unit: Unit): number {
  return unit === 'B/s' ? value * 8 : value
}

/** "VM EIP → VM EIP: 28.7 Mbit/s, just below 30 Mbit/s: ...", in the words of the bandwidth-cap flag. */
function capSentence(cell: StudyCell, unit: Unit): string {
  const evidence = capEvidenceText({ kind: 'held', capBits: cell.capBits!, values: cell.values }, unit, 'figures')
  return (
    `${cell.label}: ${bitRateText(bitsOf(cell.value!, unit))}, just below ${bitRateText(cell.capBits!)}: the path is probably rate-limited rather than ` +
    `saturated (${evidence}, as steady as a limit holds them; study 001's EIPs were limited to 30 Mbit/s by default). Lift the limit ` +
    "(set the guest's or the EIP's bandwidth to unlimited on the cloud platform), then measure again."
  )
}

/** "VM → VM: 29.9 Mbit/s sits just under 30 Mbit/s, but ...": a lone figure near a limit, not named. */
function singleFigureSentence(cell: StudyCell, unit: Unit): string {
  return (
    `${cell.label}: ${bitRateText(bitsOf(cell.value!, unit))} sits just under ${bitRateText(cell.singleNearCapBits!)}, but it is a single ` +
    'figure, and one repetition cannot tell a rate limit from a coincidence: no cap is named. Run 2 or more repetitions to tell.'
  )
}

/** A cell as the study prints it: "8.35 Gbit/s (99.7 %)", the figure alone without a reference, "not measured" without a figure. */
export function studyCellText(cell: StudyCell, unit: Unit): string {
  if (cell.value === undefined) return 'not measured'
  const value = formatValue(cell.value, unit)
  return cell.pct !== undefined ? `${value} (${pctText(cell.pct)})` : value
}

/** The notes under a study's tables: the cells without a figure and why, the missing reference, the caps found, the lone figures near one. */
export function studyNotes(study: NetworkStudy): string[] {
  const cells = study.paths.length > 0 ? [...study.grids.flatMap((g) => g.cells), ...study.paths] : study.grids.flatMap((g) => g.cells)
  // the cells of one reason together: "Physical EIP → physical EIP, VM EIP → physical EIP: not measured: ..."
  const byNote = new Map<string, string[]>()
  for (const c of cells) {
    if (c.value !== undefined || c.note === undefined) continue
    const labels = byNote.get(c.note) ?? []
    if (!labels.includes(c.label)) labels.push(c.label)
    byNote.set(c.note, labels)
  }
  const missing = [...byNote].map(([note, labels]) => `${labels.join(', ')}: ${note}`)
  return [...(study.noReference ? [study.noReference] : []), ...missing, ...study.caps, ...study.unconfirmedCaps]
}

/** A study's title line: "iperf3 · iperf3.bandwidth (target->peer), median of the repetitions". */
export function studyTitle(study: NetworkStudy): string {
  return `${study.testTitle} · ${study.metric}${study.direction ? ` (${study.direction})` : ''}`
}
