// Windows targets cannot be reached from this Linux CI: these tests check the generated command
// text (encoding, quoting, paths, probe parsing), not a run on real Windows.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SessionError } from '../../../../src/main/ssh/types'
import {
  decodePowershell,
  encodePowershell,
  joinWindowsPath,
  MAX_WINDOWS_COMMAND_LINE,
  parseWindowsProbe,
  powershellCommandLine,
  powershellText,
  taskkillCommand,
  toNativePath,
  toSftpPath,
  windowsHashScript,
  windowsProbeScript,
  windowsRemoveDirScript,
  windowsScript,
  windowsWorkRoot,
  wrapWindows
} from '../../../../src/main/ssh/windows'

const NONCE = 'abcDEF123'

function decodeLine(line: string): string {
  const prefix = 'powershell -NoProfile -NonInteractive -EncodedCommand '
  expect(line.startsWith(prefix)).toBe(true)
  return decodePowershell(line.slice(prefix.length))
}

describe('encodePowershell', () => {
  it('is base64 of UTF-16LE, as -EncodedCommand expects', () => {
    // "dir" in UTF-16LE is 64 00 69 00 72 00
    expect(encodePowershell('dir')).toBe(Buffer.from([0x64, 0, 0x69, 0, 0x72, 0]).toString('base64'))
    expect(encodePowershell('dir')).toBe('ZABpAHIA')
  })

  it('round-trips any text, including quotes and non-ASCII (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(decodePowershell(encodePowershell(s))).toBe(s)
      })
    )
  })

  it('only produces characters that cmd.exe and PowerShell pass through untouched', () => {
    const line = powershellCommandLine("Write-Output 'a & b | c ^ d % e \" f'")
    expect(line).toMatch(/^powershell -NoProfile -NonInteractive -EncodedCommand [A-Za-z0-9+/=]+$/)
  })
})

describe('powershellCommandLine', () => {
  it('refuses scripts too long for a Windows command line, saying what to do', () => {
    const long = 'x'.repeat(4000)
    expect(() => powershellCommandLine(long)).toThrow(SessionError)
    expect(() => powershellCommandLine(long)).toThrow(/too long.*ensureScripts/)
    const fits = 'x'.repeat(2900)
    expect(powershellCommandLine(fits).length).toBeLessThanOrEqual(MAX_WINDOWS_COMMAND_LINE)
  })
})

describe('powershellText', () => {
  it('calls an argv with every argument as a verbatim string and passes the exit code on', () => {
    expect(powershellText({ argv: ['C:\\Program Files\\fio\\fio.exe', '--name=$(x)', "it's"] })).toBe(
      "& 'C:\\Program Files\\fio\\fio.exe' '--name=$(x)' 'it''s'\nexit $LASTEXITCODE"
    )
    expect(powershellText({ script: 'Get-Date' })).toBe('Get-Date')
    expect(powershellText('Get-Date')).toBe('Get-Date')
  })
})

describe('windowsScript', () => {
  it('announces the pid and the start of output, then sets env and cwd verbatim', () => {
    const script = windowsScript(
      { argv: ['iperf3.exe', '-c', '10.0.0.2'] },
      { nonce: NONCE, env: { LABEL: "$(touch pwned); rm -rf ~ ’quoted’" }, cwd: "C:\\Users\\O'Brien\\bench dir" }
    )
    const lines = script.split('\n')
    expect(lines[0]).toBe("$ProgressPreference = 'SilentlyContinue'")
    expect(script).toContain(`[Console]::Error.Write([char]30 + 'VB${NONCE}:' + $PID + ':' + $PID + [char]10)`)
    expect(script).toContain(`[Console]::Out.Write([char]30 + 'VB${NONCE}' + [char]10)`)
    // typographic quotes are doubled too: PowerShell treats them as quote marks
    expect(script).toContain("$env:LABEL = '$(touch pwned); rm -rf ~ ’’quoted’’'")
    expect(script).toContain("Set-Location -LiteralPath 'C:\\Users\\O''Brien\\bench dir'")
    expect(script.endsWith("& 'iperf3.exe' '-c' '10.0.0.2'\nexit $LASTEXITCODE")).toBe(true)
  })

  it('refuses bad environment variable names', () => {
    expect(() => windowsScript('x', { nonce: NONCE, env: { 'A;B': '1' } })).toThrow(/not allowed/)
  })

  it('wraps into one encoded command line', () => {
    const line = wrapWindows({ script: 'Get-Date' }, { nonce: NONCE })
    expect(decodeLine(line)).toBe(windowsScript({ script: 'Get-Date' }, { nonce: NONCE }))
  })
})

describe('taskkillCommand', () => {
  it('ends the process tree by pid', () => {
    expect(taskkillCommand(4242)).toBe('taskkill /T /F /PID 4242')
  })

  it('refuses system pids and non-integers', () => {
    for (const pid of [0, 4, -1, 12.5]) expect(() => taskkillCommand(pid)).toThrow(/refusing/)
  })
})

describe('paths', () => {
  it('converts between native and sftp-server forms', () => {
    expect(toSftpPath('C:\\Users\\ana\\AppData\\Local\\virtbench')).toBe('/C:/Users/ana/AppData/Local/virtbench')
    expect(toNativePath('/C:/Users/ana/AppData/Local/virtbench')).toBe('C:\\Users\\ana\\AppData\\Local\\virtbench')
    expect(toNativePath('/c:/x')).toBe('C:\\x')
    expect(toNativePath('/C:')).toBe('C:\\')
    expect(toSftpPath('relative\\dir')).toBe('relative/dir')
  })

  it('round-trips drive paths (property)', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9 ._'$()-]{1,12}$/)
    fc.assert(
      fc.property(fc.constantFrom('C', 'D', 'Z'), fc.array(part, { minLength: 1, maxLength: 5 }), (drive, parts) => {
        const native = `${drive}:\\${parts.join('\\')}`
        expect(toNativePath(toSftpPath(native))).toBe(native)
      })
    )
  })

  it('joins with single backslashes', () => {
    expect(joinWindowsPath('C:\\Users\\ana\\', '\\virtbench\\', 'cache')).toBe('C:\\Users\\ana\\virtbench\\cache')
    expect(windowsWorkRoot('C:\\Users\\ana\\AppData\\Local')).toBe('C:\\Users\\ana\\AppData\\Local\\virtbench\\cache')
  })
})

describe('windows probe', () => {
  it('prints the marker first, then the facts', () => {
    const lines = windowsProbeScript(NONCE).split('\n')
    expect(lines[1]).toBe(`[Console]::Out.Write([char]30 + 'VB${NONCE}' + [char]10)`)
    expect(lines).toContain('[Environment]::OSVersion.Version.ToString()')
  })

  it('parses what PowerShell prints (CRLF line ends)', () => {
    const out = 'Windows\r\n10.0.20348.0\r\nAMD64\r\nC:\\Users\\ana\r\nC:\\Users\\ana\\AppData\\Local\r\n'
    expect(parseWindowsProbe(out)).toEqual({
      facts: { shell: 'windows', system: 'Windows', release: '10.0.20348.0', machine: 'AMD64', homeDir: 'C:\\Users\\ana' },
      localAppData: 'C:\\Users\\ana\\AppData\\Local'
    })
  })

  it('refuses output that is not the probe', () => {
    expect(parseWindowsProbe('')).toBeUndefined()
    expect(parseWindowsProbe("'powershell' is not recognized as an internal or external command")).toBeUndefined()
    expect(parseWindowsProbe('Windows\r\nnot-a-version\r\nAMD64\r\nC:\\x\r\nC:\\y')).toBeUndefined()
    expect(parseWindowsProbe('Windows\r\n10.0.1\r\nAMD64\r\nC:\\x')).toBeUndefined()
  })
})

describe('file scripts', () => {
  it('hashes files relative to the directory, quoting every name', () => {
    const script = windowsHashScript("C:\\w\\it's", ['linux\\probe.sh', 'windows\\probe.ps1'])
    expect(script).toContain("Set-Location -LiteralPath 'C:\\w\\it''s'")
    expect(script).toContain("@('linux\\probe.sh', 'windows\\probe.ps1')")
    expect(script).toContain('Get-FileHash -Algorithm SHA256 -LiteralPath $f')
  })

  it('removes a directory only by literal path', () => {
    expect(windowsRemoveDirScript('C:\\w\\[x]')).toBe(
      "if (Test-Path -LiteralPath 'C:\\w\\[x]') { Remove-Item -LiteralPath 'C:\\w\\[x]' -Recurse -Force }"
    )
  })
})
