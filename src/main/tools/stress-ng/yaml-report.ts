import { numberOf, type StressorFigures } from './figures'

/**
 * stress-ng's YAML report (`--yaml FILE`), as the plan prints it on stdout: a `---` document with
 * `system-info:` and `metrics:`, one entry per stressor, ending with `...`:
 *
 *     metrics:
 *         - stressor: cpu
 *           bogo-ops: 1699
 *           bogo-ops-per-second-usr-sys-time: 908.220060
 *           bogo-ops-per-second-real-time: 847.525615
 *           wall-clock-time: 2.004659
 *           ...
 *
 * Only this much YAML is read (the tools' folders use no YAML library); every value is kept as printed.
 */

const DOC_START = /^---\s*$/
const DOC_END = /^\.\.\.\s*$/
const METRICS = /^metrics:\s*$/
const ENTRY = /^ {2,8}- stressor: ([A-Za-z0-9_-]+)\s*$/
const FIELD = /^ {4,10}([a-z0-9-]+): *(\S*)\s*$/
const TOP_LEVEL = /^\S/

/** Six decimals (`%f`): the true value is within half a unit of the last one. */
const YAML_ROUNDING = 0.0000005

export type YamlReport = { figures: StressorFigures[] } | { problem: string; at: number }

interface Entry {
  stressor: string
  fields: Map<string, string>
  text: string[]
}

/** The entries of the `metrics:` block, or where and why it is not one stress-ng wrote. */
function entriesOf(lines: readonly string[], start: number): Entry[] | { problem: string; line: string } {
  const entries: Entry[] = []
  for (const line of lines.slice(start + 1)) {
    if (TOP_LEVEL.test(line)) break
    if (line.trim() === '') continue
    const entry = ENTRY.exec(line)
    if (entry) {
      entries.push({ stressor: entry[1]!, fields: new Map(), text: [line] })
      continue
    }
    const field = FIELD.exec(line)
    const current = entries.at(-1)
    if (!field || !current) return { problem: 'the YAML report has a line in its metrics that stress-ng does not write', line }
    current.fields.set(field[1]!, field[2]!)
    current.text.push(line)
  }
  return entries
}

function figuresOf(entry: Entry): StressorFigures | string {
  const read = (key: string): number | null | undefined => {
    const text = entry.fields.get(key)
    return text === undefined ? undefined : numberOf(text)
  }
  const ops = read('bogo-ops')
  const opsPerSecond = read('bogo-ops-per-second-real-time')
  const opsPerCpuSecond = read('bogo-ops-per-second-usr-sys-time')
  const wallSeconds = read('wall-clock-time')
  const cpuUsage = read('cpu-usage-per-instance')
  const missing = Object.entries({ 'bogo-ops': ops, 'bogo-ops-per-second-real-time': opsPerSecond, 'bogo-ops-per-second-usr-sys-time': opsPerCpuSecond, 'wall-clock-time': wallSeconds })
    .filter(([, value]) => value === undefined || value === null)
    .map(([key]) => key)
  if (missing.length > 0 || cpuUsage === null || !Number.isSafeInteger(ops)) {
    return `the YAML entry of the ${entry.stressor} stressor lacks ${missing.join(', ') || 'a number stress-ng writes'} or holds something that is not a number`
  }
  return {
    stressor: entry.stressor,
    ops: ops!,
    opsPerSecond: opsPerSecond!,
    opsPerCpuSecond: opsPerCpuSecond!,
    wallSeconds: wallSeconds!,
    ...(cpuUsage !== undefined ? { cpuUsage } : {}),
    rounding: YAML_ROUNDING,
    text: entry.text.join('\n')
  }
}

/** The figures of stress-ng's YAML report in `text`; null when there is no report at all. */
export function readYamlReport(text: string): YamlReport | null {
  const lines = text.split(/\r\n|\r|\n/)
  const started = lines.findIndex((l) => DOC_START.test(l))
  const metrics = lines.findIndex((l) => METRICS.test(l))
  if (started < 0 && metrics < 0) return null
  const at = (line: string) => Math.max(0, text.indexOf(line))
  if (started >= 0 && !lines.slice(started + 1).some((l) => DOC_END.test(l))) {
    return { problem: 'the YAML report ends before its closing "...": is the output cut short?', at: Math.max(0, text.trimEnd().length - 80) }
  }
  if (metrics < 0) return { problem: 'the YAML report has no "metrics:" section (stress-ng writes it only with --metrics or --metrics-brief)', at: 0 }
  const entries = entriesOf(lines, metrics)
  if (!Array.isArray(entries)) return { problem: entries.problem, at: at(entries.line) }
  if (entries.length === 0) return { problem: 'the YAML report lists no stressor under "metrics:"', at: at(lines[metrics]!) }
  const figures: StressorFigures[] = []
  for (const entry of entries) {
    if (figures.some((f) => f.stressor === entry.stressor)) return { problem: `the YAML report lists the ${entry.stressor} stressor twice`, at: at(entry.text[0]!) }
    const read = figuresOf(entry)
    if (typeof read === 'string') return { problem: read, at: at(entry.text[0]!) }
    figures.push(read)
  }
  return { figures }
}
