/**
 * virsh on the physical host, through the host's session (with its sudo when it has one). Every
 * call has a deadline; a failure is a ScenarioError that says which host, which command, what
 * virsh said and what to do. virsh reads the host's default connection URI (root's
 * qemu:///system, or LIBVIRT_DEFAULT_URI / uri_default of the login user without sudo).
 */
import { quoteSh } from '../../shared/shell-quote'
import { SessionError, type Session, type SudoMode } from '../ssh/types'

export interface DomainHost {
  /** The host's name, for messages. */
  label: string
  session: Session
  sudo: SudoMode
}

export type ScenarioStage = 'read' | 'validate' | 'apply' | 'restart' | 'boot' | 'verify' | 'restore'

export class ScenarioError extends Error {
  override readonly name = 'ScenarioError'
  constructor(
    readonly stage: ScenarioStage,
    message: string,
    /** Details for the run folder (XML diff, serial console tail). */
    readonly details?: string
  ) {
    super(message)
  }
}

export const VIRSH_TIMEOUT_MS = 60_000
const MAX_BYTES = 4 * 1024 * 1024

export interface VirshResult {
  ok: boolean
  stdout: string
  /** What virsh said on failure (its stderr, or the timeout). */
  said: string
  /** Why virsh did not run at all: the host has no virsh, or sudo refused to run it. */
  refused?: 'no-virsh' | 'sudo'
}

/** Runs `virsh ARGS...` on the host (an argument "-" is `stdin`, as a file); never throws for virsh's own failures. */
export async function virsh(host: DomainHost, args: readonly string[], opts: { stdin?: string; timeoutMs?: number } = {}): Promise<VirshResult> {
  const timeoutMs = opts.timeoutMs ?? VIRSH_TIMEOUT_MS
  // a file argument "-" stands for the stdin text, passed through a temporary file (virsh
  // cannot open /dev/stdin when stdin is a socket, as it is over SSH or from the local session)
  const command = opts.stdin === undefined
    ? { argv: ['virsh', ...args] }
    : { script: `f=$(mktemp) || exit 1; cat > "$f"; virsh ${args.map((a) => (a === '-' ? '"$f"' : quoteSh(a))).join(' ')}; rc=$?; rm -f -- "$f"; exit $rc` }
  let result
  try {
    result = await host.session.exec(
      command,
      { capture: { maxBytes: MAX_BYTES }, timeoutMs, env: { LC_ALL: 'C' }, ...(host.sudo ? { sudo: host.sudo } : {}), ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}) }
    )
  } catch (error) {
    // sudo refusing (checked once per session) is not virsh's failure: it says what to set on the target
    if (error instanceof SessionError && error.code === 'sudo') return { ok: false, stdout: '', said: error.message, refused: 'sudo' }
    throw error
  }
  const stdout = result.stdout?.toString('utf8') ?? ''
  const stderr = (result.stderr?.toString('utf8') ?? '').trim()
  if (result.timedOut) return { ok: false, stdout, said: `no answer within ${Math.round(timeoutMs / 1000)} s` }
  if (result.exitCode === 127 || /virsh: (command )?not found/.test(stderr)) {
    return { ok: false, stdout, said: 'virsh is not installed (install libvirt-clients)', refused: 'no-virsh' }
  }
  return { ok: result.exitCode === 0, stdout, said: stderr.replace(/^error: /gm, '').split('\n').filter((l) => l.trim() !== '').join('; ') || `exit ${result.exitCode}` }
}

/** virsh ARGS, or a ScenarioError at `stage` naming the host, the command and what virsh said. */
export async function virshOrFail(host: DomainHost, stage: ScenarioStage, args: readonly string[], fix: string, opts: { stdin?: string; timeoutMs?: number } = {}): Promise<string> {
  const r = await virsh(host, args, opts)
  if (!r.ok) throw new ScenarioError(stage, `virsh ${args.join(' ')} failed on ${host.label}: ${r.said}. ${fix}`)
  return r.stdout
}
