import { constants, promises as fs } from 'node:fs'
import path from 'node:path'
import type { Target } from '../../shared/model/target'
import { ARCHIVE_TOOLS, TOOL_ARCHIVE_MAX_BYTES, type ArchiveTool } from '../../shared/tool-archive-contract'
import { describeBytes } from '../../shared/byte-limit'
import { archiveTrust, isProgram, parseToolArchive, parseToolChecksum, SOURCE_BUILDS, toolName, type ToolArchive } from '../tools/provision'
import type { ToolId } from '../tools/types'
import { headOf, sha256Of, type ToolSources } from './tool-provision'

/**
 * The tools a run brings from this computer, checked the same way whoever gives them: the CLI's
 * --tool-archive / --tool-sha256 and the app's runs:start / plans:preflight (docs/tools-offline.md).
 */

/** The tools the app offers, each with its pinned releases (tools:archives); the app's list and the engine's recipes agree (a unit test checks it). */
export function archiveTools(): { tool: ArchiveTool; name: string; releases: { file: string; sha256: string; release: string }[] }[] {
  return ARCHIVE_TOOLS.map((tool) => ({ tool, name: toolName(tool), releases: (SOURCE_BUILDS[tool]?.releases ?? []).map((r) => ({ ...r })) }))
}

/** A file that cannot be used: `field` is what the admin gave wrong (`path`, `sha256`, or the tool given twice). */
export class ToolArchiveError extends Error {
  constructor(
    readonly field: 'tool' | 'path' | 'sha256',
    message: string,
    readonly tool?: ToolId
  ) {
    super(message)
    this.name = 'ToolArchiveError'
  }
}

/** --tool-archive TOOL=FILE and --tool-sha256 TOOL=HEX, parsed and paired by tool (paths as given). */
export function toolArchivesOfOptions(archives: readonly string[], checksums: readonly string[]): ToolArchive[] {
  const sums = new Map<ToolId, string>()
  for (const text of checksums) {
    const parsed = parseToolChecksum(text)
    if ('error' in parsed) throw new ToolArchiveError('sha256', `--tool-sha256: ${parsed.error}`)
    sums.set(parsed.tool, parsed.sha256)
  }
  const out: ToolArchive[] = []
  for (const text of archives) {
    const parsed = parseToolArchive(text)
    if ('error' in parsed) throw new ToolArchiveError('path', `--tool-archive: ${parsed.error}`)
    const sha256 = sums.get(parsed.tool)
    out.push({ tool: parsed.tool, path: parsed.path, ...(sha256 ? { sha256 } : {}) })
  }
  const orphan = [...sums.keys()].find((tool) => !out.some((a) => a.tool === tool))
  if (orphan) throw new ToolArchiveError('sha256', `--tool-sha256 ${orphan}=... goes with --tool-archive ${orphan}=FILE`, orphan)
  return out
}

/**
 * One file checked on this computer before anything is uploaded: it exists, is a file, is readable
 * by this process, and is at most TOOL_ARCHIVE_MAX_BYTES. A relative path is taken from `cwd`.
 */
export async function checkToolArchiveFile(archive: ToolArchive, cwd = process.cwd()): Promise<ToolArchive & { bytes: number }> {
  const file = path.resolve(cwd, archive.path)
  const what = `The ${toolName(archive.tool)} file ${file}`
  const fail = (message: string): never => {
    throw new ToolArchiveError('path', message, archive.tool)
  }
  const stat = await fs.stat(file).catch((error: NodeJS.ErrnoException) =>
    fail(error.code === 'ENOENT' ? `${what} does not exist on this computer; give the path of the source archive (or program) you downloaded` : `${what} cannot be read (${error.code ?? error.message})`)
  )
  if (!stat.isFile()) fail(`${what} is ${stat.isDirectory() ? 'a folder' : 'not a regular file'}; give the source archive itself (a .tar.gz, .tar.xz...) or a program`)
  if (stat.size > TOOL_ARCHIVE_MAX_BYTES) fail(`${what} is ${describeBytes(stat.size)}, more than the ${describeBytes(TOOL_ARCHIVE_MAX_BYTES)} a tool's source archive may be; is it the right file?`)
  await fs.access(file, constants.R_OK).catch(() => fail(`${what} is not readable by you; change its permissions (chmod u+r) or copy it somewhere you can read`))
  return { ...archive, path: file, bytes: stat.size }
}

/** The files of a run, each checked; one file per tool. */
export async function checkToolArchives(archives: readonly ToolArchive[], cwd?: string): Promise<ToolArchive[]> {
  const twice = archives.find((a, i) => archives.findIndex((b) => b.tool === a.tool) !== i)
  if (twice) throw new ToolArchiveError('tool', `${toolName(twice.tool)} is given twice; give one file per tool`, twice.tool)
  const checked = await Promise.all(archives.map((a) => checkToolArchiveFile(a, cwd)))
  return checked.map(({ bytes: _bytes, ...archive }) => archive)
}

/** What `tools:checkArchive` answers: the file checked, its SHA-256 and how it is trusted (the SHA-256 given must match). */
export async function describeToolArchive(archive: ToolArchive): Promise<{
  tool: ToolId
  path: string
  bytes: number
  sha256: string
  program: boolean
  trust: 'pinned' | 'given' | 'recorded'
  release?: string
}> {
  const file = await checkToolArchiveFile(archive)
  const [sha256, head] = await Promise.all([sha256Of(file.path), headOf(file.path)])
  const trust = archiveTrust(archive.tool, sha256, archive.sha256)
  if (!trust.ok) throw new ToolArchiveError('sha256', `The ${toolName(archive.tool)} file ${file.path}: ${trust.reason}; download it again and compare its SHA-256 with the one published with it`, archive.tool)
  return { tool: archive.tool, path: file.path, bytes: file.bytes, sha256, program: isProgram(head), trust: trust.how, ...(trust.how === 'pinned' ? { release: trust.release.release } : {}) }
}

/** Where each tool comes from for a run: the files brought and the tool paths the targets name. */
export function toolSourcesOf(archives: readonly ToolArchive[], inventory: readonly Target[]): ToolSources {
  return { archives, targetPaths: Object.fromEntries(inventory.flatMap((t) => (t.toolPaths ? [[t.name, t.toolPaths] as const] : []))) }
}
