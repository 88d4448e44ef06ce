/**
 * Commands for Windows targets (OpenSSH for Windows, whose default shell is cmd.exe or
 * PowerShell). Every command is run as
 *
 *   powershell -NoProfile -NonInteractive -EncodedCommand <base64 of the UTF-16LE script>
 *
 * which both default shells pass through untouched (base64 has no characters either shell
 * interprets). Pure functions; they cannot be run on a real Windows machine in this repository's
 * tests, which check the generated text instead.
 */
import { pwshJoin, quotePwsh } from '../../shared/shell-quote'
import { SessionError, type RemoteCommand, type SessionFacts } from './types'

/** cmd.exe refuses command lines longer than 8191 characters. */
export const MAX_WINDOWS_COMMAND_LINE = 8191

const POWERSHELL_PREFIX = 'powershell -NoProfile -NonInteractive -EncodedCommand '
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Base64 of the script as UTF-16LE, the form `-EncodedCommand` takes. */
export function encodePowershell(script: string): string {
  return Buffer.from(script, 'utf16le').toString('base64')
}

/** The inverse of encodePowershell (for tests and logs). */
export function decodePowershell(encoded: string): string {
  return Buffer.from(encoded, 'base64').toString('utf16le')
}

/** A command line that runs `script` in Windows PowerShell without profile or prompts. */
export function powershellCommandLine(script: string): string {
  const line = POWERSHELL_PREFIX + encodePowershell(script)
  if (line.length > MAX_WINDOWS_COMMAND_LINE) {
    throw new SessionError(
      'invalid',
      `a PowerShell script of ${script.length} characters is too long for one Windows command line ` +
        `(${line.length} > ${MAX_WINDOWS_COMMAND_LINE} once encoded); upload it with ensureScripts and run the file instead`,
      ''
    )
  }
  return line
}

/** The PowerShell text of a command: an argv as a call with each argument quoted, or a script. */
export function powershellText(command: RemoteCommand | string): string {
  if (typeof command === 'string') return command
  if ('argv' in command) return `${pwshJoin(command.argv)}\nexit $LASTEXITCODE`
  return command.script
}

export interface WindowsWrapOptions {
  nonce: string
  env?: Readonly<Record<string, string>>
  cwd?: string
}

/**
 * The script run for a command: announce the PowerShell pid on stderr and the start of output on
 * stdout (the same markers as on POSIX targets), set env and cwd, then the command itself.
 */
export function windowsScript(command: RemoteCommand | string, opts: WindowsWrapOptions): string {
  const lines = [
    "$ProgressPreference = 'SilentlyContinue'",
    "$ErrorActionPreference = 'Continue'",
    `[Console]::Error.Write([char]30 + 'VB${opts.nonce}:' + $PID + ':' + $PID + [char]10)`,
    `[Console]::Out.Write([char]30 + 'VB${opts.nonce}' + [char]10)`
  ]
  for (const [name, value] of Object.entries(opts.env ?? {})) {
    if (!ENV_NAME.test(name)) throw new SessionError('invalid', `environment variable name ${JSON.stringify(name)} is not allowed`, '')
    lines.push(`$env:${name} = ${quotePwsh(value)}`)
  }
  if (opts.cwd !== undefined) lines.push(`Set-Location -LiteralPath ${quotePwsh(opts.cwd)}`)
  lines.push(powershellText(command))
  return lines.join('\n')
}

/** The full command line of a wrapped command. */
export function wrapWindows(command: RemoteCommand | string, opts: WindowsWrapOptions): string {
  return powershellCommandLine(windowsScript(command, opts))
}

/** Ends a process and all its descendants (cmd.exe and PowerShell both run it as is). */
export function taskkillCommand(pid: number): string {
  if (!Number.isInteger(pid) || pid <= 4) throw new Error(`refusing to kill Windows process ${pid}`)
  return `taskkill /T /F /PID ${pid}`
}

/**
 * `C:\Users\ana\x` → `/C:/Users/ana/x`, the form OpenSSH's sftp-server for Windows shows paths in.
 * Relative paths only change their separators.
 */
export function toSftpPath(nativePath: string): string {
  const forward = nativePath.replace(/\\/g, '/')
  return /^[A-Za-z]:/.test(forward) ? `/${forward}` : forward
}

/** `/C:/Users/ana/x` (or `C:/Users/ana/x`) → `C:\Users\ana\x`. */
export function toNativePath(sftpPath: string): string {
  const drive = /^\/?([A-Za-z]:)(.*)$/.exec(sftpPath)
  const path = drive ? `${(drive[1] as string).toUpperCase()}${drive[2] === '' ? '/' : drive[2]}` : sftpPath
  return path.replace(/\//g, '\\')
}

/** Joins native Windows path parts with single backslashes. */
export function joinWindowsPath(...parts: string[]): string {
  return parts
    .map((p, i) => (i === 0 ? p.replace(/[\\/]+$/, '') : p.replace(/^[\\/]+|[\\/]+$/g, '')))
    .filter((p) => p !== '')
    .join('\\')
}

/** The PowerShell probe: system facts after our marker, one per line. */
export function windowsProbeScript(nonce: string): string {
  return [
    "$ProgressPreference = 'SilentlyContinue'",
    `[Console]::Out.Write([char]30 + 'VB${nonce}' + [char]10)`,
    "'Windows'",
    '[Environment]::OSVersion.Version.ToString()',
    '$env:PROCESSOR_ARCHITECTURE',
    '$env:USERPROFILE',
    "[Environment]::GetFolderPath('LocalApplicationData')"
  ].join('\n')
}

export interface WindowsProbe {
  facts: SessionFacts
  /** %LOCALAPPDATA%, where the work directory goes. */
  localAppData: string
}

/** Reads the output of windowsProbeScript (after the marker line was stripped). */
export function parseWindowsProbe(stdout: string): WindowsProbe | undefined {
  const lines = stdout.split(/\r?\n/).map((l) => l.trim())
  const [system, release, machine, homeDir, localAppData] = lines
  if (system !== 'Windows' || !release || !/^\d+(\.\d+)+$/.test(release) || !machine || !homeDir || !localAppData) {
    return undefined
  }
  return { facts: { shell: 'windows', system, release, machine, homeDir }, localAppData }
}

/** The work root on Windows: `%LOCALAPPDATA%\virtbench\cache`. */
export function windowsWorkRoot(localAppData: string): string {
  return joinWindowsPath(localAppData, 'virtbench', 'cache')
}

/** Creates `dir` (and parents) if missing. */
export function windowsMkdirScript(dir: string): string {
  return `New-Item -ItemType Directory -Force -Path ${quotePwsh(dir)} | Out-Null`
}

/** Removes `dir` recursively; no error when it is already gone. */
export function windowsRemoveDirScript(dir: string): string {
  const q = quotePwsh(dir)
  return `if (Test-Path -LiteralPath ${q}) { Remove-Item -LiteralPath ${q} -Recurse -Force }`
}

/** Prints `<sha256 hex lowercase>  <name>` for each file, like sha256sum. */
export function windowsHashScript(dir: string, names: readonly string[]): string {
  const files = names.map((n) => quotePwsh(n)).join(', ')
  return [
    `Set-Location -LiteralPath ${quotePwsh(dir)}`,
    `foreach ($f in @(${files})) { $h = (Get-FileHash -Algorithm SHA256 -LiteralPath $f).Hash.ToLower(); [Console]::Out.Write($h + '  ' + $f + [char]10) }`
  ].join('\n')
}
