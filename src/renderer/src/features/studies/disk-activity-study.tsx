import { useMemo, useState, type ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'
import { ATOP_HEADER, atopCells, blockTitle, ratioSentence, studyDiskActivity, type DiskActivityBlock } from '../../../../shared/studies/disk-activity'
import { ChartCard, ChartSelect, useChartPrint } from '../charts/chart-parts'
import './studies.css'

const HOW_TO_READ =
  'What the block layer did while each guest job ran, as atop shows it (study 004): the guest’s own volumes (LVM) and disks (DSK), then its physical host’s, ' +
  'each over its monitor’s window. Busy is the share of time with a request in flight; avio the busy time per request. The ratio divides the requests the guest sent ' +
  'by those the host’s disk received in the job’s main direction: above 1 they were merged or cached on the way down, below 1 split.'

/**
 * Study 004's atop table: per guest job, its LVM and disk lines and its physical host's, with the
 * logical-to-physical ratio (or why there is none). In the app one test at a time; in print (the
 * PDF) every test given.
 */
export function DiskActivityStudy({ run, testIds }: { run: RunDocument; /** Only these tests (a report's category). */ testIds?: ReadonlySet<string> }): ReactElement | null {
  const all = useMemo(() => studyDiskActivity(run), [run])
  const blocks = testIds ? all.filter((b) => testIds.has(b.testId)) : all
  const print = useChartPrint()
  const tests = [...new Map(blocks.map((b) => [b.testId, b.testTitle])).entries()]
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  if (blocks.length === 0) return null
  const testId = tests.find(([id]) => id === chosen)?.[0] ?? tests[0]![0]
  const shown = print ? blocks : blocks.filter((b) => b.testId === testId)
  return (
    <ChartCard
      wide
      title="Guest and host disk activity (atop, study 004)"
      shown={print ? `${tests.length} test${tests.length === 1 ? '' : 's'}, ${blocks.length} guest job${blocks.length === 1 ? '' : 's'}` : tests.find(([id]) => id === testId)![1]}
      howToRead={HOW_TO_READ}
      controls={
        tests.length > 1 ? <ChartSelect label="Test" value={testId} onChange={setChosen} options={tests.map(([value, label]) => ({ value, label }))} /> : undefined
      }
    >
      <div className="charts-scroll" role="region" aria-label="Guest and host disk activity" tabIndex={0}>
        <table className="charts-table studies-atop">
          <caption>Per guest job: the guest’s block devices, then its physical host’s, and the logical-to-physical ratio</caption>
          <thead>
            <tr>
              <th scope="col">seen by</th>
              {ATOP_HEADER.map((h, i) => (
                <th key={i} scope="col">
                  {i === 0 ? 'layer' : h}
                </th>
              ))}
            </tr>
          </thead>
          {shown.map((block) => (
            <AtopBlock key={block.jobId} block={block} />
          ))}
        </table>
      </div>
    </ChartCard>
  )
}

function AtopBlock({ block }: { block: DiskActivityBlock }): ReactElement {
  const columns = ATOP_HEADER.length + 1
  return (
    <tbody className="studies-atop-job" data-job={block.jobId}>
      <tr className="studies-atop-title">
        <th scope="rowgroup" colSpan={columns}>
          {blockTitle(block)}
        </th>
      </tr>
      {block.lines.map((line) => (
        <tr key={`${line.view}-${line.device}`} data-view={line.view}>
          <th scope="row">{line.view}</th>
          {atopCells(line).map((text, i) => (
            <td key={i}>{text}</td>
          ))}
        </tr>
      ))}
      <tr className={block.ratio ? 'studies-atop-ratio' : 'studies-atop-no-ratio'}>
        <td colSpan={columns}>{block.ratio ? <strong>{ratioSentence(block.ratio)}</strong> : block.noRatio}</td>
      </tr>
    </tbody>
  )
}
