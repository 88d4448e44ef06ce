import { describe, expect, it } from 'vitest'
import { fioPrimaryMetrics, fioStorageNeed } from '../../../../../src/main/tools/fio/describe'
import { fioParamsSchema, type FioParams } from '../../../../../src/main/tools/fio/params'
import { estimateSeconds, plan } from '../../../../../src/main/tools/fio/plan'
import type { TargetFacts } from '../../../../../src/main/tools/types'

const linux: TargetFacts = { os: 'linux', workDir: "/var/tmp/vb-run 'a'" }
const STUDY_003 = '[virt]\nioengine=libaio\niodepth=4\nrw=randrw\nbs=64k\ndirect=1\nsize=1g\nnumjobs=4\n'
const own = (jobFile: string, extra: Record<string, unknown> = {}): FioParams => fioParamsSchema.parse({ jobFile, ...extra })

describe("fio with the admin's own job file", () => {
  it('uploads the text verbatim into the work directory and runs fio there on it, quoted', () => {
    const p = plan(own(STUDY_003), { target: linux })
    const step = p.steps[0]!
    expect(step.files).toEqual([{ path: "/var/tmp/vb-run 'a'/virtbench-own.fio", content: STUDY_003 }])
    expect(step.argv).toEqual(['fio', '--output-format=json', "/var/tmp/vb-run 'a'/virtbench-own.fio"])
    expect(step.script).toBe("cd -- '/var/tmp/vb-run '\\''a'\\''' && fio --output-format=json '/var/tmp/vb-run '\\''a'\\''/virtbench-own.fio'")
    expect(step.sudo).toBeUndefined()
    expect(p.files).toEqual([{ on: 'target', path: "/var/tmp/vb-run 'a'/virtbench-own.fio" }])
  })

  it('on Windows, enters the work directory in PowerShell and passes on fio.exe\'s exit code', () => {
    const step = plan(own('[a]\nsize=16m\nioengine=windowsaio\n'), { target: { os: 'windows', workDir: "C:\\vb's work" } }).steps[0]!
    expect(step.shell).toBe('powershell')
    expect(step.script).toBe(
      "Set-Location -LiteralPath 'C:\\vb''s work'\n& 'fio.exe' '--output-format=json' 'C:\\vb''s work\\virtbench-own.fio'\nif ($null -eq $LASTEXITCODE) { exit 127 }\nexit $LASTEXITCODE"
    )
  })

  it("sizes preflight's free-space check and the primary figure from the job file", () => {
    expect(fioStorageNeed(own(STUDY_003))).toEqual({ workingSetBytes: 4 * 2 ** 30, directIo: true, uncached: false })
    expect(fioPrimaryMetrics(own(STUDY_003))).toEqual(['fio.<dir>.bandwidth'])
    expect(fioPrimaryMetrics(own('[a]\nsize=16m\nbs=4k\n'))).toEqual(['fio.<dir>.iops'])
  })

  it('estimates side-by-side jobs once and stonewalled ones one after another', () => {
    // 4 GiB laid out at 200 MiB/s (20.48 s), moved at 100 MiB/s (40.96 s), 2 s start-up
    expect(estimateSeconds(own(STUDY_003))).toBe(Math.ceil(2 + 20.48 + 40.96))
    const timed = '[global]\nsize=16m\nruntime=10\ntime_based\n[a]\n[b]\n[c]\nstonewall\n'
    expect(estimateSeconds(own(timed))).toBe(Math.ceil(2 + (3 * 16) / 200 + 20))
  })

  it('runs on the confirmed raw device as root, and lists only files it creates for cleanup', () => {
    const p = plan(own('[a]\nrw=randread\nruntime=5\ntime_based\nfilename=/dev/vdb\n', { device: '/dev/vdb' }), { target: linux })
    expect(p.steps[0]!.sudo).toBe(true)
    expect(p.files.map((f) => f.path)).toEqual(["/var/tmp/vb-run 'a'/virtbench-own.fio"])
    const files = plan(own('[a]\nsize=16m\nfilename=one.dat:sub/two.dat\n'), { target: linux }).files.map((f) => f.path)
    expect(files).toEqual(["/var/tmp/vb-run 'a'/virtbench-own.fio", "/var/tmp/vb-run 'a'/one.dat", "/var/tmp/vb-run 'a'/sub/two.dat"])
  })

  it('refuses in the params what the job file may not do, and engines the target lacks when planning', () => {
    const checked = fioParamsSchema.safeParse({ jobFile: '[a]\nsize=1g\nexec_prerun=id\n' })
    expect(checked.success).toBe(false)
    expect(checked.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['jobFile', 'job file line 3, [a], exec_prerun: exec_prerun runs a command on the target before the job; VirtBench runs only fio: remove it and prepare the target yourself']
    ])
    expect(() => plan(own('[a]\nsize=1g\nioengine=windowsaio\n'), { target: linux })).toThrow(
      "job file [a] ioengine: fio's windowsaio engine exists only on Windows; use libaio, io_uring, posixaio or psync on Linux"
    )
    expect(() => plan(own('[a]\nsize=1g\nioengine=libaio\n'), { target: { os: 'windows', workDir: 'C:\\vb' } })).toThrow("fio's libaio engine does not exist on Windows")
  })
})
