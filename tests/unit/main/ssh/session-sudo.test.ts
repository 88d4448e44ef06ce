import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { resolveSudo, sudoKey, type ProbeRunner } from '../../../../src/main/ssh/sudo'
import { SessionError } from '../../../../src/main/ssh/types'

/** Runs the probe with the real /bin/sh here, on a PATH of our choosing; records what ran. */
function shRunner(pathVar: string, seen: { line: string; stdin: string }[]): ProbeRunner {
  return (line, stdin) =>
    new Promise((resolve) => {
      seen.push({ line, stdin: stdin.toString() })
      const child = spawn('/bin/sh', ['-c', line], { env: { PATH: pathVar }, stdio: ['pipe', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
      child.on('close', (code) => resolve({ exitCode: code, stderr }))
      child.stdin.on('error', () => undefined)
      child.stdin.end(stdin)
    })
}

describe('resolveSudo', () => {
  it('says sudo is not installed when the shell cannot find it', async () => {
    const seen: { line: string; stdin: string }[] = []
    const err = await resolveSudo('web1', { mode: 'password', password: 'x' }, shRunner('/nonexistent', seen)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SessionError)
    expect((err as SessionError).message).toBe('sudo is not installed on web1: install it, or connect as root')
    // it stopped after the first probe: the password was never sent anywhere
    expect(seen).toEqual([{ line: 'sudo -n -- true', stdin: '' }])
  })

  it('uses passwordless sudo when it works, without ever sending the password (root here)', async () => {
    const seen: { line: string; stdin: string }[] = []
    const mode = await resolveSudo('local', { mode: 'password', password: 'secret' }, shRunner('/usr/bin:/bin', seen))
    if (process.getuid?.() === 0) {
      expect(mode).toEqual({ mode: 'passwordless' })
      expect(seen.map((s) => s.stdin).join('')).not.toContain('secret')
    }
  })

  it('keys its cache by a hash of the password, not the password', () => {
    const key = sudoKey({ mode: 'password', password: 'secret' }, (s) => `h(${s.length})`)
    expect(key).toBe('password:h(6)')
    expect(sudoKey({ mode: 'passwordless' }, () => 'x')).toBe('passwordless')
  })
})
