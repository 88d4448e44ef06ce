import { shJoin } from '../../../shared/shell-quote'
import { iozoneSourceBuild } from '../iozone/install'
import { TOOLS } from '../registry'
import type { ToolId } from '../types'
import { unixbenchSourceBuild } from '../unixbench/install'
import type { PinnedRelease, SourceBuild } from './types'

export type { PinnedRelease, SourceBuild } from './types'

/** The tools that can come from this computer as a source archive, and how each is built. */
export const SOURCE_BUILDS: Readonly<Partial<Record<ToolId, SourceBuild>>> = {
  iozone: iozoneSourceBuild,
  unixbench: unixbenchSourceBuild
}

const SHA256 = /^[0-9a-f]{64}$/

/** What the admin gives: a tool, a file on this computer, and optionally the SHA-256 it must have. */
export interface ToolArchive {
  tool: ToolId
  path: string
  sha256?: string
}

/** `TOOL=PATH` (--tool-archive) into its parts, or the reason it is not one. */
export function parseToolArchive(text: string): { tool: ToolId; path: string } | { error: string } {
  const eq = text.indexOf('=')
  const tool = eq > 0 ? text.slice(0, eq) : ''
  const path = eq > 0 ? text.slice(eq + 1) : ''
  const known = Object.keys(SOURCE_BUILDS).join(', ')
  if (!tool || !path) return { error: `"${text}" is not TOOL=FILE (for example iozone=./iozone3_489.orig.tar.gz)` }
  if (!(tool in SOURCE_BUILDS)) return { error: `"${tool}" cannot come from an archive: only ${known} can (the others are packaged by the distributions)` }
  return { tool: tool as ToolId, path }
}

/** `TOOL=HEX` (--tool-sha256) into its parts, or the reason it is not one. */
export function parseToolChecksum(text: string): { tool: ToolId; sha256: string } | { error: string } {
  const eq = text.indexOf('=')
  const tool = eq > 0 ? text.slice(0, eq) : ''
  const sha256 = (eq > 0 ? text.slice(eq + 1) : '').toLowerCase()
  if (!(tool in SOURCE_BUILDS)) return { error: `"${text}" does not name a tool that can come from an archive (${Object.keys(SOURCE_BUILDS).join(', ')})` }
  if (!SHA256.test(sha256)) return { error: `the SHA-256 of ${tool} must be 64 hexadecimal digits (sha256sum prints it), not "${text.slice(eq + 1)}"` }
  return { tool: tool as ToolId, sha256 }
}

/** Why an archive may be used: a pinned release, the checksum the admin gave, or only recorded; or refused. */
export type ArchiveTrust =
  | { ok: true; how: 'pinned'; release: PinnedRelease }
  | { ok: true; how: 'given' }
  | { ok: true; how: 'recorded' }
  | { ok: false; reason: string }

/**
 * Whether an archive whose SHA-256 is `actual` may be uploaded: it matches the checksum the admin
 * gave (refused when it does not), or a pinned release, or neither (then it is used and its
 * checksum recorded in the run, with a warning).
 */
export function archiveTrust(tool: ToolId, actual: string, given: string | undefined): ArchiveTrust {
  const release = SOURCE_BUILDS[tool]?.releases.find((r) => r.sha256 === actual)
  if (given !== undefined && given !== actual) {
    return { ok: false, reason: `its SHA-256 is ${actual}, not ${given} as given: it is another file, or damaged` }
  }
  if (release) return { ok: true, how: 'pinned', release }
  return given !== undefined ? { ok: true, how: 'given' } : { ok: true, how: 'recorded' }
}

/** Whether the file's first bytes are an ELF program's (brought ready-built) rather than an archive. */
export function isProgram(head: Uint8Array): boolean {
  return head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46
}

/** Where the target keeps what was built, by checksum: `<home>/.cache/virtbench/tools`. */
export function cacheRoot(homeDir: string): string {
  return `${homeDir.replace(/\/+$/, '')}/.cache/virtbench/tools`
}

/** The cache folder of one archive or program: `<root>/<tool>-<sha256>`. */
export function cacheDir(root: string, tool: ToolId, sha256: string): string {
  return `${root}/${tool}-${sha256}`
}

/** What the plans use from a cache folder: its program, or the folder itself. */
export function toolPathIn(dir: string, build: SourceBuild): string {
  return build.result.kind === 'program' ? `${dir}/bin/${build.result.file}` : `${dir}/tool`
}

/** Prints `cached <path>` when a cache folder holds the tool ready, else `absent`. */
export function cachedScript(dir: string, build: SourceBuild): string {
  const path = toolPathIn(dir, build)
  return `if ${ready(path, build)}; then printf 'cached %s\\n' ${shJoin([path])}; else echo absent; fi`
}

/** The test that a built tool is in place: a program that runs, or a folder. */
function ready(path: string, build: SourceBuild): string {
  return build.result.kind === 'program' ? `[ -x ${shJoin([path])} ]` : `[ -d ${shJoin([path])} ]`
}

/** Exit codes of the scripts below, and what each means. */
export const PROVISION_EXIT = { checksum: 4, buildTools: 5, unpack: 6, build: 7 } as const

const FAIL = `fail() { printf '%s\\n' "$2" >&2; exit "$1"; }`

function checkUpload(upload: string, sha256: string): string[] {
  return [
    `got=$(sha256sum ${shJoin([upload])} 2>/dev/null | cut -d ' ' -f 1) || got=''`,
    `[ "$got" = ${sha256} ] || fail ${PROVISION_EXIT.checksum} "the uploaded file's SHA-256 is \${got:-unreadable}, not ${sha256}: the upload was damaged or sha256sum is missing"`
  ]
}

/**
 * Unpacks an uploaded source archive next to the cache, builds it with make in the folder that
 * holds the build's marker, and moves the result into the cache folder `dir` in one rename (a
 * second run, or one that was stopped, never sees half a build). Prints `built <path>`; on failure
 * the last lines of make's output go to stderr and the exit status says which step failed
 * (PROVISION_EXIT). The build log is kept in the cache folder.
 */
export function buildScript(opts: { upload: string; sha256: string; dir: string; build: SourceBuild; machine: string; tool: string }): string {
  const { upload, sha256, dir, build } = opts
  const root = dir.slice(0, dir.lastIndexOf('/'))
  const make = shJoin(['make', ...build.makeArgs(opts.machine)])
  const keep =
    build.result.kind === 'program'
      ? [
          `[ -x "$src/${build.result.file}" ] || fail ${PROVISION_EXIT.build} "make ran but left no ${build.result.file} program in $src"`,
          `mkdir -p "$work/out/bin" && cp "$src/${build.result.file}" "$work/out/bin/${build.result.file}"`
        ]
      : ['mkdir -p "$work/out" && mv "$src" "$work/out/tool"']
  return [
    'set -u',
    FAIL,
    ...checkUpload(upload, sha256),
    `for t in make cc tar; do command -v "$t" >/dev/null 2>&1 || fail ${PROVISION_EXIT.buildTools} "$t is not installed: building ${opts.tool} needs ${build.buildTools}"; done`,
    `work=$(mktemp -d ${shJoin([`${root}/build.XXXXXX`])}) || fail ${PROVISION_EXIT.unpack} ${shJoin([`cannot make a build folder in ${root}`])}`,
    `trap ${shJoin([`rm -rf "$work" ${shJoin([upload])}`])} EXIT`,
    `mkdir "$work/src" && tar -xf ${shJoin([upload])} -C "$work/src" 2>"$work/tar.log" || { tail -n 5 "$work/tar.log" >&2; fail ${PROVISION_EXIT.unpack} "the archive does not unpack with tar (tar.gz, tar.xz, tar.bz2 or tar)"; }`,
    // the shallowest marker: src/current/iozone.c of iozone's tarball, UnixBench/Run of byte-unixbench
    `marker=$(find "$work/src" -type f -name ${shJoin([build.marker])} | awk '{ print length($0) " " $0 }' | sort -n | head -n 1 | cut -d ' ' -f 2-)`,
    `[ -n "$marker" ] || fail ${PROVISION_EXIT.unpack} "the archive holds no ${build.marker}: is it ${opts.tool}'s source?"`,
    'src=$(dirname "$marker")',
    `(cd "$src" && ${make}) >"$work/build.log" 2>&1 || { tail -n 20 "$work/build.log" >&2; fail ${PROVISION_EXIT.build} ${shJoin([`${make} failed on this target (its last lines are above)`])}; }`,
    ...keep,
    'cp "$work/build.log" "$work/out/build.log"',
    // two targets on one machine (or one home over NFS) may build at once: the first build in place wins
    `[ -e ${shJoin([dir])} ] || mv "$work/out" ${shJoin([dir])}`,
    `${ready(toolPathIn(dir, build), build)} || fail ${PROVISION_EXIT.unpack} ${shJoin([`cannot move the build into ${dir}`])}`,
    `printf 'built %s\\n' ${shJoin([toolPathIn(dir, build)])}`
  ].join('\n')
}

/** Puts an uploaded program (checked by its SHA-256) into the cache folder `dir`. Prints `placed <path>`. */
export function placeProgramScript(opts: { upload: string; sha256: string; dir: string; file: string }): string {
  const { upload, sha256, dir, file } = opts
  return [
    'set -u',
    FAIL,
    `trap ${shJoin([`rm -f ${shJoin([upload])}`])} EXIT`,
    ...checkUpload(upload, sha256),
    `part=$(mktemp -d ${shJoin([`${dir}.part.XXXXXX`])}) || fail ${PROVISION_EXIT.unpack} ${shJoin([`cannot make a folder beside ${dir}`])}`,
    `mkdir "$part/bin" && chmod 755 ${shJoin([upload])} && mv ${shJoin([upload])} "$part/bin/${file}" || fail ${PROVISION_EXIT.unpack} ${shJoin([`cannot place the program in ${dir}`])}`,
    `[ -e ${shJoin([dir])} ] || mv "$part" ${shJoin([dir])}`,
    'rm -rf "$part"',
    `[ -x ${shJoin([`${dir}/bin/${file}`])} ] || fail ${PROVISION_EXIT.unpack} ${shJoin([`cannot place the program in ${dir}`])}`,
    `printf 'placed %s\\n' ${shJoin([`${dir}/bin/${file}`])}`
  ].join('\n')
}

/** Whether a path a target names for a tool is there: prints `present` or `absent`. */
export function toolPathScript(path: string, build: SourceBuild | undefined): string {
  const test = build?.result.kind === 'folder' ? '-d' : '-x'
  return `if [ ${test} ${shJoin([path])} ]; then echo present; else echo absent; fi`
}

/** The tool's name as people know it ("IOzone"). */
export function toolName(tool: ToolId): string {
  return TOOLS[tool].name
}
