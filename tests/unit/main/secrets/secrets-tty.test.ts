import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

/**
 * PromptSecretStore on a real terminal: util-linux `script` gives the child a pseudo-terminal, we
 * type into it once the question shows, and read everything the terminal displayed. A terminal
 * echoes what is typed unless the program turns echo off, so the typed secret must not appear.
 */

const repo = path.resolve(__dirname, '../../../..')
const secretsModule = path.join(repo, 'src/main/secrets/secrets.ts')
const TYPED = 'hunter2-on-a-tty'

let dir: string

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-secrets-tty-'))
})

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

/** Runs `command` on a pseudo-terminal, types `typed` + Enter once `prompt` shows, returns what the terminal showed. */
function onTerminal(command: string, prompt: string, typed: string): Promise<{ shown: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'] })
    let shown = ''
    let sent = false
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
      reject(new Error(`no answer from the terminal in time; it showed: ${JSON.stringify(shown)}`))
    }, 20_000)
    child.stdout.on('data', (chunk: Buffer) => {
      shown += chunk.toString('utf8')
      if (!sent && shown.includes(prompt)) {
        sent = true
        child.stdin.write(`${typed}\r`)
      }
    })
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ shown, code })
    })
  })
}

describe('PromptSecretStore on a real terminal', () => {
  it('does not echo the secret, and hands over exactly what was typed', async () => {
    const program = path.join(dir, 'ask.ts')
    await fs.writeFile(
      program,
      [
        `import { createHash } from 'node:crypto'`,
        `import { PromptSecretStore } from ${JSON.stringify(secretsModule)}`,
        `const store = new PromptSecretStore(() => [{ id: 't1', name: 'web1' }], process.stdin, process.stdout)`,
        `store.get('target/t1/password').then(`,
        `  (value) => { console.log('sha256 ' + createHash('sha256').update(value ?? '').digest('hex')); process.exit(0) },`,
        `  (error) => { console.log('error ' + error.message); process.exit(1) })`
      ].join('\n')
    )
    const { shown, code } = await onTerminal(`${process.execPath} --import tsx ${program}`, 'SSH password for "web1": ', TYPED)
    expect(code).toBe(0)
    expect(shown).toContain('SSH password for "web1": ')
    expect(shown).not.toContain(TYPED)
    expect(shown).toContain(`sha256 ${createHash('sha256').update(TYPED).digest('hex')}`)
  }, 30_000)

  it('would see the secret if echo were left on (the check above can fail)', async () => {
    const { shown } = await onTerminal(`sh -c 'printf "Password: "; read answer; echo read'`, 'Password: ', TYPED)
    expect(shown).toContain(TYPED)
  }, 30_000)
})
