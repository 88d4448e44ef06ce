import { bonnieTool } from './bonnie'
import { ddTool } from './dd'
import { fioTool } from './fio'
import { iozoneTool } from './iozone'
import { iperfTool } from './iperf'
import { iperf3Tool } from './iperf3'
import { mbwTool } from './mbw'
import { pingTool } from './ping'
import { stressNgTool } from './stress-ng'
import { sysbenchTool } from './sysbench'
import { metricDefFinder } from '../../shared/model/metric-def'
import type { MetricCategory } from '../../shared/model/sample'
import type { AnyBenchmarkTool, ToolId } from './types'
import { TOOL_IDS } from './types'
import { unixbenchTool } from './unixbench'

/** Every tool, by id, in the order people meet them (storage, network, CPU, memory). */
export const TOOLS: Readonly<Record<ToolId, AnyBenchmarkTool>> = {
  fio: fioTool,
  dd: ddTool,
  bonnie: bonnieTool,
  iozone: iozoneTool,
  iperf3: iperf3Tool,
  iperf: iperfTool,
  ping: pingTool,
  unixbench: unixbenchTool,
  sysbench: sysbenchTool,
  'stress-ng': stressNgTool,
  mbw: mbwTool
}

/** Names people type for a tool, besides its id. */
const ALIASES: Record<string, ToolId> = { 'bonnie++': 'bonnie', iperf2: 'iperf', 'byte-unixbench': 'unixbench' }

export function isToolId(value: string): value is ToolId {
  return (TOOL_IDS as readonly string[]).includes(value)
}

/** The tool for an id or alias, or undefined. */
export function findTool(idOrAlias: string): AnyBenchmarkTool | undefined {
  const id = isToolId(idOrAlias) ? idOrAlias : ALIASES[idOrAlias.toLowerCase()]
  return id ? TOOLS[id] : undefined
}

/**
 * What a test with these parameters measures: the categories of its primary metrics, or of all
 * the tool's metrics when it has none (iozone's surface). sysbench's cpu test is cpu, its fileio
 * test storage.
 */
export function testCategories(tool: AnyBenchmarkTool, params: unknown): MetricCategory[] {
  const find = metricDefFinder(tool.metrics)
  const primaries = tool.primaryMetrics(params).map((name) => find(name))
  const defs = primaries.length > 0 ? primaries : tool.metrics
  return [...new Set(defs.flatMap((d) => (d ? [d.category] : [])))]
}
