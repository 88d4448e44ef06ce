/**
 * Quoting of arguments for the shells we generate commands for. Every value that
 * reaches a remote command line goes through one of these, so a target, path or
 * label named `$(touch pwned); rm -rf ~` stays a harmless string.
 */

const SH_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/

/** One argument for a POSIX `sh` command line. */
export function quoteSh(value: string): string {
  if (value.includes('\0')) throw new Error('a shell argument cannot contain a NUL byte')
  if (value !== '' && SH_SAFE.test(value)) return value
  return `'${value.replace(/'/g, `'\\''`)}'`
}

/** An argv joined into one POSIX `sh` command line, each argument quoted. */
export function shJoin(argv: readonly string[]): string {
  return argv.map(quoteSh).join(' ')
}

/**
 * One argument for PowerShell as a single-quoted (verbatim) string literal.
 * PowerShell also treats the typographic quotes U+2018..U+201B as quote marks, so
 * every quote-like character is doubled.
 */
export function quotePwsh(value: string): string {
  if (value.includes('\0')) throw new Error('a PowerShell argument cannot contain a NUL byte')
  return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (q) => q + q)}'`
}

/** An argv as a PowerShell call: `& 'exe' 'arg1' 'arg2'`. */
export function pwshJoin(argv: readonly string[]): string {
  if (argv.length === 0) throw new Error('an empty command')
  return `& ${argv.map(quotePwsh).join(' ')}`
}
