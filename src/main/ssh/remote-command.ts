/**
 * POSIX command lines for a target: the wrapper every command runs in, the sudo prefixes, and the
 * script that stops a command's process group. Pure functions of their inputs.
 *
 * The wrapper, as sent to the target's login shell (sshd runs it as `<shell> -c <line>`):
 *
 *   exec [sudo -n --] /bin/sh -c '<inner>'     zsh, fish, csh... and every sudo command
 *   set -o posix; <inner>                      bash (saves starting /bin/sh, ~0.5 ms)
 *   <inner>                                    sh, dash, ash
 *
 * and <inner> first announces itself, then runs the command:
 *
 *   { kill -s 0 -- "-$$"; } 2>/dev/null && vb_pg=$$ ||                # our process group: our pid when
 *     { read -r _ _ _ _ vb_pg _ 2>/dev/null </proc/$$/stat || vb_pg=$$; }  # we lead one, else as /proc says
 *   printf '\036VB<nonce>:%s:%s\n' "$$" "$vb_pg" >&2                  # pid and group, on stderr
 *   printf '\036VB<nonce>\n'                                           # start of real stdout (*)
 *   export NAME='value'; cd -- '<cwd>' || exit 1
 *   <command>                                  (`exec <argv>` for an argv)
 *
 * Whatever a shell rc file prints before that (a banner from .bashrc) comes before the markers
 * and is dropped; the markers themselves are stripped. (*) A quiet login (`quietLogin`: a POSIX sh
 * login, which reads no rc file for a command, whose probe saw nothing before its own marker) has
 * no stdout marker without sudo: nothing can come before the command's own output there, and the
 * command costs one packet less. OpenSSH starts each command in a new
 * session (setsid), so the shell's group holds everything the command starts: stopping it means
 * signalling that group, from a second command on the same connection (under sudo the group
 * is read inside the sudo'd shell, which may be in a session of its own with `use_pty`).
 */
import { Readable } from 'node:stream'
import { quoteSh, shJoin } from '../../shared/shell-quote'
import { SessionError, type RemoteCommand, type StdinSource, type SudoMode } from './types'

/** Start of every marker line: ASCII record separator, then "VB". */
export const MARKER_LEAD = '\x1eVB'

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const NONCE = /^[A-Za-z0-9]{6,32}$/

/** The shell text of a command: an argv quoted argument by argument, or a script as given. */
export function commandText(command: RemoteCommand | string): string {
  if (typeof command === 'string') return command
  if ('argv' in command) {
    if (command.argv.length === 0) throw new SessionError('invalid', 'an empty argv cannot be run', '')
    return shJoin(command.argv)
  }
  return command.script
}

/** A short, one-line form of a command for messages ("connection lost while running <this>"). */
export function shortCommand(command: RemoteCommand | string, max = 60): string {
  const text = typeof command !== 'string' && 'argv' in command ? command.argv.join(' ') : commandText(command)
  const firstLine = text.trim().split('\n')[0] ?? ''
  const suffix = firstLine.length > max || text.trim().includes('\n') ? '…' : ''
  return firstLine.slice(0, max) + suffix
}

/** Throws a SessionError naming the first invalid variable name or value. */
export function validateEnv(env: Readonly<Record<string, string>> | undefined, target = ''): void {
  for (const [name, value] of Object.entries(env ?? {})) {
    if (!ENV_NAME.test(name)) {
      throw new SessionError(
        'invalid',
        `environment variable name ${JSON.stringify(name)} is not allowed: use letters, digits and _ (not first a digit)`,
        target
      )
    }
    if (typeof value !== 'string' || value.includes('\0')) {
      throw new SessionError('invalid', `environment variable ${name} must be a string without NUL bytes`, target)
    }
  }
}

/** The argv that runs a command as root in a sudo mode; empty without sudo. */
export function sudoArgv(sudo: SudoMode | undefined): string[] {
  if (!sudo) return []
  // -k: never use cached credentials, so sudo always reads the password line we send and
  // never lets it through to the command's stdin.
  return sudo.mode === 'password' ? ['sudo', '-k', '-S', '-p', '', '--'] : ['sudo', '-n', '--']
}

/** What to write on stdin before the command's own input (the sudo password line). */
export function sudoStdinPrefix(sudo: SudoMode | undefined): string {
  return sudo && sudo.mode === 'password' ? `${sudo.password}\n` : ''
}

/** All a command gets on stdin: the sudo password line, if any, then its own input. */
export function commandStdin(stdin: string | Buffer | undefined, sudo: SudoMode | undefined): Buffer
export function commandStdin(stdin: string | Buffer | Readable | undefined, sudo: SudoMode | undefined): StdinSource
export function commandStdin(stdin: string | Buffer | Readable | undefined, sudo: SudoMode | undefined): StdinSource {
  if (stdin instanceof Readable) {
    if (sudoStdinPrefix(sudo)) throw new Error('a command whose input is streamed cannot take a sudo password on stdin')
    return stdin
  }
  const own = stdin === undefined ? Buffer.alloc(0) : Buffer.from(stdin)
  const prefix = sudoStdinPrefix(sudo)
  return prefix ? Buffer.concat([Buffer.from(prefix), own]) : own
}

/**
 * Gives a command its stdin: the bytes and then the end (at once when there are none), or a stream
 * piped as it comes; a stream that fails ends the input, as its end does.
 */
export function sendStdin(stdin: StdinSource, to: NodeJS.WritableStream): void {
  if (!Buffer.isBuffer(stdin)) {
    stdin.once('error', () => to.end())
    stdin.pipe(to)
  } else if (stdin.length > 0) to.end(stdin)
  else to.end()
}

/** A command that succeeds exactly when sudo in this mode can run commands here. */
export function sudoProbeCommand(sudo: SudoMode): string {
  return shJoin([...sudoArgv(sudo), 'true'])
}

/**
 * The family of the login shell sshd runs commands with: 'sh' and 'bash' run the wrapper
 * directly (bash in POSIX mode); anything else (zsh, fish, csh...) hands it to /bin/sh first.
 */
export type LoginShell = 'sh' | 'bash' | 'other'

/** Classifies a login shell path (`$SHELL`). */
export function loginShellOf(shellPath: string): LoginShell {
  const base = shellPath.trim().split('/').pop() ?? ''
  if (['sh', 'dash', 'ash', 'busybox'].includes(base)) return 'sh'
  if (base === 'bash') return 'bash'
  return 'other'
}

export interface PosixWrapOptions {
  /** Random letters and digits that make this session's markers unique. */
  nonce: string
  /** The target user's login shell family (default 'other': always go through /bin/sh). */
  loginShell?: LoginShell
  sudo?: SudoMode
  env?: Readonly<Record<string, string>>
  cwd?: string
  /**
   * Nothing comes on stdout before the command: a POSIX sh login (which reads no rc file for a
   * command) whose probe saw nothing before its marker (no ~/.ssh/rc output). Without sudo, stdout
   * then gets no marker of its own (one packet less per command); stderr's still names the process.
   */
  quietLogin?: boolean
}

/** The last line of the inner script. An argv replaces the shell: one process less, and its exit status or signal is the command's own. */
export function posixBody(command: RemoteCommand | string): string {
  return typeof command !== 'string' && 'argv' in command ? `exec ${commandText(command)}` : commandText(command)
}

/** The inner script: announce pid, group and start of output, set env and cwd, run `body`. */
export function posixInnerScript(body: string, opts: PosixWrapOptions): string {
  if (!NONCE.test(opts.nonce)) throw new Error(`marker nonce must be 6-32 letters or digits, got ${opts.nonce}`)
  validateEnv(opts.env)
  const lines = [
    // a group with our pid as its id is ours (sshd starts each command as a session leader): one
    // syscall; reading /proc/$$/stat (byte by byte, as sh reads) costs ~0.2 ms of the target's CPU
    '{ kill -s 0 -- "-$$"; } 2>/dev/null && vb_pg=$$ || { read -r _ _ _ _ vb_pg _ 2>/dev/null </proc/$$/stat || vb_pg=$$; }',
    `printf '\\036VB%s:%s:%s\\n' ${opts.nonce} "$$" "$vb_pg" >&2`,
    ...(marksStdout(opts) ? [`printf '\\036VB%s\\n' ${opts.nonce}`] : [])
  ]
  for (const [name, value] of Object.entries(opts.env ?? {})) lines.push(`export ${name}=${quoteSh(value)}`)
  if (opts.cwd !== undefined) lines.push(`cd -- ${quoteSh(opts.cwd)} || exit 1`)
  lines.push(body)
  return lines.join('\n')
}

/** Whether a wrapped command marks where its stdout starts (not for a quiet login without sudo). */
export function marksStdout(opts: Pick<PosixWrapOptions, 'quietLogin' | 'sudo' | 'loginShell'>): boolean {
  return !(opts.quietLogin === true && !opts.sudo && opts.loginShell === 'sh')
}

/**
 * The full command line for the target's login shell (see the file header). Without sudo and
 * with a POSIX login shell the inner script is sent as is, which saves starting /bin/sh.
 */
export function wrapPosix(command: RemoteCommand | string, opts: PosixWrapOptions): string {
  const inner = posixInnerScript(posixBody(command), opts)
  if (!opts.sudo && opts.loginShell === 'sh') return inner
  if (!opts.sudo && opts.loginShell === 'bash') return `set -o posix\n${inner}`
  return `exec ${shJoin([...sudoArgv(opts.sudo), '/bin/sh', '-c', inner])}`
}

/** The stdout marker of a nonce (ends the preamble of stdout). */
export function stdoutMarker(nonce: string): string {
  return `${MARKER_LEAD}${nonce}`
}

/** The stderr marker prefix of a nonce; the line goes on with `<pid>:<pgid>`. */
export function stderrMarker(nonce: string): string {
  return `${MARKER_LEAD}${nonce}:`
}

export interface ProcessIds {
  pid: number
  pgid: number
}

/** Reads `<pid>:<pgid>` from the rest of a stderr marker line. */
export function parseProcessIds(rest: string): ProcessIds | undefined {
  const m = /^(\d+):(\d+)\r?$/.exec(rest)
  if (!m) return undefined
  const pid = Number(m[1])
  const pgid = Number(m[2])
  return pid > 1 && pgid > 1 ? { pid, pgid } : undefined
}

/**
 * A script that sends TERM to process group `pgid`, waits up to `graceMs` for it to empty,
 * then sends KILL. Exits 0 when the group is gone (or was already gone).
 */
export function posixKillScript(pgid: number, graceMs: number): string {
  if (!Number.isInteger(pgid) || pgid <= 1) throw new Error(`refusing to signal process group ${pgid}`)
  const polls = Math.max(1, Math.ceil(graceMs / 50))
  return [
    `g=-${pgid}`,
    'kill -s TERM -- "$g" 2>/dev/null || exit 0',
    'i=0',
    `while kill -s 0 -- "$g" 2>/dev/null && [ "$i" -lt ${polls} ]; do sleep 0.05; i=$((i+1)); done`,
    'kill -s KILL -- "$g" 2>/dev/null',
    'exit 0'
  ].join('\n')
}

/** The kill script as a command line, run with the same sudo mode as the command it stops. */
export function posixKillCommand(pgid: number, graceMs: number, sudo: SudoMode | undefined): string {
  return shJoin([...sudoArgv(sudo), '/bin/sh', '-c', posixKillScript(pgid, graceMs)])
}

/** Prints the facts of a POSIX target after a marker (`uname -srm`, home, login shell); on Windows shells it fails at once. */
export function posixProbeCommand(nonce: string): string {
  return `printf '\\036VB%s\\n' ${nonce}; uname -srm; printf '%s\\n' "$HOME" "$SHELL"`
}

/**
 * A session's first command with the platform probe folded into it, so that the probe costs no
 * round trip of its own: posixProbeCommand's lines after a marker of their own (`\x1eVP<nonce>`,
 * which is not the wrapper's), then the wrapped command in /bin/sh, as for a login shell not known
 * yet. A Windows shell fails at the first word and runs nothing; a POSIX layer on Windows
 * (MSYS, Cygwin: OS=Windows_NT there) exits before the command's markers, so the command did not
 * start either way, and the session probes on its own and runs it as always.
 */
export function probingWrapPosix(command: RemoteCommand | string, opts: Omit<PosixWrapOptions, 'sudo' | 'loginShell'>): string {
  const inner = posixInnerScript(posixBody(command), opts)
  const probe = `printf '\\036VP%s\\n' ${opts.nonce}; uname -srm; printf '%s\\n' "$HOME" "$SHELL"`
  return `${probe}; exec ${shJoin(['/bin/sh', '-c', `[ "\${OS-}" = Windows_NT ] && exit 97\n${inner}`])}`
}

/** The probe's facts in what a probing command printed before the wrapper's marker; undefined when they are not there. */
export function parseProbingPreamble(preamble: Buffer, nonce: string): PosixProbe | undefined {
  const text = preamble.toString('utf8')
  const marker = `\x1eVP${nonce}\n`
  const at = text.lastIndexOf(marker)
  return at < 0 ? undefined : parsePosixProbe(text.slice(at + marker.length))
}

/** Whether a probing command's preamble is its probe alone: nothing came before the probe's marker (no ~/.ssh/rc output). */
export function preambleIsProbeAlone(preamble: Buffer, nonce: string): boolean {
  return preamble.toString('latin1', 0, nonce.length + 3) === `\x1eVP${nonce}`
}

export interface PosixProbe {
  system: string
  release: string
  machine: string
  homeDir: string
  loginShell: LoginShell
}

/**
 * Reads the output of posixProbeCommand (after its marker line). Undefined when it does not look
 * like a POSIX system answering: a Windows shell fails the probe, and MINGW/MSYS/Cygwin (a POSIX
 * layer on Windows) are driven through PowerShell like any Windows target.
 */
export function parsePosixProbe(stdout: string): PosixProbe | undefined {
  const [uname, homeDir, shellPath] = stdout.split('\n')
  // `uname -srm`: the release and the machine never hold spaces, the system name might
  const parts = (uname ?? '').trim().split(/\s+/)
  const machine = parts.pop()
  const release = parts.pop()
  const system = parts.join(' ')
  const word = /^[A-Za-z0-9][\w.+~ -]*$/
  if (!system || !release || !machine || homeDir === undefined || shellPath === undefined) return undefined
  if (!word.test(system) || !/^\S+$/.test(release) || !word.test(machine) || !homeDir.startsWith('/')) return undefined
  if (/^(MINGW|MSYS|CYGWIN)/i.test(system)) return undefined
  return { system, release, machine, homeDir, loginShell: loginShellOf(shellPath) }
}
