/**
 * A sweep that ends between two steps puts the domain back itself: stopped after a step that
 * completed (that step's run kept the domain changed for the next) and before the next step
 * starts, through the CLI's Ctrl+C and through runSweep's `stopped` hook as the app's runs:cancel
 * uses it; or an error thrown between two steps. On libvirt's test driver behind a libvirtd of
 * the file's own (useTestDomain, test-domain.ts): the physical host and the guest are this
 * computer, every define, restart and XML is libvirt's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runSweepCommand } from '../../../src/cli/commands/run-sweep'
import type { CliIo } from '../../../src/cli/io'
import type { RunServices, StartedRun } from '../../../src/main/engine/start-run'
import { scriptsDir } from '../../../src/main/resources'
import { savedOriginals } from '../../../src/main/scenario/apply'
import { runDomainsOf } from '../../../src/main/scenario/run-domains'
import { runSweep } from '../../../src/main/scenario/sweep-run'
import { MemorySecretStore } from '../../../src/main/secrets/secrets'
import { openLocalSession } from '../../../src/main/ssh/open-local'
import { readRun, readSweep } from '../../../src/main/store/run-store'
import { ComparisonPlanSchema, type ComparisonPlan } from '../../../src/shared/model/plan'
import type { RunEvent } from '../../../src/shared/model/run'
import { TargetSchema } from '../../../src/shared/model/target'
import { parseCsv } from '../../../src/shared/export/csv'
import { checkJunit } from '../../harness/junit-xml'
import { useTestDomain, vdaOnlyDomainXml } from './test-domain'
import type { TestLibvirtd } from './test-libvirtd'

let libvirt: TestLibvirtd
let scratch: string

const DOMAIN = 'vb-stop'

useTestDomain({
  domain: DOMAIN,
  scratchPrefix: 'vb-sweep-stop-',
  xml: () => vdaOnlyDomainXml(DOMAIN),
  ready: (d) => {
    libvirt = d.libvirt
    scratch = d.scratch
  }
})
const events: RunEvent[] = []

const now = new Date().toISOString()
const inventory = [
  TargetSchema.parse({ id: 't-host', name: 'kvm-host', kind: 'local', role: 'host', createdAt: now, updatedAt: now }),
  TargetSchema.parse({ id: 't-vm1', name: 'vm1', kind: 'local', role: 'guest', hostId: 't-host', createdAt: now, updatedAt: now })
]

function services(): RunServices {
  return {
    inventory,
    secrets: new MemorySecretStore(),
    decideHostKey: async () => 'accept-once',
    knownHosts: { appFile: path.join(scratch, 'known_hosts') },
    openLocal: (t) => openLocalSession(t.name),
    scriptsDir: scriptsDir(),
    appVersion: 'test',
    onEvent: (e) => events.push(e),
    domains: runDomainsOf(true)
  }
}

function plan(extra: Record<string, unknown> = {}): ComparisonPlan {
  return ComparisonPlanSchema.parse({
    ...extra,
    name: 'sweep stop',
    baseline: { target: 'kvm-host' },
    variants: [],
    tests: [{ id: 'dd', tool: 'dd', params: { blockSize: '1M', count: '1', direct: false } }],
    repetitions: 1,
    storage: { kind: 'directory', path: path.join(scratch, 'work') },
    sweep: { target: 'vm1', domain: DOMAIN, factors: { io: ['threads', 'io_uring'] }, order: 'grouped' }
  })
}

/** `virsh dumpxml` of the running domain; its `id=` is a counter every start increases, so it is left out. */
function liveXml(): string {
  return libvirt.virsh('dumpxml', DOMAIN).replace(/^<domain type='test' id='\d+'>/, "<domain type='test'>")
}

/** What a sweep stopped after its first step left: that step's run record, the domain folder, the restore told. */
async function expectPutBackAfterFirstStep(dir: string, from: number): Promise<void> {
  const first = readdirSync(dir).find((name) => name.startsWith('01-'))!
  expect(readdirSync(dir).filter((name) => /^\d+-/.test(name))).toEqual([first])
  const run = await readRun(path.join(dir, first))
  // the first step did change the domain, and kept it for a next step that never came
  expect(run.domains).toMatchObject([{ domain: DOMAIN, apply: { status: 'applied', changes: ['vda driver: (unset) -> io=threads'] }, restore: { status: 'restored' } }])
  expect(readdirSync(path.join(dir, 'domains')).sort()).toEqual([`${DOMAIN}.restored`, `${DOMAIN}.xml`])
  const said = events.slice(from).flatMap((e) => (e.type === 'stage' ? [e.message] : []))
  expect(said).toContain(`Domain ${DOMAIN} keeps io=threads for the next step of the sweep`)
  expect(said.indexOf(`Domain ${DOMAIN} has its original configuration again`)).toBeGreaterThan(said.indexOf(`Domain ${DOMAIN} keeps io=threads for the next step of the sweep`))
  const stages = events.slice(from).flatMap((e) => (e.type === 'stage' && e.domain ? [`${e.domain.kind} ${e.domain.status}`] : []))
  expect(stages.slice(-2)).toEqual(['restore running', 'restore done'])
}

describe('a sweep that ends between two steps', () => {
  it('stopped with Ctrl+C in the CLI after its first step: the domain is put back byte for byte, and the sweep resumes', async () => {
    const inactive = libvirt.virsh('dumpxml', '--inactive', DOMAIN)
    const live = liveXml()
    const dir = path.join(scratch, 'cli')
    const out: string[] = []
    let interrupt!: (why: string) => void
    const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => out.push(t), env: {}, interrupted: new Promise((resolve) => (interrupt = resolve)) }
    const from = events.length
    // Ctrl+C once the first step's run has ended: after it kept the domain for the next step, before that step starts
    const exports = { comparison: path.join(scratch, 'cli-comparison.json'), overheadCsv: path.join(scratch, 'cli-overhead.csv'), junit: path.join(scratch, 'cli-junit.xml') }
    const gated = plan({ acceptance: { criteria: [{ name: 'dd at least 1 %', atLeastPct: 1, inconclusive: 'pass' }] } })
    const code = await runSweepCommand(gated, dir, services(), io, (started: StartedRun) => void started.done.then(() => interrupt('interrupted')), {}, exports)
    expect(code).toBe(1)
    expect(out.join('')).toMatch(/stopping the sweep/)
    expect(out.join('')).toMatch(/Sweep stopped: 1 of its steps completed/)
    // what was asked is written, for the combination measured; the one never measured says so
    const comparison = JSON.parse(readFileSync(exports.comparison, 'utf8')) as { combinations: { combination: string; comparison: { rows: unknown[] } | null }[] }
    expect(comparison.combinations.map((c) => [c.combination, c.comparison === null ? 'none' : c.comparison.rows.length > 0])).toEqual([
      ['io=threads', true],
      ['io=io_uring', 'none']
    ])
    expect(new Set(parseCsv(readFileSync(exports.overheadCsv, 'utf8')).slice(1).map((r) => r[0]))).toEqual(new Set(['io=threads']))
    const junit = checkJunit(readFileSync(exports.junit, 'utf8'))
    expect(junit.problems).toEqual([])
    expect(junit.root.children.map((suite) => [suite.attributes.name, suite.attributes.failures, suite.attributes.errors])).toEqual([
      ['sweep stop · io=threads', '0', '0'],
      ['sweep stop · io=io_uring', '0', '1']
    ])
    expect(out.join('')).toContain('Acceptance of the sweep: FAILED (1 of 2 combinations passed; 1 not measured)')
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(inactive)
    expect(liveXml()).toBe(live)
    await expectPutBackAfterFirstStep(dir, from)
    // the user stopped it: cancelled, not interrupted
    expect((await readSweep(dir)).summary.status).toBe('cancelled')

    // resumed: the first step kept, the second run, the domain put back after it
    const results = await runSweep(plan(), dir, services(), {}, { resume: true })
    expect(results.map((r) => `${r.label} ${r.status}`)).toEqual(['io=threads completed', 'io=io_uring completed'])
    expect((await readSweep(dir)).summary.status).toBe('completed')
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(inactive)
    expect(liveXml()).toBe(live)
  })

  it('stopped between its steps as the app stops it (runs:cancel): the domain is put back', async () => {
    const inactive = libvirt.virsh('dumpxml', '--inactive', DOMAIN)
    const dir = path.join(scratch, 'app')
    let stopping = false
    const from = events.length
    const results = await runSweep(plan(), dir, services(), {
      stopped: () => stopping,
      // the cancel comes once the first step's run has ended (its engine's cancel then does nothing)
      onStarted: (started) => void started.done.then(() => (stopping = true))
    })
    expect(results.map((r) => `${r.label} ${r.status}`)).toEqual(['io=threads completed'])
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(inactive)
    await expectPutBackAfterFirstStep(dir, from)
    expect(existsSync(path.join(dir, '.lock'))).toBe(false)
    const sweep = await readSweep(dir)
    expect(sweep.summary.status).toBe('cancelled')
    expect(sweep.run().status).toBe('cancelled')
  })

  it('an error thrown between two steps: the error goes on, the domain is put back', async () => {
    const inactive = libvirt.virsh('dumpxml', '--inactive', DOMAIN)
    const dir = path.join(scratch, 'error')
    const from = events.length
    const sweep = runSweep(plan(), dir, services(), {
      onStep: (index) => {
        if (index === 1) throw new Error('the second step could not be announced')
      }
    })
    await expect(sweep).rejects.toThrow('the second step could not be announced')
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(inactive)
    await expectPutBackAfterFirstStep(dir, from)
    // nobody stopped it: interrupted (resume it), not cancelled
    expect((await readSweep(dir)).summary.status).toBe('interrupted')
  })

  it('an error thrown as a step starts: that step is stopped, the error goes on, the domain is as it was', async () => {
    const inactive = libvirt.virsh('dumpxml', '--inactive', DOMAIN)
    const dir = path.join(scratch, 'error-at-start')
    const sweep = runSweep(plan(), dir, services(), {
      onStarted: () => {
        throw new Error('the step could not be shown')
      }
    })
    await expect(sweep).rejects.toThrow('the step could not be shown')
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(inactive)
    // its run ended cancelled, whether or not it had changed the domain yet: no original waits to be put back
    expect((await readRun(path.join(dir, readdirSync(dir).find((name) => name.startsWith('01-'))!))).status).toBe('cancelled')
    expect(savedOriginals(path.join(dir, 'domains'))).toEqual([])
  })
})
