import { execFileSync } from 'node:child_process'
import { promises as fs, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Ajv2020 from 'ajv/dist/2020'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { createApi, type Api } from '../../../src/main/api/handlers'
import { IDLE_SECONDS } from '../../../src/main/engine/before-jobs'
import { CHECKS_SECONDS, CLEANUP_SECONDS, CONNECT_SECONDS, PER_JOB_SECONDS } from '../../../src/main/engine/planner'
import { estimatePack } from '../../../src/main/tools/pack-estimate'
import { PACKS } from '../../../src/main/tools/packs'
import { TOOLS } from '../../../src/main/tools/registry'
import type { Catalog, PlanReview, PreflightReport } from '../../../src/shared/catalog-contract'
import { PACK_IDS, TOOL_IDS } from '../../../src/shared/model/tool-ids'
import type { HostKeyQuestion } from '../../../src/shared/targets-contract'
import { freePort } from '../../harness/free-port'
import { startSshd, type SshdServer } from '../../harness/sshd'

let dataDir: string
let api: Api

const newApi = (): Api => createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })

async function invoke<T>(channel: Parameters<typeof dispatch>[1], payload: unknown): Promise<T> {
  const result = await dispatch(api.handlers, channel, payload)
  if (!result.ok) throw new Error(`${String(channel)}: ${result.error.message}`)
  return result.value as T
}

describe('catalog:get', () => {
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-catalog-'))
    api = newApi()
  })
  afterEach(async () => {
    await fs.rm(dataDir, { recursive: true, force: true })
  })

  it('lists every pack with its tests, tools, categories and the time each form takes', async () => {
    const catalog = await invoke<Catalog>('catalog:get', undefined)
    expect(catalog.packs.map((p) => p.id)).toEqual([...PACK_IDS])
    const cloud = catalog.packs.find((p) => p.id === 'cloud-acceptance')!
    expect(cloud.tools).toEqual(['fio', 'unixbench', 'mbw', 'iperf3'])
    expect(cloud.categories).toEqual(['storage', 'cpu', 'memory', 'network'])
    expect(cloud.study).toBe(PACKS['cloud-acceptance'].study)
    expect(cloud.full.tests.map((t) => t.id)).toEqual(PACKS['cloud-acceptance'].tests.map((t) => t.id))
    expect(cloud.full.tests.find((t) => t.id === 'iperf3')).toMatchObject({ tool: 'iperf3', params: { seconds: 30 }, repetitions: 3, aggregate: 'best', seconds: TOOLS.iperf3.estimateSeconds(TOOLS.iperf3.params.parse({ seconds: 30 })) })
    expect(cloud.full.tests.find((t) => t.id === 'fio-4k-randread')?.params).toMatchObject({ rw: 'randread', bs: '4k', iodepth: 16, runtime: 60, direct: true })
    for (const pack of catalog.packs) {
      expect(pack.full.seconds).toBe(estimatePack(PACKS[pack.id], 'full').seconds)
      expect(pack.quick.seconds).toBe(estimatePack(PACKS[pack.id], 'quick').seconds)
      expect(pack.quick.seconds).toBeLessThan(pack.full.seconds)
    }
    const dd = catalog.packs.find((p) => p.id === 'block-dd')!
    // 1 GiB then 1000 x 512 B, each once per target: the dd tool's own estimates
    expect(dd.full.tests.map((t) => t.seconds)).toEqual(PACKS['block-dd'].tests.map((t) => TOOLS.dd.estimateSeconds(TOOLS.dd.params.parse(t.params))))
  })

  it('describes every tool with a JSON Schema of its parameters that its defaults satisfy, without raw-device fields', async () => {
    const catalog = await invoke<Catalog>('catalog:get', undefined)
    expect(catalog.tools.map((t) => t.id).sort()).toEqual([...TOOL_IDS].sort())
    expect(catalog.tools.filter((t) => t.network).map((t) => t.id).sort()).toEqual(['iperf', 'iperf3', 'ping'])
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    for (const tool of catalog.tools) {
      expect(tool.name).toBe(TOOLS[tool.id].name)
      expect(tool.category).toBe(TOOLS[tool.id].categories[0])
      const validate = ajv.compile(tool.paramsSchema)
      expect(validate(tool.defaults), `${tool.id}: ${JSON.stringify(validate.errors)}`).toBe(true)
      expect(Object.keys(tool.defaults)).not.toContain('device')
      expect(Object.keys(tool.defaults)).not.toContain('deviceWriteConfirmed')
      expect(Object.keys((tool.paramsSchema.properties ?? {}) as object)).not.toContain('device')
    }
    const fio = catalog.tools.find((t) => t.id === 'fio')!
    expect(fio.defaults).toMatchObject({ rw: 'randread', bs: '4k', iodepth: 16 })
    // the schema catches what the tool refuses: an iodepth of 0
    expect(ajv.compile(fio.paramsSchema)({ ...fio.defaults, iodepth: 0 })).toBe(false)
  })

  it('each tool\'s defaults make a custom test that the review accepts', async () => {
    const catalog = await invoke<Catalog>('catalog:get', undefined)
    await invoke('targets:add', { target: { kind: 'local', name: 'here', role: 'host' } })
    await invoke('targets:add', { target: { kind: 'local', name: 'there', role: 'guest' } })
    const review = await invoke<PlanReview>('plans:review', {
      plan: {
        name: 'every tool',
        baseline: { target: 'here' },
        variants: [{ target: 'there' }],
        tests: catalog.tools.map((t) => ({ id: t.id, tool: t.id, params: t.defaults })),
        repetitions: 1
      }
    })
    expect(review.issues).toEqual([])
    expect(review.jobs.map((j) => j.tool)).toEqual(catalog.tools.flatMap((t) => [t.id, t.id]))
    // the jobs' own time, then what the run adds: the engine's cost per job, the logins and checks with the idle gate, the cleanup
    const jobs = review.jobs.reduce((sum, j) => sum + j.seconds, 0)
    expect(review.seconds).toBe(Math.round(jobs + review.jobs.length * PER_JOB_SECONDS + CONNECT_SECONDS + Math.max(CHECKS_SECONDS, IDLE_SECONDS) + CLEANUP_SECONDS))
  })
})

describe('plans:review through the API', () => {
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-review-'))
    api = newApi()
    await invoke('targets:add', { target: { kind: 'local', name: 'here', role: 'host' } })
    await invoke('targets:add', { target: { kind: 'ssh', name: 'vm-01', role: 'guest', address: '192.0.2.7', user: 'ops', auth: { method: 'agent' }, sudo: 'password' } })
  })
  afterEach(async () => {
    await fs.rm(dataDir, { recursive: true, force: true })
  })

  it('answers a loose plan with its problems, not with an error', async () => {
    const review = await invoke<PlanReview>('plans:review', { plan: { name: 'x', baseline: { target: 'here' }, variants: [{ target: 'VM-01' }], tests: [{ id: 'dd', tool: 'dd', params: { count: 'many' } }] } })
    expect(review.ok).toBe(false)
    expect(review.issues).toEqual([
      { path: 'variants.0.target', message: 'vm-01 needs a sudo password, and none is stored: set it on the Targets screen' },
      { path: 'tests.0.params.count', message: expect.stringMatching(/count/) }
    ])
    const notAPlan = await dispatch(api.handlers, 'plans:review', { plan: 'fio please' })
    expect(notAPlan).toMatchObject({ ok: false, error: { code: 'invalid-request' } })
  })

  it('counts a sudo password stored with the target', async () => {
    const list = await invoke<{ targets: { target: { id: string; name: string } }[] }>('targets:list', undefined)
    const id = list.targets.find((t) => t.target.name === 'vm-01')!.target.id
    await invoke('targets:update', { id, patch: {}, secrets: { sudo: 'pw' } })
    const review = await invoke<PlanReview>('plans:review', { plan: { name: 'x', baseline: { target: 'here' }, variants: [{ target: 'vm-01' }], tests: [{ pack: 'block-dd', form: 'quick' }], repetitions: 1 } })
    expect(review.issues).toEqual([])
    expect(review.jobs.map((j) => `${j.testId}@${j.target}`)).toEqual(['dd-throughput@here', 'dd-throughput@vm-01', 'dd-latency@here', 'dd-latency@vm-01'])
    expect(review.jobs[1]?.steps[0]?.command).toBe("cd '/home/ops/virtbench-work/vb-<run id>-vm-01' && LC_ALL=C dd if=/dev/zero of=ddfile bs=64M count=1 oflag=direct")
    expect(review.jobs[0]?.steps[0]?.command).toContain(`cd '${os.homedir()}/virtbench-work/vb-<run id>-here'`)
  })
})

describe('plans:preflight against real sshd on loopback', () => {
  let host: SshdServer
  let guest: SshdServer
  let work: string
  const questions: HostKeyQuestion[] = []

  beforeAll(async () => {
    ;[host, guest] = await Promise.all([startSshd(), startSshd()])
  })
  afterAll(async () => {
    await Promise.all([host?.stop(), guest?.stop()])
  })
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-preflight-api-'))
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-preflight-work-'))
    api = newApi()
    questions.length = 0
    api.hub.subscribe((event, payload) => {
      if (event !== 'hostkey:question') return
      const question = payload as HostKeyQuestion
      questions.push(question)
      void dispatch(api.handlers, 'hostkey:decide', { requestId: question.requestId, decision: 'accept-once' })
    })
    for (const [name, server, role] of [['phys', host, 'host'], ['vm', guest, 'guest']] as const) {
      await invoke('targets:add', {
        target: { kind: 'ssh', name, role, address: '127.0.0.1', port: server.port, user: server.username, auth: { method: 'key', keyPath: server.privateKeyPath } }
      })
    }
  })
  afterEach(async () => {
    await fs.rm(dataDir, { recursive: true, force: true })
    await fs.rm(work, { recursive: true, force: true })
  })

  const plan = (variants: string[]) => ({
    name: 'preflight',
    baseline: { target: 'phys' },
    variants: variants.map((target) => ({ target })),
    tests: [{ id: 'dd', tool: 'dd', params: { blockSize: '1M', count: '4', direct: false } }],
    repetitions: 1,
    storage: { kind: 'directory', path: path.join(work, 'bench') }
  })

  it('connects, checks the tools and the work directory, says what each target is, and reports unreachable and unknown targets as error findings, without running a job', async () => {
    const port = await freePort()
    await invoke('targets:add', { target: { kind: 'ssh', name: 'gone', role: 'guest', address: '127.0.0.1', port, user: 'root', auth: { method: 'key', keyPath: host.privateKeyPath } } })
    const report = await invoke<PreflightReport>('plans:preflight', { plan: plan(['vm', 'gone', 'ghost']) })

    const errors = report.findings.filter((f) => f.severity === 'error')
    expect(errors.map((f) => [f.code, f.target])).toEqual([
      ['unknown-target', 'ghost'],
      ['unreachable', 'gone']
    ])
    expect(errors[0]?.message).toBe('The plan names ghost, which is not among the targets.')
    expect(errors[1]?.message).toMatch(/^gone \(variant\) cannot be reached: /)
    expect(errors[1]?.message).toContain(String(port))

    const prettyName = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1]
    // the environment capture asks systemd what machine this is (a container is not a machine)
    const virt = execFileSync('sh', ['-c', 'systemd-detect-virt --vm 2>/dev/null || true'], { encoding: 'utf8' }).trim()
    const seen = { reachable: true, os: prettyName, ...(virt ? { virtualization: virt } : {}) }
    expect(report.targets).toEqual([
      { name: 'phys', ...seen },
      { name: 'vm', ...seen },
      { name: 'gone', reachable: false },
      { name: 'ghost', reachable: false }
    ])
    // the host keys of the two reachable targets were asked about (and accepted once), as runs:start would
    expect(questions.map((q) => q.port).sort()).toEqual([host.port, guest.port].sort())
    // the checks created the work directory the run will use; no job left anything in it, no run was made
    expect(await fs.readdir(path.join(work, 'bench'))).toEqual([])
    expect(await invoke<{ runs: unknown[] }>('runs:list', undefined)).toMatchObject({ runs: [] })
  })
})
