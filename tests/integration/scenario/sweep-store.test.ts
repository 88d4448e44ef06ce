/**
 * A sweep run by the app's API (runs:start with a plan that sweeps, the user's consent given), as
 * `virtbench run --change-domains` runs it: the physical host is this computer whose virsh talks
 * to libvirt's test driver behind a libvirtd of the file's own (useTestDomain, test-domain.ts), so
 * every define, restart and live XML is libvirt's; the guest is this computer too. The run store lists the
 * sweep folder as one run (its combinations as steps, its state), runs:get and runs:sweep read it,
 * its stages are structured events, the domain is put back byte for byte, and a sweep cancelled
 * during its second step resumes under the same id, keeping the step that completed.
 */
import { existsSync, promises as fs, readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { createApi, type Api } from '../../../src/main/api/handlers'
import type { RunDocument, RunEvent, RunSummary } from '../../../src/shared/model/run'
import type { DomainStageEvent } from '../../../src/shared/sweep/stage-event'
import { useTestDomain, vdaOnlyDomainXml } from './test-domain'
import type { TestLibvirtd } from './test-libvirtd'

let libvirt: TestLibvirtd
let dataDir: string
let workDir: string
let api: Api
const events: RunEvent[] = []
/** The guest is this computer: its processors are what the vCPU check sees. */
const CPUS = os.cpus().length

const DOMAIN = 'vb-sweep-store'

useTestDomain({
  domain: DOMAIN,
  scratchPrefix: 'vb-sweep-store-libvirt-',
  xml: () => vdaOnlyDomainXml(DOMAIN),
  ready: (d) => {
    libvirt = d.libvirt
  }
})

async function invoke<T>(channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<T> {
  const answer = await dispatch(api.handlers, channel, payload)
  if (!answer.ok) throw new Error(`${channel}: ${JSON.stringify(answer.error)}`)
  return answer.value as T
}

/** Waits for the run-finished event of `id` after `from` events (a deadline in polls). */
async function finishedAfter(id: string, from: number): Promise<Extract<RunEvent, { type: 'run-finished' }>> {
  for (let i = 0; i < 6000; i++) {
    const end = events.slice(from).find((e): e is Extract<RunEvent, { type: 'run-finished' }> => e.type === 'run-finished' && e.runId === id)
    if (end) return end
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`run ${id} did not finish`)
}

const plan = {
  name: 'sweep api',
  baseline: { target: 'kvm-host' },
  variants: [],
  tests: [{ id: 'dd', tool: 'dd', params: { blockSize: '1M', count: '4', direct: false } }],
  repetitions: 1,
  storage: { kind: 'directory', path: '' },
  sweep: { target: 'vm1', domain: DOMAIN, factors: { io: ['threads', 'io_uring'], vcpus: [CPUS] }, order: 'grouped' }
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-sweep-store-'))
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-sweep-work-'))
  plan.storage.path = workDir
  api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
  api.hub.subscribe((event, payload) => {
    if (event === 'runs:event') events.push(payload as RunEvent)
  })
  const host = await invoke<{ target: { id: string } }>('targets:add', { target: { kind: 'local', name: 'kvm-host', role: 'host' } })
  await invoke('targets:add', { target: { kind: 'local', name: 'vm1', role: 'guest', hostId: host.target.id } })
})

afterAll(async () => {
  await fs.rm(dataDir, { recursive: true, force: true })
  await fs.rm(workDir, { recursive: true, force: true })
})

describe('a sweep in the run store', () => {
  let id: string
  let original: string

  it('is refused without consent, then runs with it: one run in the list, its steps, its stages, the domain put back', async () => {
    original = libvirt.virsh('dumpxml', '--inactive', DOMAIN)
    expect(await dispatch(api.handlers, 'runs:start', { plan })).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining(`${DOMAIN} (vm1, swept)`) } })
    const from = events.length
    id = (await invoke<{ id: string }>('runs:start', { plan, changeDomains: true })).id
    const end = await finishedAfter(id, from)
    expect(end.status).toBe('completed')

    const list = await invoke<{ runs: RunSummary[]; problems: string[]; active: string[] }>('runs:list')
    expect(list.problems).toEqual([])
    expect(list.runs).toHaveLength(1)
    expect(list.runs[0]).toMatchObject({
      id,
      name: 'sweep api',
      status: 'completed',
      baseline: 'kvm-host',
      variants: [`io=threads, vcpus=${CPUS}`, `io=io_uring, vcpus=${CPUS}`],
      jobs: { total: 4, succeeded: 4, failed: 0 },
      sweep: { guest: 'vm1', domain: DOMAIN, steps: 2, completed: 2 }
    })
    expect(readdirSync(path.join(dataDir, 'runs', id)).sort()).toEqual(['01-io=threads_vcpus=' + CPUS, '02-io=io_uring_vcpus=' + CPUS, 'domains', 'sweep.json'])

    const sweep = await invoke<{ sweep: true; total: number; steps: { label: string; dir: string; status: string; run?: RunDocument }[] }>('runs:sweep', { id })
    expect(sweep.total).toBe(2)
    expect(sweep.steps.map((s) => [s.label, s.status, s.run?.jobs.map((j) => j.status)])).toEqual([
      [`io=threads, vcpus=${CPUS}`, 'completed', ['succeeded', 'succeeded']],
      [`io=io_uring, vcpus=${CPUS}`, 'completed', ['succeeded', 'succeeded']]
    ])
    expect(sweep.steps[1]!.run!.domains).toMatchObject([{ domain: DOMAIN, apply: { status: 'applied', changes: ['vda io: threads -> io_uring'] }, restore: { status: 'restored' } }])

    // runs:get gives the latest step's run under the sweep's id and plan; its raw outputs read through the same id
    const doc = await invoke<RunDocument>('runs:get', { id })
    expect(doc).toMatchObject({ id, name: 'sweep api', status: 'completed', plan: { sweep: { domain: DOMAIN } } })
    const raw = await invoke<{ text: string }>('runs:raw', { id, file: doc.jobs[0]!.steps.find((s) => s.measured)!.stderrFile! })
    expect(raw.text).toMatch(/4194304 bytes/)

    // the stages as structured events: each combination defined, restarted, SSH, verified, measured; the restore at the end
    const stages = events.filter((e): e is Extract<RunEvent, { type: 'stage' }> => e.type === 'stage' && e.runId === id && e.domain !== undefined).map((e) => e.domain!)
    const brief = (e: DomainStageEvent): string => `${e.combination ?? '-'} ${e.step ? `${e.step.index}/${e.step.total}` : ''} ${e.kind} ${e.status}`
    expect(stages.map(brief)).toEqual([
      `io=threads, vcpus=${CPUS} 1/2 define running`,
      `io=threads, vcpus=${CPUS} 1/2 define done`,
      `io=threads, vcpus=${CPUS} 1/2 restart running`,
      `io=threads, vcpus=${CPUS} 1/2 ssh running`,
      `io=threads, vcpus=${CPUS} 1/2 verify done`,
      `io=threads, vcpus=${CPUS} 1/2 jobs running`,
      `io=threads, vcpus=${CPUS} 1/2 jobs done`,
      `io=io_uring, vcpus=${CPUS} 2/2 define running`,
      `io=io_uring, vcpus=${CPUS} 2/2 define done`,
      `io=io_uring, vcpus=${CPUS} 2/2 restart running`,
      `io=io_uring, vcpus=${CPUS} 2/2 ssh running`,
      `io=io_uring, vcpus=${CPUS} 2/2 verify done`,
      `io=io_uring, vcpus=${CPUS} 2/2 jobs running`,
      `io=io_uring, vcpus=${CPUS} 2/2 restore running`,
      `io=io_uring, vcpus=${CPUS} 2/2 restore running`,
      `io=io_uring, vcpus=${CPUS} 2/2 restore done`
    ])
    expect(stages.every((e) => e.domain === DOMAIN && e.host === 'kvm-host' && e.guest === 'vm1')).toBe(true)
    // the texts people read stay as they were
    expect(events.some((e) => e.type === 'stage' && e.message === `${DOMAIN}: restarting`)).toBe(true)
    expect(events.some((e) => e.type === 'stage' && e.message === `Domain ${DOMAIN} has its original configuration again`)).toBe(true)
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(original)
  })

  it('a sweep cancelled in its second step is put back, listed as cancelled, and resumed under its id keeping the first step', async () => {
    await invoke('runs:remove', { id })
    const from = events.length
    id = (await invoke<{ id: string }>('runs:start', { plan, changeDomains: true })).id
    // cancelled as the second combination begins to be set up (before its jobs, however fast they are)
    for (let i = 0; i < 6000; i++) {
      if (events.slice(from).some((e) => e.type === 'stage' && e.runId === id && e.domain?.step?.index === 2 && e.domain.kind === 'define')) break
      await new Promise((r) => setTimeout(r, 20))
    }
    await invoke('runs:cancel', { id })
    expect((await finishedAfter(id, from)).status).toBe('cancelled')
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(original)
    const listed = (await invoke<{ runs: RunSummary[] }>('runs:list')).runs
    expect(listed).toMatchObject([{ id, status: 'cancelled', sweep: { steps: 2, completed: 1 } }])
    const firstRun = (await invoke<{ steps: { run?: RunDocument }[] }>('runs:sweep', { id })).steps[0]!.run!

    const again = events.length
    expect(await invoke('runs:resume', { id, changeDomains: true })).toEqual({ id })
    expect((await finishedAfter(id, again)).status).toBe('completed')
    const sweep = await invoke<{ steps: { label: string; status: string; run?: RunDocument }[] }>('runs:sweep', { id })
    expect(sweep.steps.map((s) => s.status)).toEqual(['completed', 'completed'])
    // the first step was kept, not run again
    expect(sweep.steps[0]!.run).toEqual(firstRun)
    expect((await invoke<{ runs: RunSummary[] }>('runs:list')).runs).toMatchObject([{ id, status: 'completed', sweep: { completed: 2 } }])
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(original)

    // exported as one file with every step; removed as one run
    const file = path.join(workDir, 'sweep.vbsweep.json')
    expect(await invoke('runs:export', { id, file })).toMatchObject({ file })
    const archive = JSON.parse(await fs.readFile(file, 'utf8')) as { kind: string; steps: Record<string, unknown> }
    expect(archive.kind).toBe('virtbench-sweep-archive')
    expect(Object.keys(archive.steps)).toHaveLength(2)
    await invoke('runs:remove', { id })
    expect(existsSync(path.join(dataDir, 'runs', id))).toBe(false)
  })
})
