import { useMemo, useState, type ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import { formatPct, formatValue } from '../../../../shared/format'
import { VERDICT_WORDS } from '../../../../shared/compare/summary'
import {
  absoluteEmptyReason,
  absoluteSurfaces,
  relativeEmptyReason,
  sizeText,
  subtestWords,
  surfaceMaps,
  type AbsoluteCell,
  type AbsoluteSurface,
  type AbsoluteSurfaceSet,
  type SurfaceCell,
  type SurfaceMap
} from '../../../../shared/studies/surface-maps'
import { SUMMARY_HEADER, summaryCells } from '../../../../shared/studies/surface-text'
import { ChartCard, ChartSelect, useChartPrint } from '../charts/chart-parts'
import { heatColours, heatStep, relativeColour } from '../charts/palette'
import './studies.css'

/**
 * Study 000's iozone surfaces: for each test, every sub-test (write, rewrite, read … freread) as
 * heat maps of file size (rows) x record size (columns): each machine's own figures (as iozone's
 * surface charts show them) on one colour scale from zero, then each variant's relative % against
 * the baseline, coloured only where the verdict is slower or faster. A summary table (as
 * `virtbench run` prints it) heads each test. In the app one sub-test at a time; in print (the
 * PDF) every sub-test in a card of its own, so a page break never cuts a map.
 */
export function IozoneStudyMaps({ comparison }: { comparison: Comparison }): ReactElement | null {
  const maps = useMemo(() => surfaceMaps(comparison), [comparison])
  const sets = useMemo(() => absoluteSurfaces(comparison), [comparison])
  const print = useChartPrint()
  if (sets.length === 0) return null
  return (
    <div className="studies-iozone">
      {testsOf(sets, maps).map((test) =>
        print ? <PrintedTest key={test.testId} {...test} /> : <InteractiveTest key={test.testId} {...test} />
      )}
    </div>
  )
}

/**
 * The summary lines of every surface (one table per test and variant, a line per sub-test), without
 * the maps: the PDF's first page, where an iozone run has no other primary figure to sum up.
 */
export function IozoneSummaries({ comparison }: { comparison: Comparison }): ReactElement | null {
  const maps = useMemo(() => surfaceMaps(comparison), [comparison])
  if (maps.length === 0) return null
  return (
    <>
      {blocksOf(maps).map((block) => (
        <SummaryTable key={block.key} maps={block.maps} />
      ))}
    </>
  )
}

/** One test's sub-tests: their machines' grids and their relative maps, one block of maps per variant. */
interface TestMaps {
  testId: string
  sets: AbsoluteSurfaceSet[]
  blocks: SurfaceMap[][]
}

function testsOf(sets: readonly AbsoluteSurfaceSet[], maps: readonly SurfaceMap[]): TestMaps[] {
  const ids = [...new Set(sets.map((s) => s.testId))]
  return ids.map((testId) => ({
    testId,
    sets: sets.filter((s) => s.testId === testId),
    blocks: blocksOf(maps.filter((m) => m.testId === testId)).map((b) => b.maps)
  }))
}

/** The maps of one test and variant together (13 sub-tests). */
function blocksOf(maps: readonly SurfaceMap[]): { key: string; maps: SurfaceMap[] }[] {
  const blocks = new Map<string, SurfaceMap[]>()
  for (const map of maps) {
    const key = `${map.testId}\u0000${map.variant}`
    blocks.set(key, [...(blocks.get(key) ?? []), map])
  }
  return [...blocks.entries()].map(([key, list]) => ({ key, maps: list }))
}

const HOW_TO_READ =
  'Per sub-test, each machine\'s throughput by file size (rows) and record size (columns), darker is faster on one scale from zero for all machines; ' +
  'then the relative % of each cell: 100 % is as fast as the baseline, more is faster, blue cells faster and orange ones slower by their verdict, grey ones the same or the data cannot tell. ' +
  '"—" marks a cell no run produced. Small files are mostly served from the page cache.'

function machinesText(set: AbsoluteSurfaceSet): string {
  return set.machines.map((m) => m.side).join(', ')
}

function InteractiveTest({ sets, blocks }: TestMaps): ReactElement {
  const [subtest, setSubtest] = useState(sets[0]!.subtest)
  const set = sets.find((s) => s.subtest === subtest) ?? sets[0]!
  return (
    <ChartCard
      wide
      title={`iozone, every sub-test: ${set.testTitle}`}
      shown={`${subtestWords(set.subtest)} on ${machinesText(set)}`}
      howToRead={HOW_TO_READ}
      controls={<ChartSelect label="Sub-test" value={set.subtest} onChange={setSubtest} options={sets.map((s) => ({ value: s.subtest, label: subtestWords(s.subtest) }))} />}
    >
      {blocks.map((maps) => (
        <SummaryTable key={maps[0]!.variant} maps={maps} />
      ))}
      <SubtestMaps sets={[set]} blocks={blocks} />
    </ChartCard>
  )
}

/**
 * On paper: the summaries, then the sub-tests two by two, each pair in a card of its own: their
 * machines' grids across the page, their relative maps side by side below (a relative % is narrow).
 */
function PrintedTest({ sets, blocks }: TestMaps): ReactElement {
  const first = sets[0]!
  const pairs = sets.flatMap((set, i) => (i % 2 === 0 ? [sets.slice(i, i + 2)] : []))
  return (
    <>
      <ChartCard wide title={`iozone, every sub-test: ${first.testTitle}`} shown={`${sets.length} sub-tests on ${machinesText(first)}`} howToRead={HOW_TO_READ}>
        {blocks.map((maps) => (
          <SummaryTable key={maps[0]!.variant} maps={maps} />
        ))}
      </ChartCard>
      {pairs.map((pair) => (
        <ChartCard key={pair[0]!.subtest} wide title={`iozone ${pair.map((s) => subtestWords(s.subtest)).join(' and ')}: ${machinesText(first)}`} howToRead={`${first.testTitle}. Throughput per machine, then relative %; "—" no figure.`}>
          <SubtestMaps sets={pair} blocks={blocks} />
        </ChartCard>
      ))}
    </>
  )
}

/** Sub-tests as small multiples: each one's grid per machine, then each one's relative map per variant. */
function SubtestMaps({ sets, blocks }: { sets: AbsoluteSurfaceSet[]; blocks: SurfaceMap[][] }): ReactElement {
  const relative = sets.flatMap((set) => blocks.flatMap((maps) => maps.filter((m) => m.metric === set.metric)))
  return (
    <div className="studies-iozone-multiples">
      {sets.flatMap((set) => set.machines.map((machine) => <AbsoluteHeatTable key={`${set.subtest}-${machine.side}`} set={set} machine={machine} />))}
      {relative.map((map) => (
        <RelativeHeatTable key={`${map.subtest}-${map.variant}`} map={map} />
      ))}
      <p className="charts-note studies-iozone-scale">{scaleText(sets)}</p>
    </div>
  )
}

/** "Throughput colours, one scale per sub-test for host, guest: 0 (lightest) to the highest figure (darkest), write 5.28 GiB/s, rewrite 23.9 GiB/s." */
function scaleText(sets: readonly AbsoluteSurfaceSet[]): string {
  const tops = sets.flatMap((set) => (set.scaleMax !== undefined ? [`${subtestWords(set.subtest)} ${formatValue(set.scaleMax, set.unit)}`] : []))
  if (tops.length === 0) return `No machine has a figure for ${sets.map((s) => subtestWords(s.subtest)).join(' or ')}.`
  return `Throughput colours, one scale per sub-test for ${machinesText(sets[0]!)}: 0 (lightest) to the highest figure (darkest), ${tops.join(', ')}.`
}

function absoluteTitle(set: AbsoluteSurfaceSet, side: string, cell: AbsoluteCell): string {
  return `${subtestWords(set.subtest)} on ${side}: ${formatValue(cell.value, set.unit)}, ${cell.n} repetition${cell.n === 1 ? '' : 's'}`
}

/** One machine's grid of one sub-test: every cell's figure with its unit, the colour repeating it on the sub-test's shared scale. */
export function AbsoluteHeatTable({ set, machine }: { set: AbsoluteSurfaceSet; machine: AbsoluteSurface }): ReactElement {
  const name = `iozone ${subtestWords(set.subtest)} on ${machine.side}`
  const print = useChartPrint()
  return (
    <div className="charts-scroll studies-iozone-absolute" role="region" aria-label={`${name}, file size by record size`} tabIndex={0}>
      <table className="charts-heat studies-iozone-heat">
        <caption>{`${subtestWords(set.subtest)} on ${machine.side}${machine.role === 'baseline' ? ' (baseline)' : ''}: throughput by file size (rows) and record size (columns)`}</caption>
        <GridHead recordSizes={set.recordSizes} {...(print ? { corner: `${subtestWords(set.subtest)} on ${machine.side}: file ↓ record →` } : {})} />
        <tbody>
          {set.fileSizes.map((file, row) => (
            <tr key={file}>
              <th scope="row">{sizeText(file)}</th>
              {set.recordSizes.map((record, col) => {
                const cell = machine.cells[row]?.[col]
                if (!cell) return <EmptyCell key={record} reason={absoluteEmptyReason(file, record, machine.side)} />
                const colours = heatColours(heatStep(cell.value, 0, set.scaleMax ?? cell.value))
                return (
                  <td key={record} style={{ background: colours.background, color: colours.text }} title={absoluteTitle(set, machine.side, cell)}>
                    {formatValue(cell.value, set.unit)}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** `corner`: what the map is, in place of its caption on paper (there the caption is for screen readers only). */
function GridHead({ recordSizes, corner }: { recordSizes: readonly number[]; corner?: string }): ReactElement {
  return (
    <thead>
      <tr>
        <th scope="col" className="charts-heat-axis">
          {corner ?? (
            <>
              <span className="studies-iozone-nowrap">file ↓</span> <span className="studies-iozone-nowrap">record →</span>
            </>
          )}
        </th>
        {recordSizes.map((r) => (
          <th key={r} scope="col">
            {sizeText(r)}
          </th>
        ))}
      </tr>
    </thead>
  )
}

function EmptyCell({ reason }: { reason: string }): ReactElement {
  return (
    <td className="charts-heat-empty" title={reason}>
      —<span className="visually-hidden"> ({reason})</span>
    </td>
  )
}

/** Every sub-test in one line: the cells compared, the median and middle half of their relative %, the lowest and highest, the verdicts. */
function SummaryTable({ maps }: { maps: SurfaceMap[] }): ReactElement {
  return (
    <div className="charts-scroll" role="region" aria-label={`iozone sub-tests of ${maps[0]!.testTitle}: ${maps[0]!.variant} against ${maps[0]!.baseline}`} tabIndex={0}>
      <table className="charts-table studies-iozone-summary">
        <caption>{`Relative % of ${maps[0]!.variant} over each sub-test's file size x record size grid`}</caption>
        <thead>
          <tr>
            {SUMMARY_HEADER.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {maps.map((m) => {
            const [name, ...rest] = summaryCells(m)
            return (
              <tr key={m.subtest}>
                <th scope="row">{name}</th>
                {rest.map((text, i) => (
                  <td key={i}>{text}</td>
                ))}
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

function cellTitle(map: SurfaceMap, cell: SurfaceCell): string {
  const interval = cell.ci95 ? `, 95 % interval ${cell.ci95[0].toFixed(0)}–${formatPct(cell.ci95[1])}` : ''
  return `${map.variant} ${formatValue(cell.value, map.unit)} against ${map.baseline} ${formatValue(cell.baseline, map.unit)}${interval}: ${VERDICT_WORDS[cell.verdict]}`
}

/** One sub-test's grid of relative %; every cell's figure written in it, the colour repeating its verdict. */
export function RelativeHeatTable({ map }: { map: SurfaceMap }): ReactElement {
  const name = `iozone ${subtestWords(map.subtest)}, ${map.variant} against ${map.baseline}`
  return (
    <div className="charts-scroll studies-iozone-relative" role="region" aria-label={`${name}, file size by record size`} tabIndex={0}>
      <table className="charts-heat studies-iozone-heat">
        <caption>
          {`${subtestWords(map.subtest)}: ${map.variant} against ${map.baseline}, relative %`}
          <span className="studies-iozone-caption-more"> by file size (rows) and record size (columns)</span>
        </caption>
        <GridHead recordSizes={map.recordSizes} />
        <tbody>
          {map.fileSizes.map((file, row) => (
            <tr key={file}>
              <th scope="row">{sizeText(file)}</th>
              {map.recordSizes.map((record, col) => {
                const cell = map.cells[row]?.[col]
                if (!cell) return <EmptyCell key={record} reason={relativeEmptyReason(file, record)} />
                const colour = relativeColour(cell.relativePct, cell.verdict)
                return (
                  <td key={record} style={colour ? { background: colour.background, color: colour.colour } : undefined} title={cellTitle(map, cell)}>
                    {formatPct(cell.relativePct)}
                    <span className="visually-hidden"> ({VERDICT_WORDS[cell.verdict]})</span>
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
