import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standardBeforeJobs } from '../../../src/main/engine/before-jobs'
import { continueRun, startRun } from '../../../src/main/engine/start-run'
import { beforeJobsWithToolSources, type ToolSources } from '../../../src/main/engine/tool-provision'
import { readRun } from '../../../src/main/store/run-store'
import { TOOLS } from '../../../src/main/tools/registry'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import type { RunDocument } from '../../../src/shared/model/run'
import { startLab, type Lab } from '../engine/run-harness'
import { makeStandInIozoneArchive } from '../../harness/stand-in-iozone'

/**
 * A tool brought from this computer to targets without internet (docs/tools-offline.md), through
 * the engine against two real sshd: the archive is uploaded over SFTP, checked by its SHA-256 on
 * the target, built there by the target's gcc and make, cached by checksum and reused by the next
 * run; the plans run it from the cache.
 *
 * The archive is a stand-in made by the test (tests/harness/stand-in-iozone.ts): a small C program
 * laid out as iozone's tarball that prints a real captured iozone output; the test proves the
 * mechanism, not iozone.
 * Needs gcc and make on the machine (the targets are this machine).
 */
const makeArchive = makeStandInIozoneArchive

describe('a tool from an archive on this computer (no internet on the targets)', () => {
  let lab: Lab
  let archive: ReturnType<typeof makeArchive>
  let cacheDir: string

  beforeAll(async () => {
    lab = await startLab()
    archive = makeArchive(lab.dir)
    cacheDir = path.join(lab.dir, 'tool-cache')
  })

  afterAll(async () => {
    await lab?.stop()
  })

  const plan = () =>
    ComparisonPlanSchema.parse({
      name: 'iozone offline',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      storage: { kind: 'directory', path: lab.workRoot },
      repetitions: 1,
      idleSeconds: 0,
      tests: [{ id: 'iozone', tool: 'iozone', params: { maxFileSize: '1M', spreadsheet: 'out.wks' } }]
    })

  async function runWith(name: string, sources: Omit<ToolSources, 'cacheDir'>): Promise<RunDocument> {
    const dir = path.join(lab.dir, name)
    const started = await startRun(plan(), dir, lab.services({ beforeJobs: beforeJobsWithToolSources({ ...sources, cacheDir }, standardBeforeJobs) }))
    await started.done
    return readRun(dir)
  }

  const codes = (run: RunDocument, target: string) => run.preflight.filter((f) => f.target === target).map((f) => f.code)

  it('uploads, builds and caches it on each target, then runs it from there', async () => {
    const run = await runWith('first', { archives: [{ tool: 'iozone', path: archive.file }] })
    expect(run.preflight.filter((f) => f.severity === 'error')).toEqual([])
    expect(run.jobs.map((j) => `${j.side} ${j.status} ${j.error ?? ''}`.trim())).toEqual(['host succeeded', 'guest succeeded'])
    // Both targets are this machine and share one cache folder, and they are provisioned at once:
    // when one target's build lands before the other looks in the cache, the other reuses it (as
    // two guests sharing a home over NFS would). At least one builds; each has the tool either way.
    const trust = `sha256 ${archive.sha256}, not a release VirtBench knows and no SHA-256 given: its checksum is recorded in this run`
    const arrivals = ['host', 'guest'].map((target) => {
      const found = run.preflight.filter((f) => f.target === target && (f.code === 'tool-built' || f.code === 'tool-from-cache'))
      expect(found.map((f) => f.code), `${target}: ${JSON.stringify(run.preflight)}`).toHaveLength(1)
      const arrival = found[0]!
      // the upload's and the build's times as measured (they vary, their form does not)
      expect(arrival.message.replace(/ in (?:under 0\.1|\d+\.\d) s/g, ' in N s')).toBe(
        arrival.code === 'tool-built'
          ? `IOzone on ${target}: uploaded in N s and built with ${target}'s compiler in N s from replay-iozone.tar.gz (${trust}); cached in ${cacheDir}/iozone-${archive.sha256}, so later runs reuse it.`
          : `IOzone on ${target}: built earlier from replay-iozone.tar.gz (${trust}), reused from ${cacheDir}/iozone-${archive.sha256}.`
      )
      expect(arrival.severity).toBe('warning')
      expect(codes(run, target)).not.toContain('tool-missing')
      return arrival.code
    })
    expect(arrivals).toContain('tool-built')
    const program = `${cacheDir}/iozone-${archive.sha256}/bin/iozone`
    expect(existsSync(program)).toBe(true)
    expect(existsSync(`${cacheDir}/iozone-${archive.sha256}/build.log`)).toBe(true)
    // the upload was removed once built
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('upload-'))).toEqual([])
    // the job ran the built program, and what it printed parsed as iozone's output
    const job = run.jobs[0]!
    expect(job.steps.find((s) => s.measured)!.command).toContain(`${program} -Raz -g 1M -b out.wks`)
    const parsed = TOOLS.iozone.parse({ stdout: archive.output, stderr: '', exitCode: 0 })
    expect(parsed.ok && job.samples.length).toBe(parsed.ok ? parsed.samples.length : -1)
    expect(job.samples.length).toBeGreaterThan(0)
  })

  it('reuses the cached build on the next run, without uploading again', async () => {
    const run = await runWith('second', { archives: [{ tool: 'iozone', path: archive.file, sha256: archive.sha256 }] })
    expect(run.jobs.map((j) => `${j.side} ${j.status} ${j.error ?? ''}`.trim()), JSON.stringify(run.preflight)).toEqual(['host succeeded', 'guest succeeded'])
    const reused = run.preflight.find((f) => f.target === 'guest' && f.code === 'tool-from-cache')!
    expect(reused.message).toBe(`IOzone on guest: built earlier from replay-iozone.tar.gz (sha256 ${archive.sha256}, the SHA-256 you gave), reused from ${cacheDir}/iozone-${archive.sha256}.`)
    expect(reused.severity).toBe('info')
    expect(codes(run, 'host')).not.toContain('tool-built')
  })

  it('keeps, when a run continues, how the tool arrived for the jobs it keeps', async () => {
    // the first test's run (built on one target or both); the guest's job runs again, the host's figures are kept
    const dir = path.join(lab.dir, 'first')
    const before = await readRun(dir)
    const arrivedOnHost = (f: { target?: string; code: string }) => f.target === 'host' && (f.code === 'tool-built' || f.code === 'tool-from-cache')
    const hostArrival = before.preflight.filter(arrivedOnHost)
    expect(hostArrival).toHaveLength(1)
    const guestJob = before.jobs.find((j) => j.side === 'guest')!.id
    const again = await continueRun(dir, lab.services({ beforeJobs: beforeJobsWithToolSources({ archives: [{ tool: 'iozone', path: archive.file }], cacheDir }, standardBeforeJobs) }), [guestJob])
    await again.done
    const run = await readRun(dir)
    expect(run.jobs.map((j) => `${j.side} ${j.status}`)).toEqual(['host succeeded', 'guest succeeded'])
    expect(run.preflight.filter(arrivedOnHost)).toEqual(hostArrival)
    expect(codes(run, 'guest').filter((c) => c.startsWith('tool-'))).toEqual(['tool-from-cache'])
  })

  it('refuses an archive whose SHA-256 is not the one given: nothing is uploaded and nothing runs', async () => {
    const wrong = '0'.repeat(64)
    const run = await runWith('wrong', { archives: [{ tool: 'iozone', path: archive.file, sha256: wrong }] })
    expect(run.jobs.every((j) => j.status !== 'succeeded')).toBe(true)
    const refused = run.preflight.find((f) => f.code === 'tool-archive-checksum')!
    expect(refused.severity).toBe('error')
    expect(refused.message).toBe(`The IOzone archive ${archive.file} was not uploaded: its SHA-256 is ${archive.sha256}, not ${wrong} as given: it is another file, or damaged.`)
  })

  it("takes a target's own tool path when it is there, and says so when it is not", async () => {
    const program = `${cacheDir}/iozone-${archive.sha256}/bin/iozone`
    const run = await runWith('paths', { archives: [], targetPaths: { host: { iozone: program }, guest: { iozone: '/opt/iozone/bin/iozone' } } })
    expect(run.preflight.find((f) => f.target === 'host' && f.code === 'tool-path')?.message).toBe(`IOzone on host: ${program}, the tool path set for host.`)
    const missing = run.preflight.find((f) => f.target === 'guest' && f.code === 'tool-path-missing')!
    expect(missing.severity).toBe('error')
    expect(missing.message).toBe('IOzone on guest: the tool path set for guest, /opt/iozone/bin/iozone, is not there.')
    expect(run.jobs.every((j) => j.status !== 'succeeded')).toBe(true)
  })

  it('tells how a missing tool can come from this computer when no archive is given', async () => {
    const run = await runWith('none', { archives: [] })
    const missing = run.preflight.find((f) => f.target === 'guest' && f.code === 'tool-missing')!
    expect(missing.fix).toContain('Without internet on guest: bring IOzone\'s source archive from this computer (virtbench run --tool-archive iozone=FILE; docs/tools-offline.md)')
  })
})
