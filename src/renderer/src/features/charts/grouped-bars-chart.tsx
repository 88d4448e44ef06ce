import { useMemo, useState, type ReactElement } from 'react'
import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, Tooltip, XAxis, YAxis } from 'recharts'
import type { Comparison } from '../../../../shared/model/comparison'
import { formatValue } from '../../../../shared/format'
import { absent, AXIS_PROPS, ChartCard, ChartFigure, ChartSelect, figureCell, GRID_PROPS, LEGEND_PROPS, patternFill, SeriesPatterns, TOOLTIP_PROPS, useSvgId } from './chart-parts'
import { linearAxis } from './axis-ticks'
import { barRows, groupedBarsData, type GroupedBarsData } from './grouped-bars'
import { MARK_STROKE, TEXT_COLOUR } from './palette'
import { aggregateWords, metricChoices, pick } from './rows'

export const GROUPED_BARS_HEIGHT = 300

/** Bars per metric: the baseline's and each variant's figure side by side, one metric at a time. */
export function GroupedBarsChart({ comparison, metric }: { comparison: Comparison; /** The metric shown first (a MetricChoice key). */ metric?: string }): ReactElement | null {
  const choices = useMemo(() => metricChoices(comparison), [comparison])
  const [selected, setSelected] = useState<string | undefined>(metric)
  const choice = pick(choices, selected)
  const prefix = useSvgId()
  if (!choice) return null
  const data = groupedBarsData(comparison, choice)
  const rows = barRows(data)
  const axis = linearAxis(data.unit, Math.max(0, ...data.groups.flatMap((g) => g.points.map((p) => (p ? Math.max(p.value, p.max) : 0)))))
  const better = data.better === 'higher' ? 'Higher is better' : 'Lower is better'
  return (
    <ChartCard
      title="Baseline and variants side by side"
      shown={choice.label}
      howToRead={`Each bar is one target's figure (${aggregateWords(data.aggregate)}); the thin line spans its lowest to highest repetition. ${better}.`}
      controls={
        <ChartSelect
          label="Metric"
          value={choice.key}
          onChange={setSelected}
          groups={[
            { label: 'Primary metrics', options: choices.filter((c) => c.headline).map((c) => ({ value: c.key, label: c.label })) },
            { label: 'Other metrics', options: choices.filter((c) => !c.headline).map((c) => ({ value: c.key, label: c.label })) }
          ]}
        />
      }
    >
      <SeriesPatterns prefix={prefix} count={data.series.length} />
      <ChartFigure name={`${data.title}: baseline and variants`} height={GROUPED_BARS_HEIGHT} summary={barsSummary(data)} table={barsTable(data)}>
        <BarChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid vertical={false} {...GRID_PROPS} />
          <XAxis dataKey="group" {...AXIS_PROPS} />
          <YAxis domain={[0, axis.top]} ticks={axis.ticks} interval={0} tickFormatter={axis.format} width={88} {...AXIS_PROPS} />
          <Tooltip formatter={(value) => formatValue(Number(value), data.unit)} {...TOOLTIP_PROPS} />
          <Legend {...LEGEND_PROPS} />
          {data.series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={patternFill(prefix, s.index)} stroke={MARK_STROKE} isAnimationActive={false} maxBarSize={64}>
              <ErrorBar dataKey={`${s.key}range`} direction="y" stroke={TEXT_COLOUR} width={4} isAnimationActive={false} />
            </Bar>
          ))}
        </BarChart>
      </ChartFigure>
    </ChartCard>
  )
}

/** "host: 21.2k op/s, guest (cache=none): 21.8k op/s." per group; "not measured" where a target has none. */
export function barsSummary(data: Pick<GroupedBarsData, 'series' | 'groups' | 'unit'>): string {
  return data.groups
    .map((g) => {
      const parts = data.series.map((s) => {
        const p = g.points[s.index]
        return `${s.name}: ${p ? formatValue(p.value, data.unit) : 'not measured'}`
      })
      return `${data.groups.length > 1 ? `${g.label}: ` : ''}${parts.join(', ')}.`
    })
    .join(' ')
}

function barsTable(data: GroupedBarsData) {
  return {
    caption: `${data.title}, ${aggregateWords(data.aggregate)}`,
    corner: 'Labels',
    columns: data.series.map((s) => s.name),
    rows: data.groups.map((g) => ({
      header: g.label,
      cells: data.series.map((s) => {
        const p = g.points[s.index]
        return p ? figureCell(p.value, data.unit, p.values) : absent(`not measured: no successful repetition on ${s.name}`)
      })
    }))
  }
}
