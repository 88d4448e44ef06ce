import { shJoin } from '../../../shared/shell-quote'
import type { Session, SudoMode } from '../../ssh/types'
import { TOOLS } from '../../tools/registry'
import type { InstallRecipe, PackageManager, ToolId } from '../../tools/types'

/**
 * Installing a missing tool: built from the tool's own install recipes (src/main/tools/<id>/install.ts).
 * Nothing here runs by itself: the preflight offers the command, the caller asks the user, and
 * only then calls runInstall().
 */

/** Each package manager's non-interactive install command. */
const INSTALL_ARGV: Record<PackageManager, readonly string[]> = {
  apt: ['apt-get', 'install', '-y'],
  dnf: ['dnf', 'install', '-y'],
  yum: ['yum', 'install', '-y'],
  zypper: ['zypper', '--non-interactive', 'install'],
  apk: ['apk', 'add']
}

export interface InstallPlan {
  tool: ToolId
  packageManager: PackageManager
  /** The package manager's argv, without sudo (runInstall adds the target's sudo). */
  packages?: readonly string[]
  /** Shell commands that build the tool from source afterwards, run as the login user. */
  build: readonly string[]
  /** The recipes' own notes: repositories to enable (EPEL, non-free), versions. */
  notes: readonly string[]
}

/** How to install `tool` with `packageManager`, or undefined when its recipes have no way. */
export function installPlan(tool: ToolId, packageManager: PackageManager): InstallPlan | undefined {
  const recipes: readonly InstallRecipe[] = TOOLS[tool].install
  const pkg = recipes.find((r): r is Extract<InstallRecipe, { kind: 'package' }> => r.kind === 'package' && r.manager === packageManager)
  const source = recipes.find((r): r is Extract<InstallRecipe, { kind: 'source' }> => r.kind === 'source')
  const needsBuild = !pkg || pkg.buildsFromSource === true
  const build = needsBuild && source ? source.commands : []
  if (!pkg && build.length === 0) return undefined
  const notes = [pkg?.note, needsBuild ? source?.note : undefined].filter((n): n is string => Boolean(n))
  return {
    tool,
    packageManager,
    ...(pkg ? { packages: [...INSTALL_ARGV[packageManager], ...pkg.packages] } : {}),
    build,
    notes
  }
}

/**
 * The install command as a person would type it on the target: `sudo apt-get install -y fio`,
 * then the build commands when the tool comes from source. `sudo` false: without the sudo prefix
 * (the login user is root).
 */
export function installCommand(tool: ToolId, packageManager: PackageManager | undefined, sudo: boolean): string | undefined {
  if (!packageManager) return undefined
  const plan = installPlan(tool, packageManager)
  return plan ? displayInstall(plan, sudo) : undefined
}

export function displayInstall(plan: InstallPlan, sudo: boolean): string {
  const parts = plan.packages ? [shJoin([...(sudo ? ['sudo'] : []), ...plan.packages])] : []
  return [...parts, ...plan.build].join(' && ')
}

export interface InstallStepResult {
  command: string
  /** Ran as root (through the session's sudo). */
  sudo: boolean
  exitCode: number | null
  timedOut: boolean
  cancelled: boolean
  /** The last part of its output, for the log. */
  outputTail: string
}

export interface InstallResult {
  ok: boolean
  steps: InstallStepResult[]
  /** What went wrong, for a person: which command, on which target, and its last output line. */
  error?: string
}

export interface RunInstallOptions {
  /** Per command (default 15 minutes: a package download, a compile). */
  timeoutMs?: number
  signal?: AbortSignal
}

const TAIL_BYTES = 8192

/**
 * Installs what `plan` says on the session's target: the packages through `sudo` (false when the
 * login user is root), then the build commands as the login user in the home directory, stopping
 * at the first failure. Call it only after the user said yes.
 */
export async function runInstall(session: Session, plan: InstallPlan, sudo: SudoMode, opts: RunInstallOptions = {}): Promise<InstallResult> {
  const timeoutMs = opts.timeoutMs ?? 15 * 60_000
  const commands: { script: string; root: boolean }[] = [
    ...(plan.packages ? [{ script: shJoin(plan.packages), root: true }] : []),
    ...plan.build.map((script) => ({ script, root: false }))
  ]
  const steps: InstallStepResult[] = []
  const home = (await session.facts()).homeDir
  for (const { script, root } of commands) {
    const result = await session.exec(
      { script: `exec 2>&1; ${script}` },
      {
        capture: { maxBytes: TAIL_BYTES, keep: 'tail' },
        timeoutMs,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(root && sudo ? { sudo } : {}),
        ...(root && plan.packageManager === 'apt' ? { env: { DEBIAN_FRONTEND: 'noninteractive' } } : {}),
        ...(root ? {} : { cwd: home })
      }
    )
    const outputTail = result.stdout?.toString('utf8') ?? ''
    steps.push({ command: script, sudo: root && Boolean(sudo), exitCode: result.exitCode, timedOut: result.timedOut, cancelled: result.cancelled, outputTail })
    if (result.exitCode !== 0) {
      const how = result.cancelled
        ? 'was cancelled'
        : result.timedOut
          ? `did not finish within ${Math.round(timeoutMs / 1000)} s`
          : result.exitCode === null
            ? `was ended by signal ${result.signal ?? '?'}`
            : `failed with exit status ${result.exitCode}`
      const last = outputTail.trim().split('\n').pop()?.trim()
      return {
        ok: false,
        steps,
        error: `installing ${TOOLS[plan.tool].name} on ${session.label}: \`${script}\` ${how}${last ? `: ${last}` : ''}. Run it there by hand to see the whole output.`
      }
    }
  }
  return { ok: true, steps }
}
