import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { pwshJoin, quotePwsh, quoteSh, shJoin } from '../../../src/shared/shell-quote'

const HOSTILE = [
  '$(touch pwned); rm -rf ~',
  "'; reboot #",
  '`id`',
  'a b\tc\nd',
  '"quoted" and \\backslash\\',
  '--help',
  '*',
  '~',
  '',
  'ünïcødé ✓',
  "it's",
  '!event'
]

describe('quoteSh', () => {
  it('leaves plain words alone and quotes everything else', () => {
    expect(quoteSh('fio')).toBe('fio')
    expect(quoteSh('--rw=randread')).toBe('--rw=randread')
    expect(quoteSh('/dev/vdb')).toBe('/dev/vdb')
    expect(quoteSh('')).toBe("''")
    expect(quoteSh('a b')).toBe("'a b'")
    expect(quoteSh("it's")).toBe(`'it'\\''s'`)
    expect(quoteSh('~')).toBe("'~'")
  })

  it('refuses a NUL byte, which no shell argument can carry', () => {
    expect(() => quoteSh('a\0b')).toThrow(/NUL/)
  })

  const dir = mkdtempSync(join(tmpdir(), 'vb-quote-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it.each(HOSTILE)('a real sh gets %j back unchanged and runs nothing', (value) => {
    const out = execFileSync('/bin/sh', ['-c', `printf '%s' ${quoteSh(value)}`], { cwd: dir, encoding: 'utf8' })
    expect(out).toBe(value)
    expect(readdirSync(dir)).toEqual([])
  })

  it('round-trips any string through a real sh (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\0')), { maxLength: 4 }), (argv) => {
        const script = `for a in ${shJoin(argv)}; do printf '%s\\0' "$a"; done`
        const out = argv.length === 0 ? '' : execFileSync('/bin/sh', ['-c', script], { cwd: dir, encoding: 'utf8' })
        expect(out).toBe(argv.map((a) => a + '\0').join(''))
      }),
      { numRuns: 40 }
    )
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('quotePwsh', () => {
  it('makes verbatim single-quoted literals, doubling every quote-like character', () => {
    expect(quotePwsh('C:\\Program Files\\fio\\fio.exe')).toBe("'C:\\Program Files\\fio\\fio.exe'")
    expect(quotePwsh("it's")).toBe("'it''s'")
    expect(quotePwsh('$(Remove-Item C:\\ -Recurse)')).toBe("'$(Remove-Item C:\\ -Recurse)'")
    expect(quotePwsh('a\u2019b')).toBe("'a\u2019\u2019b'")
  })

  it('joins an argv as a call', () => {
    expect(pwshJoin(['iperf3.exe', '-c', '10.0.0.1'])).toBe("& 'iperf3.exe' '-c' '10.0.0.1'")
    expect(() => pwshJoin([])).toThrow(/empty/)
  })
})
