import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PACK_IDS } from '../../../../src/shared/model/tool-ids'
import { PresetSchema } from '../../../../src/shared/model/plan'
import { expandTests } from '../../../../src/main/engine/planner'
import { listExamplePresets, readPresetFile } from '../../../../src/main/presets/presets'
import { PACKS } from '../../../../src/main/tools/packs'
import { TOOLS } from '../../../../src/main/tools/registry'

const resources = path.resolve(__dirname, '../../../../resources')
const exampleFile = (pack: string): string => path.join(resources, 'presets', `${pack}.json`)

describe('the example presets', () => {
  it('are one per study pack, listed by file name', async () => {
    const examples = await listExamplePresets(resources)
    expect(examples.map((e) => e.id)).toEqual([...PACK_IDS].sort())
    for (const example of examples) expect(example.file).toBe(exampleFile(example.id))
  })

  for (const pack of PACK_IDS) {
    describe(pack, () => {
      const text = readFileSync(exampleFile(pack), 'utf8')
      const json = JSON.parse(text) as Record<string, unknown>

      it('is valid for PresetSchema and for readPresetFile', async () => {
        expect(PresetSchema.safeParse(json).error?.issues ?? []).toEqual([])
        const preset = await readPresetFile(exampleFile(pack))
        expect(preset.plan.tests).toEqual([{ pack, form: 'full' }])
        expect(preset.description?.length).toBeGreaterThan(100)
      })

      it('carries no $schema key (the model is strict; editors are pointed at the schema instead)', () => {
        expect(json).not.toHaveProperty('$schema')
      })

      it("expands into the pack's tests with parameters each tool accepts", async () => {
        const preset = await readPresetFile(exampleFile(pack))
        const tests = expandTests(preset.plan)
        expect(tests.map((t) => t.id)).toEqual(PACKS[pack].tests.map((t) => t.id))
        for (const test of tests) {
          const checked = TOOLS[test.tool].params.safeParse(test.params)
          expect(checked.error?.issues ?? [], `${pack}/${test.id}`).toEqual([])
          expect(test.repetitions).toBeGreaterThanOrEqual(1)
        }
      })

      it('names each target once, and distinct labels', async () => {
        const { plan } = await readPresetFile(exampleFile(pack))
        const names = [plan.baseline.target, ...plan.variants.map((v) => v.target), ...(plan.network.peer ? [plan.network.peer] : [])]
        expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length)
        expect(plan.variants.every((v) => v.label !== undefined)).toBe(true)
      })

      it('is plain JSON text: a final newline, no tabs, no carriage returns', () => {
        expect(text.endsWith('}\n')).toBe(true)
        expect(text).not.toMatch(/\t|\r/)
      })
    })
  }

  it("cloud-acceptance has study 001's matrix: cache none/writeback x queues 1/4, KVM, classic network", async () => {
    const { plan } = await readPresetFile(exampleFile('cloud-acceptance'))
    expect(plan.baseline.target).toBe('phys-01')
    expect(plan.variants.map((v) => [v.target, v.scenario.cache, v.scenario.queues])).toEqual([
      ['vm-linux-none-q1', 'none', 1],
      ['vm-linux-none-q4', 'none', 4],
      ['vm-linux-wb-q1', 'writeback', 1],
      ['vm-linux-wb-q4', 'writeback', 4]
    ])
    expect(plan.variants.every((v) => v.scenario.hypervisor === 'kvm' && v.scenario.network === 'classic' && v.scenario.domain === v.target)).toBe(true)
    expect(plan.network.matrix).toBe(true)
    const iperf3 = expandTests(plan).find((t) => t.tool === 'iperf3')
    expect(iperf3).toMatchObject({ repetitions: 3, aggregate: 'best', params: { seconds: 30 } })
  })

  it("block-dd writes study 002's dd commands onto the confirmed /dev/vdb of each guest", async () => {
    const { plan } = await readPresetFile(exampleFile('block-dd'))
    expect(plan.storage).toEqual({ kind: 'device', path: '/dev/vdb', confirm: '/dev/vdb' })
    expect(plan.variants.map((v) => v.label)).toEqual(['Xen PV', 'Xen HVM', 'KVM IDE', 'KVM virtio'])
    expect(plan.variants.map((v) => [v.scenario.hypervisor, v.scenario.bus])).toEqual([
      ['xen-pv', undefined],
      ['xen-hvm', undefined],
      ['kvm', 'ide'],
      ['kvm', 'virtio-blk']
    ])
    const tests = expandTests(plan)
    expect(tests.map((t) => t.params)).toEqual([
      { mode: 'write', blockSize: '1G', count: '1', direct: true, device: '/dev/vdb', deviceWriteConfirmed: true },
      { mode: 'write', blockSize: '512', count: '1000', direct: true, device: '/dev/vdb', deviceWriteConfirmed: true }
    ])
    const argvs = tests.map((t) => TOOLS.dd.plan(TOOLS.dd.params.parse(t.params), { target: { os: 'linux', workDir: '/srv/virtbench' } }).steps.map((s) => s.argv))
    const commands = JSON.stringify(argvs)
    expect(commands).toContain('of=/dev/vdb')
    expect(commands).toContain('bs=1G')
    expect(commands).toContain('bs=512')
    expect(commands).toContain('oflag=direct')
  })

  it('kvm-storage talks to the third machine itb4 and runs the contention test', async () => {
    const { plan } = await readPresetFile(exampleFile('kvm-storage'))
    expect(plan.network).toEqual({ peer: 'itb4', matrix: false, simultaneous: true })
    expect(plan.variants.map((v) => v.scenario.storage)).toEqual(['file-raw', 'lvm'])
  })
})
