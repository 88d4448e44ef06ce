import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { metricDefFinder, MetricDefSchema } from '../../../../src/shared/model/metric-def'
import { METRIC_CATEGORIES, UNITS } from '../../../../src/shared/model/sample'
import { renderMetricsDoc } from '../../../../src/main/tools/metrics-doc'
import { PACKS, packTests } from '../../../../src/main/tools/packs'
import { findTool, testCategories, TOOLS } from '../../../../src/main/tools/registry'
import { TOOL_IDS, type AnyBenchmarkTool } from '../../../../src/main/tools/types'
import { readFixture } from './fixture-kit'

/**
 * A tool is its folder: everything the rest of VirtBench needs to know about it is declared there
 * (docs/adding-a-tool.md). These checks fail when a tool leaves something out, so a new tool
 * cannot fail silently (a metric without a category, a test without a primary figure).
 */

const ALL = Object.values(TOOLS).map((t) => [t.id, t] as const)
const FIXTURES = path.resolve(__dirname, '../../../fixtures/tools')

/** Every parameter set the packs give a tool, plus its defaults. */
function paramSets(tool: AnyBenchmarkTool): unknown[] {
  const fromPacks = Object.values(PACKS).flatMap((pack) =>
    (['full', 'quick'] as const).flatMap((form) => packTests(pack, form).filter((t) => t.tool === tool.id).map((t) => tool.params.parse(t.params)))
  )
  return [tool.defaults, ...fromPacks]
}

/** The captured outputs of a tool that parse (fixtures named NAME.stdout). */
function parsedFixtures(tool: AnyBenchmarkTool): { name: string; samples: { metric: string; unit: string; better: string }[] }[] {
  const dir = path.join(FIXTURES, tool.id)
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => f.endsWith('.stdout'))
    .flatMap((f) => {
      const name = f.slice(0, -'.stdout'.length)
      const result = tool.parse(readFixture(tool.id, name))
      return result.ok ? [{ name, samples: result.samples }] : []
    })
}

describe('the tool registry', () => {
  it('holds every tool under its own id, and finds the names people type', () => {
    expect(Object.keys(TOOLS).sort()).toEqual([...TOOL_IDS].sort())
    for (const [id, tool] of Object.entries(TOOLS)) expect(tool.id).toBe(id)
    expect(findTool('bonnie++')?.id).toBe('bonnie')
    expect(findTool('iperf2')?.id).toBe('iperf')
    expect(findTool('nope')).toBeUndefined()
  })

  it.each(ALL)('%s: defaults, metrics and install recipes are complete', (_id, tool) => {
    expect(tool.params.parse({})).toEqual(tool.defaults)
    expect(Number.isFinite(tool.estimateSeconds(tool.defaults))).toBe(true)
    const names = tool.metrics.map((m) => m.name)
    expect(new Set(names).size).toBe(names.length)
    for (const metric of tool.metrics) {
      expect(metric.name.startsWith(`${tool.id}.`), metric.name).toBe(true)
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
    // a recipe that only brings build tools has the source recipe it points to
    if (tool.install.some((r) => r.kind === 'package' && r.buildsFromSource)) expect(tool.install.some((r) => r.kind === 'source' && r.commands.length > 0)).toBe(true)
  })

  it.each(ALL)('%s: every metric says what it is (category, source, comparison, roles), and the tool its categories', (_id, tool) => {
    for (const metric of tool.metrics) {
      const checked = MetricDefSchema.safeParse(metric)
      expect(checked.success, `${metric.name}: ${checked.success ? '' : checked.error.message}`).toBe(true)
      // a latency is in seconds and lower is better; a surface has two size labels to lay out
      if (metric.roles?.includes('latency')) expect([metric.unit, metric.better], metric.name).toEqual(['s', 'lower'])
      if (metric.roles?.includes('surface')) expect(metric.labels?.length, metric.name).toBe(2)
      if (metric.roles?.includes('network-table')) expect(metric.category, metric.name).toBe('network')
    }
    expect([...tool.categories].sort()).toEqual([...new Set(tool.metrics.map((m) => m.category))].sort())
    for (const category of tool.categories) expect(METRIC_CATEGORIES).toContain(category)
  })

  it.each(ALL)('%s: every test it can run has primary figures that are its own metrics', (_id, tool) => {
    const find = metricDefFinder(tool.metrics)
    for (const params of paramSets(tool)) {
      const primary = tool.primaryMetrics(params)
      expect(primary.length, JSON.stringify(params)).toBeGreaterThan(0)
      for (const name of primary) expect(find(name), `${tool.id}: primary ${name} is not one of its metrics`).toBeDefined()
      expect(testCategories(tool, params).length).toBeGreaterThan(0)
    }
  })

  it.each(ALL)('%s: every metric its parser gives from a real output has a definition with the same unit and direction', (_id, tool) => {
    const find = metricDefFinder(tool.metrics)
    const fixtures = parsedFixtures(tool)
    expect(fixtures.length, `${tool.id} has no captured output in tests/fixtures/tools/${tool.id}/`).toBeGreaterThan(0)
    for (const { name, samples } of fixtures) {
      for (const sample of samples) {
        const def = find(sample.metric)
        expect(def, `${tool.id} fixture ${name}: ${sample.metric} has no definition`).toBeDefined()
        expect([sample.unit, sample.better], `${name}: ${sample.metric}`).toEqual([def!.unit, def!.better])
      }
    }
  })

  it.each(ALL)('%s: declares how its version is read, in words the scripts can pass on', (_id, tool) => {
    const probe = tool.version
    const plain = /^[A-Za-z0-9_.+/-]+$/
    switch (probe.kind) {
      case 'command':
        expect(probe.command).toMatch(plain)
        for (const arg of probe.args) expect(arg).toMatch(/^[A-Za-z0-9_.=+-]+$/)
        break
      case 'package':
        expect(probe.command).toMatch(plain)
        expect(probe.package).toMatch(plain)
        break
      case 'folder':
        expect(probe.file).toMatch(plain)
        expect(probe.folders.length).toBeGreaterThan(0)
        for (const folder of probe.folders) expect(folder).toMatch(/^(~|\/)[^:\s]*$/)
        break
    }
    // the probe travels as one line of fields separated by \x1f (resources/scripts/linux/tool-version.sh)
    expect(JSON.stringify(probe)).not.toMatch(/\\[nrt]|\\u001f/)
  })

  it.each(ALL)('%s: a network tool says what its peer runs; a raw-device tool points its own parameters at a device', (_id, tool) => {
    if (tool.network) {
      expect(['server', 'none']).toContain(tool.network.peerRuns)
      if (tool.network.peerRuns === 'server') {
        expect(tool.network.nthClient?.(tool.defaults as Record<string, unknown>, 0)).toEqual(tool.defaults)
        expect(tool.network.bindServer?.(tool.defaults as Record<string, unknown>, '10.0.0.5')).toBeDefined()
      }
      expect(tool.categories).toEqual(['network'])
      expect(tool.storageNeed(tool.defaults)).toBeUndefined()
    }
    if (tool.rawDevice) {
      const params = tool.rawDevice.withDevice(tool.defaults as Record<string, unknown>, '/dev/vdb', true)
      expect(tool.params.safeParse(params).success, tool.id).toBe(true)
      expect(tool.storageNeed(tool.params.parse(params))).toBeDefined()
    }
    if (tool.categories.includes('storage') && tool.primaryMetrics(tool.defaults).length > 0 && testCategories(tool, tool.defaults).includes('storage')) {
      expect(tool.storageNeed(tool.defaults), `${tool.id} writes to the work directory: preflight needs its storage need`).toBeDefined()
    }
  })

  it('docs/metrics.md is current (npm run docs:metrics rewrites it)', () => {
    const file = path.resolve(__dirname, '../../../../docs/metrics.md')
    expect(readFileSync(file, 'utf8')).toBe(renderMetricsDoc(Object.values(TOOLS)))
  })

  it('docs/adding-a-tool.md names every declaration a tool makes', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../../../docs/adding-a-tool.md'), 'utf8')
    for (const field of ['params', 'defaults', 'plan', 'parse', 'estimateSeconds', 'metrics', 'primaryMetrics', 'storageNeed', 'rawDevice', 'network', 'version', 'install', 'windows', 'categories']) {
      expect(doc, field).toContain(`\`${field}\``)
    }
  })
})
