import { useMemo, useState, type ReactElement } from 'react'
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts'
import type { RunDocument } from '../../../../shared/model/run'
import type { Unit } from '../../../../shared/model/sample'
import { formatValue } from '../../../../shared/format'
import { linearAxis } from './axis-ticks'
import { AXIS_PROPS, ChartCard, ChartFigure, ChartSelect, figureCell, GRID_PROPS, LEGEND_PROPS, patternFill, SeriesPatterns, TOOLTIP_PROPS, useChartPrint, useSvgId, type DataTableProps } from './chart-parts'
import { defaultMeasure, defaultMonitorJob, MONITOR_MEASURES, monitorJobs, monitorSources, monitorView, type MonitorMeasure, type MonitorView } from './monitor'
import { colourOf, dashOf, markerOf, MARK_STROKE } from './palette'

export const MONITOR_HEIGHT = 260

/**
 * The legend's line in print. recharts makes room under the time axis for the legend it has
 * measured on screen; the report page is not laid out on screen (its legend measures 0 px, and
 * drew over the axis's seconds), so in print the room is set and the legend placed in it.
 */
const PRINT_LEGEND_ROOM = 24

/** Series colours for the monitor's sources: not the baseline's grey, the variants' hues. */
const sourceColour = (index: number): number => index + 1

/**
 * What the block layer saw during a storage job: the measured machine's own disks and, for a guest,
 * its physical host's disks (guest-visible vs host-visible I/O); per second when recorded.
 */
export function MonitorSeriesChart({ run, job, measure: initialMeasure }: { run: RunDocument; /** The job shown first (its id). */ job?: string; measure?: MonitorMeasure }): ReactElement | null {
  const jobs = useMemo(() => monitorJobs(run), [run])
  const [jobKey, setJobKey] = useState<string | undefined>(job)
  const [measureKey, setMeasureKey] = useState<MonitorMeasure | undefined>(initialMeasure)
  const prefix = useSvgId()
  const print = useChartPrint()
  const choice = jobs.find((j) => j.key === jobKey) ?? jobs.find((j) => j.key === defaultMonitorJob(run, jobs))
  if (!choice) return null
  const sources = monitorSources(run, choice.job)
  const measure = MONITOR_MEASURES.find((m) => m.key === measureKey) ?? MONITOR_MEASURES.find((m) => m.key === defaultMeasure(sources))!
  const view = monitorView(sources, measure.key)
  const name = `${measure.label} during ${choice.label}`
  const peak =
    view.mode === 'series'
      ? Math.max(0, ...view.rows.flatMap((r) => view.sources.map((s) => Number(r[s.key] ?? 0))))
      : Math.max(0, ...view.bars.map((b) => b.value))
  const axis = linearAxis(measure.unit, peak)
  const time = timeAxis(view)
  return (
    <ChartCard
      title="Host monitor: guest-visible and host-visible I/O"
      shown={name}
      howToRead="What the block layer of the measured machine, and of its physical host when the run could reach it, did while the job ran (/proc/diskstats, every second). A guest whose host moves far more, or far less, than the guest asked for shows a cache or a layer in between."
      controls={
        <>
          <ChartSelect label="Job" value={choice.key} onChange={setJobKey} options={jobs.map((j) => ({ value: j.key, label: j.label }))} />
          <ChartSelect label="Measure" value={measure.key} onChange={(v) => setMeasureKey(v as MonitorMeasure)} options={MONITOR_MEASURES.map((m) => ({ value: m.key, label: m.label }))} />
        </>
      }
    >
      <SeriesPatterns prefix={prefix} count={sources.length + 1} />
      <ChartFigure name={name} height={MONITOR_HEIGHT} summary={monitorSummary(view, measure)} table={monitorTable(view, measure, name)}>
        {view.mode === 'series' ? (
          <LineChart data={view.rows} accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: print ? 4 + PRINT_LEGEND_ROOM : 4, left: 8 }}>
            <CartesianGrid {...GRID_PROPS} />
            <XAxis type="number" dataKey="at" domain={time.domain} ticks={time.ticks} interval={0} tickFormatter={time.format} {...AXIS_PROPS} />
            <YAxis domain={[0, axis.top]} ticks={axis.ticks} interval={0} tickFormatter={axis.format} width={88} {...AXIS_PROPS} />
            <Tooltip {...TOOLTIP_PROPS} cursor={{ stroke: 'var(--border)' }} labelFormatter={(v) => `${String(v)} s`} formatter={(value) => formatValue(Number(value), measure.unit)} />
            <Legend {...LEGEND_PROPS} {...(print ? { wrapperStyle: { ...LEGEND_PROPS.wrapperStyle, bottom: 4 } } : {})} />
            {view.sources.map((s) => (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.name}
                stroke={colourOf(sourceColour(s.index))}
                strokeWidth={2}
                strokeDasharray={dashOf(sourceColour(s.index))}
                dot={view.rows.filter((r) => r[s.key] !== undefined).length === 1 ? { r: 3 } : false}
                legendType={markerOf(sourceColour(s.index))}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        ) : (
          <BarChart data={view.bars} accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 4, left: 8 }}>
            <CartesianGrid vertical={false} {...GRID_PROPS} />
            <XAxis dataKey="name" interval={0} {...AXIS_PROPS} />
            <YAxis domain={[0, axis.top]} ticks={axis.ticks} interval={0} tickFormatter={axis.format} width={88} {...AXIS_PROPS} />
            <Tooltip {...TOOLTIP_PROPS} formatter={(value) => formatValue(Number(value), measure.unit)} />
            <Bar dataKey="value" name={measure.label} stroke={MARK_STROKE} isAnimationActive={false} maxBarSize={72}>
              {view.bars.map((_, i) => (
                <Cell key={i} fill={patternFill(prefix, sourceColour(i))} />
              ))}
            </Bar>
          </BarChart>
        )}
      </ChartFigure>
      {view.mode === 'summary' ? (
        <p className="charts-note">
          {view.why === 'one-interval' ? 'The job was monitored for a single interval, too short for a line' : 'The per-second series was not recorded for this job'}: each bar is the
          average over the job&apos;s monitored time.
        </p>
      ) : null}
    </ChartCard>
  )
}

/**
 * The series' time axis: from the first sample (0 s) to the last, with ticks on round seconds
 * (linearAxis's: 0, 10 s, 20 s, 30 s rather than recharts' own cut of the samples' times, such as
 * 1.0075 s). It ends at the last sample rather than at the next tick, so the lines reach its end.
 */
function timeAxis(view: MonitorView): { domain: [number, number]; ticks: number[]; format: (value: number) => string } {
  const last = view.mode === 'series' ? Math.max(0, ...view.rows.map((r) => r.at ?? 0)) : 0
  const axis = linearAxis('s', last)
  const end = last > 0 ? last : axis.top
  return { domain: [0, end], ticks: axis.ticks.filter((t) => t <= end * (1 + 1e-9)), format: axis.format }
}

export function monitorSummary(view: MonitorView, measure: { label: string; unit: Unit }): string {
  if (view.mode === 'summary') {
    return `${measure.label}, average over the job: ${view.bars.map((b) => `${b.name} ${formatValue(b.value, measure.unit)} over ${b.seconds} s`).join('; ')}.`
  }
  const parts = view.sources.map((s) => {
    const values = view.rows.flatMap((r) => (r[s.key] !== undefined ? [r[s.key]!] : []))
    const peak = Math.max(...values)
    return `${s.name}: ${values.length} ${values.length === 1 ? 'second' : 'seconds'}, peak ${formatValue(peak, measure.unit)}`
  })
  return `${measure.label} second by second. ${parts.join('; ')}.`
}

function monitorTable(view: MonitorView, measure: { label: string; unit: Unit }, name: string): DataTableProps {
  if (view.mode === 'summary') {
    return {
      caption: `${name}: average over the job`,
      corner: 'Disk',
      columns: [measure.label, 'Monitored time'],
      rows: view.bars.map((b) => ({ header: b.name, cells: [figureCell(b.value, measure.unit), { text: formatValue(b.seconds, 's') }] }))
    }
  }
  return {
    caption: `${name}, second by second`,
    corner: 'Second',
    columns: view.sources.map((s) => s.name),
    rows: view.rows.map((r) => ({
      header: `${r.at} s`,
      cells: view.sources.map((s) => (r[s.key] !== undefined ? figureCell(r[s.key]!, measure.unit) : { text: '—', title: 'no sample at this second' }))
    }))
  }
}
