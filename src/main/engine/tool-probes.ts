import { findTool } from '../tools/registry'
import type { ToolId, VersionProbe } from '../tools/types'

/**
 * The `--tool ID KIND COMMAND ARGS PICK` arguments of preflight.sh and environment.sh
 * (resources/scripts/linux/tool-version.sh): how each tool is found and its version read, as its
 * folder declares it. `folders` puts a folder first for a tool found by folder (the plan's
 * UnixBench folder). Ids that name no tool are left out and returned apart.
 */
export function toolProbeArgs(ids: readonly string[], folders: Partial<Record<ToolId, string>> = {}): { args: string[]; unknown: string[] } {
  const args: string[] = []
  const unknown: string[] = []
  for (const id of ids) {
    const tool = findTool(id)
    if (!tool) {
      unknown.push(id)
      continue
    }
    args.push('--tool', id, ...probeFields(tool.version, folders[tool.id]))
  }
  return { args, unknown }
}

function probeFields(probe: VersionProbe, firstFolder: string | undefined): [string, string, string, string] {
  switch (probe.kind) {
    case 'command':
      return ['command', probe.command, probe.args.join(' '), probe.pick ?? '']
    case 'package':
      return ['package', probe.command, '', probe.package]
    case 'folder':
      return ['folder', probe.file, [...(firstFolder ? [firstFolder] : []), ...probe.folders].join(':'), probe.pick]
  }
}
