/** The charts (stub: charts helper replaces this file). */
export { ChartsSection, ComparisonCharts } from './charts-section'
