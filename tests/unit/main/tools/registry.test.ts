import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { UNITS } from '../../../../src/shared/model/sample'
import { renderMetricsDoc } from '../../../../src/main/tools/metrics-doc'
import { findTool, TOOLS } from '../../../../src/main/tools/registry'
import { TOOL_IDS } from '../../../../src/main/tools/types'

describe('the tool registry', () => {
  it('holds every tool under its own id, and finds the names people type', () => {
    expect(Object.keys(TOOLS).sort()).toEqual([...TOOL_IDS].sort())
    for (const [id, tool] of Object.entries(TOOLS)) expect(tool.id).toBe(id)
    expect(findTool('bonnie++')?.id).toBe('bonnie')
    expect(findTool('iperf2')?.id).toBe('iperf')
    expect(findTool('nope')).toBeUndefined()
  })

  it.each(Object.values(TOOLS).map((t) => [t.id, t] as const))('%s: defaults, metrics and install recipes are complete', (_id, tool) => {
    expect(tool.params.parse({})).toEqual(tool.defaults)
    expect(Number.isFinite(tool.estimateSeconds(tool.defaults))).toBe(true)
    const names = tool.metrics.map((m) => m.name)
    expect(new Set(names).size).toBe(names.length)
    for (const metric of tool.metrics) {
      expect(metric.name.startsWith(`${tool.id === 'bonnie' ? 'bonnie' : tool.id}.`), metric.name).toBe(true)
      expect(UNITS).toContain(metric.unit)
      expect(metric.description.length, metric.name).toBeGreaterThan(20)
    }
    const managers = tool.install.flatMap((r) => (r.kind === 'package' ? [r.manager] : []))
    for (const manager of ['apt', 'dnf', 'yum', 'zypper', 'apk']) {
      const covered = managers.includes(manager as never) || tool.install.some((r) => r.kind === 'source')
      expect(covered, `${tool.id}: ${manager}`).toBe(true)
    }
    // ping.exe ships with Windows; the other Windows-capable tools say where to get them.
    if (tool.windows && tool.id !== 'ping') expect(tool.install.some((r) => r.kind === 'download' && r.os === 'windows')).toBe(true)
  })

  it('docs/metrics.md is current (npm run docs:metrics rewrites it)', () => {
    const file = path.resolve(__dirname, '../../../../docs/metrics.md')
    expect(readFileSync(file, 'utf8')).toBe(renderMetricsDoc(Object.values(TOOLS)))
  })
})
