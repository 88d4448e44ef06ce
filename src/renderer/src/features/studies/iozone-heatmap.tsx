import { useMemo, useState, type ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import { formatPct, formatValue } from '../../../../shared/format'
import { VERDICT_WORDS } from '../../../../shared/compare/summary'
import { sizeText, subtestWords, surfaceMaps, type SurfaceCell, type SurfaceMap } from '../../../../shared/studies/surface-maps'
import { SUMMARY_HEADER, summaryCells } from '../../../../shared/studies/surface-text'
import { ChartCard, ChartSelect, useChartPrint } from '../charts/chart-parts'
import { relativeColour } from '../charts/palette'
import './studies.css'

/**
 * Study 000's iozone surfaces, compared: for each test and variant, every sub-test in one summary
 * table (as `virtbench run` prints it) and as a heat map of file size (rows) x record size
 * (columns) whose cells are the variant's relative % against the baseline. Only a slower or faster
 * verdict is coloured. In the app one sub-test's map at a time; in print (the PDF) all of them.
 */
export function IozoneStudyMaps({ comparison }: { comparison: Comparison }): ReactElement | null {
  const maps = useMemo(() => surfaceMaps(comparison), [comparison])
  const print = useChartPrint()
  if (maps.length === 0) return null
  const blocks = blocksOf(maps)
  return (
    <div className="studies-iozone">
      {blocks.map((block) =>
        print ? <PrintedBlock key={block.key} maps={block.maps} /> : <InteractiveBlock key={block.key} maps={block.maps} />
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
  'Each cell is the relative % of one file size (rows) and record size (columns): 100 % is as fast as the baseline, more is faster. ' +
  'Blue cells are faster and orange ones slower by their verdict; grey ones are the same or the data cannot tell. Small files are mostly served from the page cache.'

function titleOf(map: SurfaceMap): string {
  return `${map.testTitle}: ${map.variant} against ${map.baseline}`
}

function InteractiveBlock({ maps }: { maps: SurfaceMap[] }): ReactElement {
  const [subtest, setSubtest] = useState(maps[0]!.subtest)
  const map = maps.find((m) => m.subtest === subtest) ?? maps[0]!
  return (
    <ChartCard
      wide
      title={`iozone, relative %: ${titleOf(map)}`}
      shown={subtestWords(map.subtest)}
      howToRead={HOW_TO_READ}
      controls={<ChartSelect label="Sub-test" value={map.subtest} onChange={setSubtest} options={maps.map((m) => ({ value: m.subtest, label: subtestWords(m.subtest) }))} />}
    >
      <SummaryTable maps={maps} />
      <RelativeHeatTable map={map} />
    </ChartCard>
  )
}

/** On paper: the summary, then each sub-test's map in a card of its own, so a page break never cuts one. */
function PrintedBlock({ maps }: { maps: SurfaceMap[] }): ReactElement {
  const first = maps[0]!
  return (
    <>
      <ChartCard wide title={`iozone, relative %: ${titleOf(first)}`} shown={`all ${maps.length} sub-tests`} howToRead={HOW_TO_READ}>
        <SummaryTable maps={maps} />
      </ChartCard>
      {maps.map((m) => (
        <ChartCard key={m.subtest} wide title={`iozone ${subtestWords(m.subtest)}: ${m.variant} against ${m.baseline}`} howToRead={`${m.testTitle}. Relative % per cell; coloured only where the verdict is slower or faster.`}>
          <RelativeHeatTable map={m} />
        </ChartCard>
      ))}
    </>
  )
}

/** Every sub-test in one line: the cells compared, the median and middle half of their relative %, the lowest and highest, the verdicts. */
function SummaryTable({ maps }: { maps: SurfaceMap[] }): ReactElement {
  return (
    <div className="charts-scroll" role="region" aria-label={`iozone sub-tests of ${titleOf(maps[0]!)}`} tabIndex={0}>
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

function emptyReason(fileSize: number, recordSize: number): string {
  return recordSize > fileSize ? 'not measured: the record is larger than the file' : 'not compared: measured on one side only, or skipped (files over 16 MiB without -z)'
}

/** One sub-test's grid of relative %; every cell's figure written in it, the colour repeating its verdict. */
export function RelativeHeatTable({ map }: { map: SurfaceMap }): ReactElement {
  const name = `iozone ${subtestWords(map.subtest)}, ${map.variant} against ${map.baseline}`
  return (
    <div className="charts-scroll" role="region" aria-label={`${name}, file size by record size`} tabIndex={0}>
      <table className="charts-heat studies-iozone-heat">
        <caption>{`${subtestWords(map.subtest)}: relative % by file size (rows) and record size (columns)`}</caption>
        <thead>
          <tr>
            <th scope="col" className="charts-heat-axis">
              file ↓ record →
            </th>
            {map.recordSizes.map((r) => (
              <th key={r} scope="col">
                {sizeText(r)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {map.fileSizes.map((file, row) => (
            <tr key={file}>
              <th scope="row">{sizeText(file)}</th>
              {map.recordSizes.map((record, col) => {
                const cell = map.cells[row]?.[col]
                if (!cell) {
                  const reason = emptyReason(file, record)
                  return (
                    <td key={record} className="charts-heat-empty" title={reason}>
                      —<span className="visually-hidden"> ({reason})</span>
                    </td>
                  )
                }
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
