/**
 * Checking sudo before the first command that needs it, on any session. A password is sent only
 * when sudo asks for one: with NOPASSWD (or no password needed) the command runs with `sudo -n`,
 * so the password can never end up on the command's stdin.
 */
import { commandStdin, sudoProbeCommand } from './remote-command'
import { SessionError, type SudoMode } from './types'

export interface ProbeOutcome {
  exitCode: number | null
  stderr: string
}

/** Runs a command line (no wrapper) with the given stdin. */
export type ProbeRunner = (line: string, stdin: Buffer) => Promise<ProbeOutcome>

function said(out: ProbeOutcome): string {
  const first = out.stderr.trim().split('\n')[0]?.slice(0, 200)
  return first ? first : `exit ${out.exitCode}`
}

/** The sudo mode to run commands with, or a SessionError saying why sudo cannot be used. */
export async function resolveSudo(label: string, requested: Exclude<SudoMode, false>, run: ProbeRunner): Promise<SudoMode> {
  const passwordless = await run(sudoProbeCommand({ mode: 'passwordless' }), Buffer.alloc(0))
  if (passwordless.exitCode === 0) return { mode: 'passwordless' }
  if (passwordless.exitCode === 127 || /sudo: (command )?not found|sudo: No such file/i.test(passwordless.stderr)) {
    throw new SessionError('sudo', `sudo is not installed on ${label}: install it, or connect as root`, label)
  }
  if (requested.mode === 'passwordless') {
    throw new SessionError(
      'sudo',
      `sudo on ${label} needs a password (sudo -n true said: ${said(passwordless)}); ` +
        'enter the sudo password in the target settings, or allow this user NOPASSWD',
      label
    )
  }
  const withPassword = await run(sudoProbeCommand(requested), commandStdin(undefined, requested))
  if (withPassword.exitCode === 0) return requested
  throw new SessionError(
    'sudo',
    `sudo on ${label} did not accept the stored password, or this user may not use sudo (sudo said: ${said(withPassword)}); ` +
      'check the password in the target settings',
    label
  )
}

/** A cache key for a requested mode that does not keep the password in clear. */
export function sudoKey(sudo: Exclude<SudoMode, false>, hash: (s: string) => string): string {
  return sudo.mode === 'password' ? `password:${hash(sudo.password)}` : 'passwordless'
}
