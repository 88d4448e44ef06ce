import { createHash, randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import path from 'node:path'
import type { Finding } from '../../shared/model/run'
import { shJoin } from '../../shared/shell-quote'
import {
  SOURCE_BUILDS,
  archiveTrust,
  buildScript,
  cacheDir,
  cacheRoot,
  cachedScript,
  isProgram,
  placeProgramScript,
  toolName,
  toolPathScript,
  type ToolArchive
} from '../tools/provision'
import { TOOLS } from '../tools/registry'
import type { ToolId } from '../tools/types'
import type { Session } from '../ssh/types'
import type { BeforeJobsContext, BeforeJobsResult } from './runner'

/** A build on a slow target (iozone: about 30 s on one core) gets this long. */
const BUILD_TIMEOUT_MS = 15 * 60_000
/** Checking the cache, a path or a version. */
const CHECK_TIMEOUT_MS = 60_000
const CAPTURE = { maxBytes: 64 * 1024 }

/** A measured time as the findings say it: `7.7 s`, `under 0.1 s` (not "0.0 s"). */
function secondsText(ms: number): string {
  return ms < 100 ? 'under 0.1 s' : `${(ms / 1000).toFixed(1)} s`
}

/** An archive or program on this computer, read and checked once for all targets. */
interface LocalFile extends ToolArchive {
  sha256: string
  program: boolean
  /** How it is trusted, in words for the findings. */
  trust: string
  trustSeverity: 'info' | 'warning'
}

/** Where each tool comes from on the targets: the admin's archives and each target's own tool paths. */
export interface ToolSources {
  archives: readonly ToolArchive[]
  /** Per target name, a tool's path there (`/opt/iozone/bin/iozone`), from the target's settings. */
  targetPaths?: Readonly<Record<string, Partial<Record<ToolId, string>>>>
  /** The cache folder on every target (absolute); default `~/.cache/virtbench/tools` of the login. */
  cacheDir?: string
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

export async function headOf(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r')
  try {
    const head = new Uint8Array(4)
    await handle.read(head, 0, 4, 0)
    return head
  } finally {
    await handle.close()
  }
}

/** Reads and checks the admin's files; a file that cannot be used is a finding, not an upload. */
async function readLocal(archives: readonly ToolArchive[]): Promise<{ files: LocalFile[]; findings: Finding[] }> {
  const files: LocalFile[] = []
  const findings: Finding[] = []
  for (const archive of archives) {
    const name = toolName(archive.tool)
    let sha256: string
    let program: boolean
    try {
      ;[sha256, program] = await Promise.all([sha256Of(archive.path), headOf(archive.path).then(isProgram)])
    } catch (error) {
      findings.push({
        severity: 'error',
        code: 'tool-archive-unreadable',
        message: `The ${name} archive ${archive.path} cannot be read on this computer: ${(error as Error).message}.`,
        fix: 'Give the path of the source archive (or program) you downloaded, readable by you.'
      })
      continue
    }
    const trust = archiveTrust(archive.tool, sha256, archive.sha256)
    if (!trust.ok) {
      findings.push({
        severity: 'error',
        code: 'tool-archive-checksum',
        message: `The ${name} archive ${archive.path} was not uploaded: ${trust.reason}.`,
        fix: 'Download it again from where you got it, and compare its SHA-256 (sha256sum) with the one published there.'
      })
      continue
    }
    const words =
      trust.how === 'pinned'
        ? `the pinned ${trust.release.release}`
        : trust.how === 'given'
          ? 'the SHA-256 you gave'
          : 'not a release VirtBench knows and no SHA-256 given: its checksum is recorded in this run'
    files.push({ ...archive, sha256, program, trust: `sha256 ${sha256}, ${words}`, trustSeverity: trust.how === 'recorded' ? 'warning' : 'info' })
  }
  return { files, findings }
}

/** The tools each target runs in the queued jobs (a server tool on its peer too), as before-jobs counts them. */
function toolsByTarget(ctx: BeforeJobsContext): Map<string, Set<ToolId>> {
  const byTarget = new Map<string, Set<ToolId>>()
  const add = (name: string, tool: ToolId): void => void byTarget.set(name, (byTarget.get(name) ?? new Set()).add(tool))
  for (const job of ctx.run.jobs) {
    if (job.status !== 'queued') continue
    add(job.target, job.tool)
    const network = TOOLS[job.tool].network
    if (job.peer && network && network.peerRuns === 'server') add(job.peer, job.tool)
  }
  return byTarget
}

async function run(session: Session, script: string, timeoutMs: number, signal: AbortSignal): Promise<{ ok: boolean; out: string; err: string; exitCode: number | null }> {
  const result = await session.exec({ script }, { capture: CAPTURE, timeoutMs, signal })
  const out = result.stdout?.toString('utf8') ?? ''
  const err = result.stderr?.toString('utf8').trim() ?? ''
  const why = result.timedOut ? `it did not finish within ${Math.round(timeoutMs / 1000)} s` : ''
  return { ok: result.exitCode === 0, out, err: err || why, exitCode: result.exitCode }
}

/** The tool from the admin's file on one target: from its cache, or uploaded and built (or placed) there. */
async function provisionOn(ctx: BeforeJobsContext, session: Session, target: string, file: LocalFile, cache: string | undefined): Promise<{ path?: string; finding: Finding }> {
  const build = SOURCE_BUILDS[file.tool]!
  const name = toolName(file.tool)
  const facts = await session.facts()
  const root = cache ?? cacheRoot(facts.homeDir)
  const dir = cacheDir(root, file.tool, file.sha256)
  const base = path.basename(file.path)
  const cached = await run(session, cachedScript(dir, build), CHECK_TIMEOUT_MS, ctx.signal)
  const hit = /^cached (.+)$/m.exec(cached.out)?.[1]
  if (hit) {
    return { path: hit, finding: { severity: file.trustSeverity, target, code: 'tool-from-cache', message: `${name} on ${target}: built earlier from ${base} (${file.trust}), reused from ${dir}.` } }
  }
  if (file.program && build.result.kind !== 'program') {
    return { finding: { severity: 'error', target, code: 'tool-archive-program', message: `${base} is a program, but ${name} runs from its whole folder.`, fix: `Give ${name}'s source archive instead; VirtBench builds it on ${target}.` } }
  }
  // one upload per target: two targets on one machine must not remove each other's
  const upload = `${root}/upload-${file.tool}-${file.sha256}-${randomBytes(4).toString('hex')}`
  ctx.onStage?.(`Uploading ${base} to ${target}${file.program ? '' : ' to build it there'}`, target)
  const made = await run(session, `mkdir -p -- ${shJoin([root])}`, CHECK_TIMEOUT_MS, ctx.signal)
  if (!made.ok) return { finding: { severity: 'error', target, code: 'tool-build-failed', message: `${name} on ${target}: the cache folder ${root} cannot be made: ${made.err}.` } }
  const started = performance.now()
  await session.upload(file.path, upload, { mode: 0o600 })
  const uploaded = performance.now()
  const script = file.program
    ? placeProgramScript({ upload, sha256: file.sha256, dir, file: build.result.kind === 'program' ? build.result.file : name })
    : buildScript({ upload, sha256: file.sha256, dir, build, machine: facts.machine, tool: name })
  const done = await run(session, script, BUILD_TIMEOUT_MS, ctx.signal)
  const finished = performance.now()
  const made2 = /^(?:built|placed) (.+)$/m.exec(done.out)?.[1]
  if (!done.ok || !made2) {
    return {
      finding: {
        severity: 'error',
        target,
        code: 'tool-build-failed',
        message: `${name} on ${target}: ${file.program ? 'placing' : 'building'} ${base} failed${done.exitCode !== null ? ` (exit ${done.exitCode})` : ''}: ${done.err || 'no reason given'}`,
        fix: file.program ? `Check that ${base} is a ${name} program built for ${target}'s system (${facts.machine}).` : `Install the build tools on ${target} (${build.buildTools}), or fix what make said, then run again.`
      }
    }
  }
  const how = file.program
    ? `uploaded as a program in ${secondsText(uploaded - started)}`
    : `uploaded in ${secondsText(uploaded - started)} and built with ${target}'s compiler in ${secondsText(finished - uploaded)}`
  return { path: made2, finding: { severity: file.trustSeverity, target, code: 'tool-built', message: `${name} on ${target}: ${how} from ${base} (${file.trust}); cached in ${dir}, so later runs reuse it.` } }
}

/** A tool path a target names: used when it is there, an error finding when it is not. */
async function checkPath(ctx: BeforeJobsContext, session: Session, target: string, tool: ToolId, toolPath: string): Promise<{ path?: string; finding: Finding }> {
  const name = toolName(tool)
  const found = await run(session, toolPathScript(toolPath, SOURCE_BUILDS[tool]), CHECK_TIMEOUT_MS, ctx.signal)
  if (found.out.trim() === 'present') return { path: toolPath, finding: { severity: 'info', target, code: 'tool-path', message: `${name} on ${target}: ${toolPath}, the tool path set for ${target}.` } }
  return {
    finding: { severity: 'error', target, code: 'tool-path-missing', message: `${name} on ${target}: the tool path set for ${target}, ${toolPath}, is not there.`, fix: `Correct ${target}'s ${tool} path, or install ${name} there.` }
  }
}

/** Whether a preflight finding is the one saying that `tool` is missing on `target` (preflight words it with the tool's name). */
function isMissing(finding: Finding, target: string, tool: ToolId): boolean {
  return finding.code === 'tool-missing' && finding.target === target && finding.message.startsWith(tool === 'unixbench' ? 'UnixBench is not on' : `${toolName(tool)} is not installed on`)
}

/** The way out for a tool preflight finds missing that can also come from this computer. */
function withArchiveFix(finding: Finding, tools: ReadonlySet<ToolId>): Finding {
  if (finding.code !== 'tool-missing' || !finding.target) return finding
  for (const tool of tools) {
    if (!SOURCE_BUILDS[tool] || !isMissing(finding, finding.target, tool)) continue
    const offline = `Without internet on ${finding.target}: bring ${toolName(tool)}'s source archive from this computer (virtbench run --tool-archive ${tool}=FILE; docs/tools-offline.md), or set its path on ${finding.target}.`
    return { ...finding, fix: finding.fix ? `${finding.fix} ${offline}` : offline }
  }
  return finding
}

/** The findings that say how a tool arrived on a target: the run's record of what made its figures. */
const ARRIVAL_CODES: ReadonlySet<string> = new Set(['tool-built', 'tool-from-cache', 'tool-path'])

/** Whom a finding is about: its target and the tool it names (`IOzone on vm1`). */
function arrivalKey(finding: Finding): string {
  return `${finding.target ?? ''}\u0000${finding.message.slice(0, finding.message.indexOf(':'))}`
}

/**
 * When a run continues (resume, retry): how each tool arrived for the jobs it keeps, from the run's
 * earlier checks, unless these checks say it again. The checks' findings replace the run's, and
 * the kept figures were made by that build (the checksum it records).
 */
function earlierArrivals(earlier: readonly Finding[], now: readonly Finding[]): Finding[] {
  const said = new Set(now.filter((f) => ARRIVAL_CODES.has(f.code)).map(arrivalKey))
  return earlier.filter((f) => ARRIVAL_CODES.has(f.code) && !said.has(arrivalKey(f)))
}

/**
 * Before the standard checks: each tool given as an archive (or a program) reaches the targets
 * that run it (from their cache, or uploaded and built there), and each tool path a target names
 * is checked; then the checks run and their "missing" findings for these tools give way to how
 * the tool arrived, and the plans find it at its path.
 */
export function beforeJobsWithToolSources(sources: ToolSources, base: (ctx: BeforeJobsContext) => Promise<BeforeJobsResult>): (ctx: BeforeJobsContext) => Promise<BeforeJobsResult> {
  return async (ctx) => {
    const { files, findings } = await readLocal(sources.archives)
    const toolPaths: Record<string, Partial<Record<ToolId, string>>> = {}
    const arrived = new Set<string>()
    const byTarget = toolsByTarget(ctx)
    if (!findings.some((f) => f.severity === 'error')) {
      await Promise.all(
        ctx.targets.map(async (t) => {
          const session = ctx.sessions.get(t.name)
          const tools = byTarget.get(t.name)
          if (!session || !tools) return
          for (const tool of tools) {
            const own = sources.targetPaths?.[t.name]?.[tool]
            const file = files.find((f) => f.tool === tool)
            if (!own && !file) continue
            const got = own ? await checkPath(ctx, session, t.name, tool, own) : await provisionOn(ctx, session, t.name, file!, sources.cacheDir)
            findings.push(got.finding)
            if (got.path) {
              toolPaths[t.name] = { ...toolPaths[t.name], [tool]: got.path }
              arrived.add(`${t.name}\u0000${tool}`)
            }
          }
        })
      )
    }
    const result = await base(ctx)
    const allTools = new Set([...byTarget.values()].flatMap((s) => [...s]))
    const kept = (result.findings ?? [])
      .filter((f) => ![...arrived].some((key) => {
        const [target, tool] = key.split('\u0000') as [string, ToolId]
        return isMissing(f, target, tool)
      }))
      .map((f) => withArchiveFix(f, allTools))
    const merged = { ...(result.toolPaths ?? {}) }
    for (const [name, paths] of Object.entries(toolPaths)) merged[name] = { ...merged[name], ...paths }
    return { ...result, findings: [...earlierArrivals(ctx.run.preflight, findings), ...findings, ...kept], toolPaths: merged }
  }
}
