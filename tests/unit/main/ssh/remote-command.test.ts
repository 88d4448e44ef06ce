import { spawn, spawnSync } from 'node:child_process'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  commandText,
  loginShellOf,
  parseProcessIds,
  parsePosixProbe,
  parseProbingPreamble,
  posixInnerScript,
  posixKillCommand,
  posixKillScript,
  posixProbeCommand,
  probingWrapPosix,
  shortCommand,
  stderrMarker,
  stdoutMarker,
  sudoArgv,
  sudoProbeCommand,
  commandStdin,
  sudoStdinPrefix,
  validateEnv,
  wrapPosix,
  marksStdout
} from '../../../../src/main/ssh/remote-command'
import { SessionError } from '../../../../src/main/ssh/types'

const HOSTILE = [
  '$(touch pwned); rm -rf ~',
  "'; reboot #",
  'it\'s a "quoted" name',
  'two\nlines',
  'tab\there',
  '`id`',
  '${HOME}',
  '-n',
  '--',
  '*',
  '',
  ' leading space',
  'back\\slash',
  'ümlaut ✓'
]
const NONCE = 'abcDEF123'

/** Runs a command line the way sshd does: `<shell> -c <line>`, returns raw stdout/stderr. */
function runWith(shell: string, line: string, input?: string): { stdout: Buffer; stderr: Buffer; status: number | null } {
  const r = spawnSync(shell, ['-c', line], { input, cwd: '/tmp' })
  return { stdout: r.stdout, stderr: r.stderr, status: r.status }
}

/** The output after the marker line, decoded as UTF-8. */
function stripMarkers(out: Buffer, marker: string): string {
  const at = out.indexOf(Buffer.from(marker, 'latin1'))
  expect(at).toBeGreaterThanOrEqual(0)
  return out.subarray(out.indexOf(0x0a, at) + 1).toString('utf8')
}

describe('commandText', () => {
  it('quotes an argv argument by argument and leaves scripts as given', () => {
    expect(commandText({ argv: ['fio', '--name', 'a b'] })).toBe("fio --name 'a b'")
    expect(commandText({ script: 'echo "$HOME" | wc -c' })).toBe('echo "$HOME" | wc -c')
    expect(commandText('uname -a')).toBe('uname -a')
  })

  it('refuses an empty argv and NUL bytes', () => {
    expect(() => commandText({ argv: [] })).toThrow(/empty argv/)
    expect(() => commandText({ argv: ['a\0b'] })).toThrow(/NUL/)
  })
})

describe('shortCommand', () => {
  it('keeps the first line, cut at the limit, with an ellipsis when something was left out', () => {
    expect(shortCommand({ argv: ['sleep', '5'] })).toBe('sleep 5')
    expect(shortCommand('a\nb')).toBe('a…')
    expect(shortCommand({ script: 'x'.repeat(100) }, 10)).toBe('xxxxxxxxxx…')
  })
})

describe('validateEnv', () => {
  it('accepts shell variable names', () => {
    expect(() => validateEnv({ A: '1', _b2: 'x y', FIO_SIZE: '$(rm -rf /)' })).not.toThrow()
    expect(() => validateEnv(undefined)).not.toThrow()
  })

  it.each(['1A', 'A-B', 'A B', '', 'A=B', '$(x)', 'Ä'])('rejects the name %j with a SessionError', (name) => {
    const err = (() => {
      try {
        validateEnv({ [name]: 'v' }, 'web1')
      } catch (e) {
        return e
      }
      return undefined
    })()
    expect(err).toBeInstanceOf(SessionError)
    expect((err as SessionError).code).toBe('invalid')
    expect((err as SessionError).message).toContain(JSON.stringify(name))
  })

  it('rejects NUL bytes in values', () => {
    expect(() => validateEnv({ A: 'a\0b' })).toThrow(/NUL/)
  })
})

describe('sudo', () => {
  it('uses -n without a password and -k -S -p "" with one, never the password on the command line', () => {
    expect(sudoArgv(false)).toEqual([])
    expect(sudoArgv({ mode: 'passwordless' })).toEqual(['sudo', '-n', '--'])
    const withPassword = { mode: 'password' as const, password: 'hunter2 $(x)' }
    expect(sudoArgv(withPassword)).toEqual(['sudo', '-k', '-S', '-p', '', '--'])
    expect(sudoProbeCommand(withPassword)).toBe("sudo -k -S -p '' -- true")
    expect(sudoProbeCommand(withPassword)).not.toContain('hunter2')
    expect(wrapPosix('id -u', { nonce: NONCE, sudo: withPassword })).not.toContain('hunter2')
    expect(posixKillCommand(1234, 1000, withPassword)).not.toContain('hunter2')
    expect(sudoStdinPrefix(withPassword)).toBe('hunter2 $(x)\n')
    expect(sudoStdinPrefix({ mode: 'passwordless' })).toBe('')
    expect(commandStdin('input', withPassword).toString()).toBe('hunter2 $(x)\ninput')
    expect(commandStdin(Buffer.from([0xff, 0]), false)).toEqual(Buffer.from([0xff, 0]))
    expect(commandStdin(undefined, { mode: 'passwordless' })).toEqual(Buffer.alloc(0))
  })

  it('runs the command under sudo through /bin/sh even for a POSIX login shell', () => {
    const line = wrapPosix('id -u', { nonce: NONCE, sudo: { mode: 'passwordless' }, loginShell: 'sh' })
    expect(line.startsWith("exec sudo -n -- /bin/sh -c '")).toBe(true)
  })
})

describe('loginShellOf', () => {
  it.each([
    ['/bin/sh', 'sh'],
    ['/usr/bin/dash', 'sh'],
    ['/bin/ash', 'sh'],
    ['/bin/bash', 'bash'],
    ['/usr/bin/zsh', 'other'],
    ['/usr/bin/fish', 'other'],
    ['/bin/tcsh', 'other'],
    ['', 'other']
  ])('%s is %s', (path, family) => {
    expect(loginShellOf(path)).toBe(family)
  })
})

describe('wrapPosix (run by the real /bin/sh and bash here)', () => {
  it.each(['sh', 'bash', 'other'] as const)('prints the markers, then the exact output (login shell %s)', (loginShell) => {
    const line = wrapPosix({ argv: ['printf', '%s|', ...HOSTILE] }, { nonce: NONCE, loginShell })
    const shell = loginShell === 'bash' ? '/bin/bash' : '/bin/sh'
    const r = runWith(shell, line)
    expect(r.status).toBe(0)
    expect(stripMarkers(r.stdout, stdoutMarker(NONCE))).toBe(HOSTILE.map((h) => `${h}|`).join(''))
    const errText = r.stderr.toString('latin1')
    const rest = errText.slice(errText.indexOf(stderrMarker(NONCE)) + stderrMarker(NONCE).length, errText.indexOf('\n'))
    const ids = parseProcessIds(rest)
    expect(ids).toBeDefined()
    expect(ids?.pid).toBeGreaterThan(1)
  })

  it('gives a quiet sh login no stdout marker: the output is exact as printed, the process still named on stderr', () => {
    const line = wrapPosix({ argv: ['printf', '%s|', ...HOSTILE] }, { nonce: NONCE, loginShell: 'sh', quietLogin: true })
    const r = runWith('/bin/sh', line)
    expect(r.status).toBe(0)
    expect(r.stdout.toString('utf8')).toBe(HOSTILE.map((h) => `${h}|`).join(''))
    const errText = r.stderr.toString('latin1')
    expect(parseProcessIds(errText.slice(stderrMarker(NONCE).length, errText.indexOf('\n')))?.pid).toBeGreaterThan(1)
    // only a quiet sh login without sudo goes without it
    expect(marksStdout({ loginShell: 'sh', quietLogin: true })).toBe(false)
    expect(marksStdout({ loginShell: 'sh' })).toBe(true)
    expect(marksStdout({ loginShell: 'bash', quietLogin: true })).toBe(true)
    expect(marksStdout({ loginShell: 'other', quietLogin: true })).toBe(true)
    expect(marksStdout({ loginShell: 'sh', quietLogin: true, sudo: { mode: 'passwordless' } })).toBe(true)
  })

  it.each([
    ['leads its own process group (as sshd starts every command)', ['setsid', '-w', '/bin/sh']],
    ["runs in its parent's group (as under sudo without use_pty)", ['/bin/sh']]
  ])('names its real process group when it %s', (_, shell) => {
    const line = wrapPosix({ script: 'ps -o pgid= -p $$' }, { nonce: NONCE, loginShell: 'sh' })
    const r = spawnSync(shell[0]!, [...shell.slice(1), '-c', line])
    expect(r.status).toBe(0)
    const errText = r.stderr.toString('latin1')
    const ids = parseProcessIds(errText.slice(errText.indexOf(stderrMarker(NONCE)) + stderrMarker(NONCE).length, errText.indexOf('\n')))
    expect(ids?.pgid).toBe(Number(stripMarkers(r.stdout, stdoutMarker(NONCE)).trim()))
    expect(ids!.pgid === ids!.pid).toBe(shell[0] === 'setsid')
  })

  it('sets env values and cwd verbatim, however hostile', () => {
    const env = Object.fromEntries(HOSTILE.map((v, i) => [`V${i}`, v]))
    const script = HOSTILE.map((_, i) => `printf '%s|' "$V${i}"`).join('; ') + '; pwd'
    const r = runWith('/bin/sh', wrapPosix({ script }, { nonce: NONCE, env, cwd: '/' }))
    expect(r.status).toBe(0)
    expect(stripMarkers(r.stdout, stdoutMarker(NONCE))).toBe(HOSTILE.map((h) => `${h}|`).join('') + '/\n')
  })

  it('fails with exit 1 when cwd does not exist, before running the command', () => {
    const r = runWith('/bin/sh', wrapPosix({ script: 'echo ran' }, { nonce: NONCE, cwd: '/nonexistent dir/$(x)' }))
    expect(r.status).toBe(1)
    expect(r.stdout.toString()).not.toContain('ran')
    expect(r.stderr.toString()).toMatch(/can't cd|No such file/)
  })

  it('keeps arbitrary strings intact through quoting (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }).filter((s) => !s.includes('\0')), { maxLength: 5 }), (args) => {
        const r = runWith('/bin/sh', wrapPosix({ argv: ['printf', '%s\\0', ...args] }, { nonce: NONCE, loginShell: 'sh' }))
        expect(r.status).toBe(0)
        expect(stripMarkers(r.stdout, stdoutMarker(NONCE))).toBe(args.length === 0 ? '\0' : args.map((a) => `${a}\0`).join(''))
      }),
      { numRuns: 40 }
    )
  })

  it('refuses a bad nonce', () => {
    expect(() => posixInnerScript('true', { nonce: "x'; rm" })).toThrow(/nonce/)
  })
})

describe('parseProcessIds', () => {
  it('reads pid and group, and refuses nonsense', () => {
    expect(parseProcessIds('123:100')).toEqual({ pid: 123, pgid: 100 })
    expect(parseProcessIds('123:100\r')).toEqual({ pid: 123, pgid: 100 })
    expect(parseProcessIds('1:1')).toBeUndefined()
    expect(parseProcessIds('12:x')).toBeUndefined()
    expect(parseProcessIds('')).toBeUndefined()
  })
})

describe('posixKillScript', () => {
  it('refuses process groups 0, 1 and negative ones', () => {
    for (const g of [0, 1, -5, 1.5]) expect(() => posixKillScript(g, 100)).toThrow(/refusing/)
  })

  it('ends a real process group here: TERM first, KILL for what ignores TERM', async () => {
    // a new group: a TERM-ignoring shell with two sleeping children
    const leader = spawn('/bin/sh', ['-c', 'trap "" TERM; sleep 30 & sleep 31 & wait'], { detached: true, stdio: 'ignore' })
    const pgid = leader.pid as number
    const exited = new Promise((resolve) => leader.on('exit', resolve))
    const alive = (): boolean => {
      try {
        process.kill(-pgid, 0)
        return true
      } catch {
        return false
      }
    }
    await new Promise((res) => setTimeout(res, 100))
    expect(alive()).toBe(true)
    const t0 = Date.now()
    const r = runWith('/bin/sh', posixKillScript(pgid, 300))
    expect(r.status).toBe(0)
    expect(Date.now() - t0).toBeLessThan(3000)
    await exited
    const deadline = Date.now() + 2000
    while (alive() && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20))
    expect(alive()).toBe(false)
  })

  it('exits 0 when the group is already gone', () => {
    expect(runWith('/bin/sh', posixKillScript(2 ** 22 - 3, 100)).status).toBe(0)
  })
})

describe('posixProbeCommand', () => {
  it('prints the marker, uname facts, home and shell, which parsePosixProbe reads', () => {
    const r = runWith('/bin/sh', posixProbeCommand(NONCE))
    const probe = parsePosixProbe(stripMarkers(r.stdout, stdoutMarker(NONCE)))
    expect(probe).toEqual({
      system: 'Linux',
      release: spawnSync('uname', ['-r'], { encoding: 'utf8' }).stdout.trim(),
      machine: spawnSync('uname', ['-m'], { encoding: 'utf8' }).stdout.trim(),
      homeDir: process.env.HOME,
      loginShell: loginShellOf(process.env.SHELL ?? '')
    })
  })
})

describe('probingWrapPosix', () => {
  it('prints the probe before the wrapper\'s markers, then runs the command, in sh, bash and dash', () => {
    for (const shell of ['/bin/sh', '/bin/bash', '/bin/dash'].filter((s) => spawnSync('test', ['-x', s]).status === 0)) {
      const r = runWith(shell, probingWrapPosix({ argv: ['printf', '%s\n', ...HOSTILE.slice(0, 3)] }, { nonce: NONCE, env: { VB_X: 'y z' }, cwd: '/' }))
      expect(r.status).toBe(0)
      const at = r.stdout.indexOf(Buffer.from(stdoutMarker(NONCE), 'latin1'))
      expect(parseProbingPreamble(r.stdout.subarray(0, at), NONCE)).toMatchObject({ system: 'Linux', homeDir: process.env.HOME })
      expect(stripMarkers(r.stdout, stdoutMarker(NONCE))).toBe(`${HOSTILE.slice(0, 3).join('\n')}\n`)
    }
  })

  it('stops before the command and its markers on a POSIX layer of Windows (OS=Windows_NT)', () => {
    const r = spawnSync('/bin/sh', ['-c', probingWrapPosix('echo ran', { nonce: NONCE })], { env: { ...process.env, OS: 'Windows_NT' } })
    expect(r.status).toBe(97)
    expect(r.stdout.toString()).not.toContain('ran')
    expect(r.stdout.indexOf(Buffer.from(stdoutMarker(NONCE), 'latin1'))).toBe(-1)
  })

  it('finds no facts in a preamble without its own marker (rc noise only, or another nonce)', () => {
    expect(parseProbingPreamble(Buffer.from('Welcome!\nLinux 6.1 x86_64\n/root\n/bin/sh\n'), NONCE)).toBeUndefined()
    expect(parseProbingPreamble(Buffer.from('\x1eVPother1234\nLinux 6.1 x86_64\n/root\n/bin/sh\n'), NONCE)).toBeUndefined()
  })
})

describe('parsePosixProbe', () => {
  it('reads the facts of a POSIX system', () => {
    expect(parsePosixProbe('Linux 6.1.0-18-amd64 x86_64\n/home/ana\n/bin/bash\n')).toEqual({
      system: 'Linux',
      release: '6.1.0-18-amd64',
      machine: 'x86_64',
      homeDir: '/home/ana',
      loginShell: 'bash'
    })
    expect(parsePosixProbe('FreeBSD 14.0-RELEASE amd64\n/root\n/bin/sh\n')?.loginShell).toBe('sh')
  })

  it('refuses what a Windows shell or a POSIX layer on Windows prints', () => {
    expect(parsePosixProbe('')).toBeUndefined()
    expect(parsePosixProbe("'printf' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n")).toBeUndefined()
    expect(parsePosixProbe('MINGW64_NT-10.0-20348 3.4.10.x86_64 x86_64\n/c/Users/ana\n/usr/bin/bash\n')).toBeUndefined()
    expect(parsePosixProbe('Linux 6.1 x86_64\nC:\\Users\\ana\n\n')).toBeUndefined()
  })
})
