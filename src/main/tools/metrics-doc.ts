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
        `| \`${m.name}\` | ${m.unit} | ${m.better} | ${(m.labels ?? []).map((l) => `\`${l}\``).join(', ') || '–'} | ${cell(m.description)} |`
    )
    return [
      `## ${tool.name} (\`${tool.id}\`)`,
      '',
      `${tool.description} Category: ${tool.categories.join(', ')}.`,
      '',
      '| metric | unit | better | labels | description |',
      '|---|---|---|---|---|',
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
