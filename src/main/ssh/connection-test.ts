import type { DetectedOs, Target } from '../../shared/model/target'
import type { ConnectionStage, ConnectionStageName, ConnectionTestResult } from '../../shared/targets-contract'
import { isConnectError, type ConnectStage, type StageDetail } from './connect'
import type { Session, SessionFacts } from './types'
import { decideVirtualization, VIRT_FACT_NAMES, type VirtFacts } from '../../shared/virtualization'

export type StageListener = (stage: ConnectionStage) => void

/** What the connection test needs: a session whose first connect reports its stages. */
export interface ConnectionTestDeps {
  /** Opens a session to the target; `onConnectStage` is told of each connect stage of the first connect. */
  openSession(onConnectStage: (stage: ConnectStage, detail: StageDetail) => void): Session
  sudoPassword?: () => Promise<string | undefined>
  now?: () => number
  isoNow?: () => string
}

const CONNECT_STAGES: readonly ConnectionStageName[] = ['tcp', 'host-key', 'auth']

/**
 * Connects to a target the way a run will, one stage at a time (TCP, host key, login, sudo,
 * OS and virtualization), telling `onStage` as each starts and ends. Never throws: a failure
 * marks its stage failed, the later ones skipped, and says what went wrong in `error`.
 */
export async function testConnection(target: Target, deps: ConnectionTestDeps, onStage: StageListener): Promise<ConnectionTestResult> {
  const now = deps.now ?? Date.now
  const stages = new Map<ConnectionStageName, ConnectionStage>()
  const startedAt = new Map<ConnectionStageName, number>()
  const set = (stage: ConnectionStage): void => {
    stages.set(stage.stage, stage)
    onStage(stage)
  }
  const start = (name: ConnectionStageName, detail?: string): void => {
    if (stages.get(name)?.status === 'ok') return
    if (!startedAt.has(name)) startedAt.set(name, now())
    set({ stage: name, status: 'running', ...(detail !== undefined && { detail }) })
  }
  const finish = (name: ConnectionStageName, status: 'ok' | 'failed' | 'skipped', detail?: string): void => {
    if (status === 'ok' && stages.get(name)?.status !== 'running') return
    const began = startedAt.get(name)
    const previous = stages.get(name)?.detail
    const text = detail ?? previous
    set({
      stage: name,
      status,
      ...(text !== undefined && { detail: text }),
      ...(began !== undefined && { elapsedMs: Math.max(0, now() - began) })
    })
  }
  const running = (): ConnectionStageName | undefined => [...stages.values()].find((s) => s.status === 'running')?.stage
  const skipRest = (from: readonly ConnectionStageName[]): void => {
    for (const name of from) if (!stages.has(name)) set({ stage: name, status: 'skipped' })
  }

  let session: Session | undefined
  try {
    if (target.kind === 'local') {
      for (const name of CONNECT_STAGES) set({ stage: name, status: 'skipped', detail: 'this computer: no SSH needed' })
    }
    session = deps.openSession((stage, detail) => {
      const isTarget = detail.hop.role === 'target'
      const hopNote = isTarget ? '' : ` (jump host ${detail.hop.label})`
      if (stage === 'tcp') {
        if (!stages.has('tcp')) start('tcp', detail.message)
        else set({ stage: 'tcp', status: 'running', detail: detail.message })
      } else if (stage === 'host-key') {
        if (isTarget) finish('tcp', 'ok', `${detail.hop.host}:${detail.hop.port} reachable`)
        const key = detail.fingerprint ? `${detail.keyType ?? 'key'} ${detail.fingerprint}${hopNote}` : detail.message
        if (isTarget) start('host-key', key)
        else set({ stage: 'tcp', status: 'running', detail: `checking ${key}` })
      } else if (stage === 'auth') {
        if (isTarget) {
          finish('host-key', 'ok')
          start('auth', detail.message)
        }
      } else if (stage === 'ready' && isTarget) {
        finish('auth', 'ok', `logged in as ${target.kind === 'ssh' ? target.user : ''}`.trim())
      }
    })

    const facts = await session.facts()
    for (const name of CONNECT_STAGES) if (stages.get(name)?.status === 'running') finish(name, 'ok')

    if (target.sudo === 'none') {
      set({ stage: 'sudo', status: 'skipped', detail: 'not used for this target' })
    } else {
      start('sudo')
      const password = target.sudo === 'password' ? await deps.sudoPassword?.() : undefined
      if (target.sudo === 'password' && password === undefined) throw new Error(`No sudo password is stored for "${target.name}". Edit the target and enter it.`)
      const result = await session.exec(
        facts.shell === 'windows' ? { script: 'exit 0' } : { argv: ['true'] },
        {
          sudo: password !== undefined ? { mode: 'password', password } : { mode: 'passwordless' },
          timeoutMs: 20_000
        }
      )
      if (result.exitCode !== 0) throw new Error(`sudo did not run a command on "${target.name}" (exit ${result.exitCode ?? result.signal}).`)
      finish('sudo', 'ok', target.sudo === 'password' ? 'works with the stored password' : 'works without a password')
    }

    start('os')
    const os = await detectOs(session, facts, deps.isoNow ?? (() => new Date().toISOString()))
    finish('os', 'ok', describeOs(os))
    return { targetId: target.id, ok: true, stages: ordered(stages), os }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const failedAt = connectStageOf(error)
    const current = running() ?? (stages.has(failedAt) ? undefined : failedAt)
    // Stages before the one that failed were passed (e.g. a missing agent fails login before any TCP).
    for (const name of CONNECT_STAGES) {
      if (name === current) break
      if (!stages.has(name)) set({ stage: name, status: 'skipped' })
    }
    if (current) finish(current, 'failed', message)
    skipRest(['tcp', 'host-key', 'auth', 'sudo', 'os'])
    return { targetId: target.id, ok: false, stages: ordered(stages), error: message }
  } finally {
    await session?.close().catch(() => {})
  }
}

/** The stage a connect failure belongs to: a ConnectError (maybe wrapped by the session) says so. */
function connectStageOf(error: unknown): ConnectionStageName {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isConnectError(e)) return e.stage === 'ready' ? 'auth' : e.stage
  }
  return 'tcp'
}

function ordered(stages: Map<ConnectionStageName, ConnectionStage>): ConnectionStage[] {
  return (['tcp', 'host-key', 'auth', 'sudo', 'os'] as const).flatMap((name) => {
    const stage = stages.get(name)
    return stage ? [stage] : []
  })
}

const LINUX_PROBE = [
  'if [ -r /etc/os-release ]; then . /etc/os-release; fi',
  'printf "name=%s\\n" "${PRETTY_NAME:-$(uname -s)}"',
  // the facts environment.sh prints, under the same names, decided by the same function
  'if command -v systemd-detect-virt >/dev/null 2>&1; then',
  '  printf "virt_systemd=%s\\n" "$(systemd-detect-virt --vm 2>/dev/null)"',
  '  printf "container_systemd=%s\\n" "$(systemd-detect-virt --container 2>/dev/null)"',
  'elif command -v virt-what >/dev/null 2>&1 && [ "$(id -u 2>/dev/null)" = 0 ]; then',
  '  w=$(timeout 10 virt-what 2>/dev/null | tr "\\n" " ")',
  '  printf "virt_what=%s\\n" "${w:-none}"',
  'fi',
  'printf "dmi_vendor=%s\\n" "$(head -n 1 /sys/class/dmi/id/sys_vendor 2>/dev/null)"',
  'printf "dmi_product=%s\\n" "$(head -n 1 /sys/class/dmi/id/product_name 2>/dev/null)"',
  'printf "hypervisor_type=%s\\n" "$(head -n 1 /sys/hypervisor/type 2>/dev/null)"',
  'if [ -r /proc/cpuinfo ]; then',
  '  if grep "^flags" /proc/cpuinfo | head -n 1 | grep -qw hypervisor; then echo cpu_hypervisor_flag=yes; else echo cpu_hypervisor_flag=no; fi',
  'fi'
].join('\n')

const WINDOWS_PROBE = [
  '$os = Get-CimInstance Win32_OperatingSystem',
  '$cs = Get-CimInstance Win32_ComputerSystem',
  '"name=" + $os.Caption',
  '"virt=" + $(if ($cs.Model -match "Virtual|VMware|KVM|QEMU|Xen|HVM") { $cs.Model } else { "none" })'
].join('\n')

async function detectOs(session: Session, facts: SessionFacts, isoNow: () => string): Promise<DetectedOs> {
  const windows = facts.shell === 'windows'
  const result = await session.exec({ script: windows ? WINDOWS_PROBE : LINUX_PROBE }, { capture: { maxBytes: 8192 }, timeoutMs: 20_000 })
  const values = new Map<string, string>()
  for (const line of (result.stdout?.toString('utf8') ?? '').split(/\r?\n/)) {
    const eq = line.indexOf('=')
    if (eq > 0) values.set(line.slice(0, eq), line.slice(eq + 1).trim().slice(0, 200))
  }
  const name = values.get('name')
  const virtualization = windows ? values.get('virt') : linuxVirtualization(values, facts.machine)
  return {
    family: windows ? 'windows' : 'linux',
    ...(name ? { name } : {}),
    ...(facts.release ? { kernel: facts.release.slice(0, 200) } : {}),
    ...(facts.machine ? { arch: facts.machine.slice(0, 200) } : {}),
    ...(virtualization ? { virtualization } : {}),
    detectedAt: isoNow()
  }
}

/** The Linux probe's facts decided as the environment capture decides them. */
function linuxVirtualization(values: ReadonlyMap<string, string>, arch: string | undefined): string | undefined {
  const facts: VirtFacts = {}
  for (const [name, field] of Object.entries(VIRT_FACT_NAMES)) {
    const value = values.get(name)?.trim()
    if (value) facts[field] = value
  }
  return decideVirtualization(facts, arch).virtualization
}

export function describeOs(os: DetectedOs): string {
  const parts = [os.name ?? os.family, os.kernel, os.arch].filter(Boolean).join(', ')
  const virt = os.virtualization === undefined ? '' : os.virtualization === 'none' ? ' · bare metal' : ` · ${os.virtualization}`
  return parts + virt
}
