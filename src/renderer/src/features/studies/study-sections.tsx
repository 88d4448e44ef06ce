import type { ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import { BonnieStudyTables } from './bonnie-study'
import { DiskActivityStudy } from './disk-activity-study'
import { JobFiles } from './job-files'
import { NetworkStudyTables } from './network-study'
import { IozoneStudyMaps } from './iozone-heatmap'
import { StudyMultiples } from './study-multiples'
import { Study001Tables } from './study001-tables'
import { Study002Bars } from './study002-bars'

/**
 * The studies' own tables in the results, beside the overhead table: study 003's multiples, study
 * 000's iozone maps and bonnie++ table, study 004's guest and host disk activity, study 001's network grid and path
 * table, study 001's CPU/memory overhead and fio tables, study 002's throughput and latency bars, and the fio job files as run. Each
 * shows only when the run has what it needs.
 */
export function StudySections({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement {
  return (
    <>
      <StudyMultiples run={run} comparison={comparison} />
      <IozoneStudyMaps comparison={comparison} />
      <BonnieStudyTables run={run} comparison={comparison} />
      <Study001Tables run={run} comparison={comparison} />
      <Study002Bars run={run} comparison={comparison} />
      <DiskActivityStudy run={run} />
      <NetworkStudyTables run={run} />
      <JobFiles run={run} />
    </>
  )
}
