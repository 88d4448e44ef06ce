import type { BenchmarkTool } from './types'

const INTRO = `# Metrics

<!-- Generated from each tool's metrics.ts by \`npm run docs:metrics\`; a unit test fails when this file is stale. -->

This is the contract between the tool parsers, run documents, presets, charts and exports.
\`virtbench parse --tool <id> <file>\` prints exactly these samples.

- **Values are in base units**: \`B/s\`, \`bit/s\`, \`s\`, \`op/s\`, \`B\`, \`%\`, \`count\`, or a tool's own
  score unit (\`lps\`, \`MWIPS\`, \`index\`). Formatting for people (MiB/s, Gbit/s, ms) happens only in the
  UI and the reports. Binary prefixes are 1024 (KiB, MiB), decimal ones 1000 (kB, MB, Gbit).
- **Better** says which way is good: \`higher\` (throughput, IOPS, scores) or \`lower\` (latency, loss).
  The comparison uses it: relative % is variant / baseline for higher-is-better metrics and
  baseline / variant for lower-is-better ones; overhead = 100 % - relative %.
- **Category** (storage, network, cpu, memory) groups a metric in the summaries; **compared as**
  says whether two sides are compared as a ratio (relative % = variant / baseline, or baseline /
  variant where lower is better) or, for counts and shares that can be zero on both sides, as a
  difference (variant - baseline). **Source** is \`tool\` when the tool printed the figure and
  \`derived\` when VirtBench computed it from what the tool printed; **roles** name the charts
  and tables that draw it (\`latency\`, \`network-table\`, \`surface\`).
- **Primary** figures are what a test exists to measure; they lead every table and summary. The
  tool decides them from the test's parameters (its \`primaryMetrics\`), so each tool's section
  says which they are.
- **Labels** tell samples of one metric apart. A sample without a \`job\` label is a total over the
  whole output; with several jobs, per-job samples carry \`labels.job\` as well.
- **Not measured is absent.** A field the tool left empty or marked as not measured (bonnie++'s
  \`+++++\`) produces no sample, never a zero.
`

/** docs/metrics.md, rendered from the tools' own metric tables. */
export function renderMetricsDoc(tools: readonly BenchmarkTool<unknown>[]): string {
  const sections = tools.map((tool) => {
    const rows = tool.metrics.map(
      (m) =>
        `| \`${m.name}\` | ${m.unit} | ${m.better} | ${m.category} | ${m.comparison} | ${m.source} | ${(m.roles ?? []).join(', ') || '–'} | ${(m.labels ?? []).map((l) => `\`${l}\``).join(', ') || '–'} | ${cell(m.description)} |`
    )
    const primary = tool.primaryMetrics(tool.defaults).map((p) => `\`${p}\``).join(', ')
    return [
      `## ${tool.name} (\`${tool.id}\`)`,
      '',
      `${tool.description} Category: ${tool.categories.join(', ')}.`,
      '',
      `Primary with the default parameters: ${primary || 'none'}. The tool decides from a test's parameters (\`primaryMetrics\` in \`src/main/tools/${tool.id}/\`).`,
      '',
      '| metric | unit | better | category | compared as | source | roles | labels | description |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
      ''
    ].join('\n')
  })
  const index = tools.map((t) => `- [${t.name}](#${anchor(`${t.name} (${t.id})`)})`).join('\n')
  return `${INTRO}\n${index}\n\n${sections.join('\n')}`
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
}

function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-')
}
