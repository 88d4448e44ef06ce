import { createHash, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { SshSession } from '../../../src/main/ssh/session'
import { bundleHash, readScriptBundle } from '../../../src/main/ssh/upload'
import { SessionError } from '../../../src/main/ssh/types'
import { connectAs, createThrowawayUser, type ThrowawayUser } from './session-helpers'

const SCRIPTS = path.resolve(__dirname, '../../../resources/scripts')

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex')
}

function sftpRequests(server: SshdServer): number {
  return (server.logs().match(/Starting session: subsystem 'sftp'/g) ?? []).length
}

describe('scripts and files through SFTP to a real sshd', () => {
  let server: SshdServer
  let user: ThrowawayUser
  let scratch: string

  beforeAll(async () => {
    user = createThrowawayUser({ shell: '/bin/bash', files: { '.bashrc': 'echo "banner from .bashrc"\necho "noise" >&2\n' } })
    server = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(server)
    scratch = mkdtempSync(path.join(os.tmpdir(), 'virtbench-upload-'))
    chmodSync(scratch, 0o777)
  })
  afterAll(async () => {
    await server?.stop()
    user?.remove()
    rmSync(scratch, { recursive: true, force: true })
  })

  const open = (opts: { workRoot?: string } = {}): SshSession =>
    new SshSession({ label: 'upload-target', connect: connectAs(server, user), sftpIdleMs: 200, ...opts })

  it('puts resources/scripts into ~/.cache/virtbench/<hash>, verified and executable, once', async () => {
    const bundle = await readScriptBundle(SCRIPTS)
    expect(bundle.files.map((f) => f.name)).toEqual(
      [...readdirSync(path.join(SCRIPTS, 'linux')).map((n) => `linux/${n}`), ...readdirSync(path.join(SCRIPTS, 'windows')).map((n) => `windows/${n}`)].sort()
    )
    expect(bundle.files.map((f) => f.name)).toContain('linux/job.sh')
    const session = open()
    const expectedDir = path.join(user.home, '.cache', 'virtbench', bundle.hash)
    try {
      const sftpAtStart = sftpRequests(server)
      const first = await session.ensureScripts(SCRIPTS)
      expect(sftpRequests(server)).toBe(sftpAtStart + 1)
      expect(first).toEqual({ remoteDir: expectedDir, uploaded: true, hash: bundle.hash })
      for (const f of bundle.files) {
        const remote = path.join(expectedDir, ...f.name.split('/'))
        expect(sha256(remote)).toBe(sha256(path.join(SCRIPTS, ...f.name.split('/'))))
        expect(statSync(remote).mode & 0o777).toBe(0o755)
        expect(statSync(remote).uid).toBe(user.uid)
      }
      // no temporary directory left next to it
      expect(readdirSync(path.dirname(expectedDir))).toEqual([bundle.hash])

      // the uploaded probe runs and prints facts
      const probe = await session.exec({ argv: [`${first.remoteDir}/linux/probe.sh`] }, { capture: { maxBytes: 10_000 } })
      expect(probe.exitCode).toBe(0)
      expect(probe.stdout?.toString()).toMatch(/^os=Linux\nkernel=\S+\narch=\S+\n/)

      // same session: nothing to check again
      const sftpBefore = sftpRequests(server)
      expect(await session.ensureScripts(SCRIPTS)).toEqual({ remoteDir: expectedDir, uploaded: false, hash: bundle.hash })
      expect(sftpRequests(server)).toBe(sftpBefore)
    } finally {
      await session.close()
    }

    // a new session finds the verified copy: checked with sha256sum, not uploaded
    const later = open()
    try {
      const sftpBefore = sftpRequests(server)
      const mtime = statSync(path.join(expectedDir, 'linux', 'probe.sh')).mtimeMs
      expect(await later.ensureScripts(SCRIPTS)).toEqual({ remoteDir: expectedDir, uploaded: false, hash: bundle.hash })
      expect(sftpRequests(server)).toBe(sftpBefore)
      expect(statSync(path.join(expectedDir, 'linux', 'probe.sh')).mtimeMs).toBe(mtime)

      // cleanup removes the directory, and the work root it leaves empty
      await later.removeWorkDir()
      expect(existsSync(expectedDir)).toBe(false)
      expect(existsSync(path.join(user.home, '.cache', 'virtbench'))).toBe(false)
      expect(existsSync(path.join(user.home, '.cache'))).toBe(true)
    } finally {
      await later.close()
    }
  })

  it('uploads again when the copy there was changed or lost its exec bit', async () => {
    const workRoot = path.join(scratch, 'tamper')
    const session = open({ workRoot })
    try {
      const { remoteDir } = await session.ensureScripts(SCRIPTS)
      const probe = path.join(remoteDir, 'linux', 'probe.sh')
      writeFileSync(probe, 'echo tampered\n')
      const again = open({ workRoot })
      try {
        expect((await again.ensureScripts(SCRIPTS)).uploaded).toBe(true)
        expect(sha256(probe)).toBe(sha256(path.join(SCRIPTS, 'linux', 'probe.sh')))
        chmodSync(probe, 0o644)
      } finally {
        await again.close()
      }
      const third = open({ workRoot })
      try {
        expect((await third.ensureScripts(SCRIPTS)).uploaded).toBe(true)
        expect(statSync(probe).mode & 0o777).toBe(0o755)
      } finally {
        await third.close()
      }
    } finally {
      await session.close()
    }
  })

  it('keeps a hostile work root a plain path', async () => {
    const workRoot = path.join(scratch, `root $(touch pwned); rm -rf ~ 'q' "dq"\nnewline`)
    mkdirSync(workRoot, { recursive: true })
    chmodSync(workRoot, 0o777)
    const session = open({ workRoot })
    try {
      const { remoteDir, uploaded } = await session.ensureScripts(SCRIPTS)
      expect(uploaded).toBe(true)
      expect(remoteDir.startsWith(workRoot)).toBe(true)
      expect(sha256(path.join(remoteDir, 'windows', 'probe.ps1'))).toBe(sha256(path.join(SCRIPTS, 'windows', 'probe.ps1')))
      await session.removeWorkDir()
      expect(existsSync(remoteDir)).toBe(false)
      for (const where of [scratch, user.home, os.tmpdir()]) expect(existsSync(path.join(where, 'pwned'))).toBe(false)
      expect(existsSync(user.home)).toBe(true)
    } finally {
      await session.close()
    }
  })

  it('shares one upload between concurrent calls', async () => {
    const workRoot = path.join(scratch, 'concurrent')
    const session = open({ workRoot })
    try {
      const results = await Promise.all([session.ensureScripts(SCRIPTS), session.ensureScripts(SCRIPTS), session.ensureScripts(SCRIPTS)])
      expect(results.filter((r) => r.uploaded)).toHaveLength(1)
      expect(new Set(results.map((r) => r.remoteDir)).size).toBe(1)
    } finally {
      await session.close()
    }
  })

  it('names a different directory for different content', async () => {
    const local = path.join(scratch, 'bundle')
    mkdirSync(path.join(local, 'sub'), { recursive: true })
    writeFileSync(path.join(local, 'sub', 'a.sh'), 'echo a\n')
    const before = (await readScriptBundle(local)).hash
    writeFileSync(path.join(local, 'sub', 'a.sh'), 'echo b\n')
    const after = (await readScriptBundle(local)).hash
    expect(after).not.toBe(before)
    expect(after).toBe(bundleHash([{ name: 'sub/a.sh', data: Buffer.from('echo b\n') }]))
  })

  it('uploads single files atomically with the mode asked for', async () => {
    const session = open()
    const local = path.join(scratch, 'payload.bin')
    const data = randomBytes(1024 * 1024 + 3)
    writeFileSync(local, data)
    const remote = path.join(scratch, 'uploaded $(x) it\'s.bin')
    try {
      await session.upload(local, remote, { mode: 0o600 })
      expect(readFileSync(remote).equals(data)).toBe(true)
      expect(statSync(remote).mode & 0o777).toBe(0o600)
      await session.writeFile(remote, 'replaced\n')
      expect(readFileSync(remote, 'utf8')).toBe('replaced\n')
      expect(readdirSync(scratch).filter((n) => n.includes('vb-tmp'))).toEqual([])
      const err = await session.upload(local, '/nonexistent-dir/x').catch((e: unknown) => e)
      expect(err).toBeInstanceOf(SessionError)
      expect((err as SessionError).message).toMatch(/^uploading .*payload\.bin to \/nonexistent-dir\/x on upload-target failed: /)
    } finally {
      await session.close()
    }
  })
})
