import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HopIdentity } from '../../../../src/main/ssh/connect-errors'
import {
  hostKeyAlgorithmsFor,
  hostKeyError,
  loadKnownHosts,
  rememberHostKey,
  sha256Fingerprint,
  verifyHostKey,
  type HostKeyDecision,
  type HostKeyQuestion
} from '../../../../src/main/ssh/host-key'
import { parseKnownHosts } from '../../../../src/main/ssh/known-hosts'

const run = promisify(execFile)

/* Keys and fingerprints printed by `ssh-keygen -lf` (OpenSSH 9.2p1), see known-hosts.test.ts. */
const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOyKJYgoM5LxsCqBOnIn+h7tiCUz+0rmR5Km3+0dOdsV'
const ED25519_FP = 'SHA256:wXsVs1FWINLaOJ/r8EkShU0IJ8CueLccgiR9lB53PCY'
const RSA =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDep135cIsbMlBumO5F+f98asAgs9gfqS+ZXcK2siDoagzlhDO4Y0XusSiZV+KSl5DCTbu86JhtVaUk4mhwYI0iEz29r278o7IrKmx6VzBjGpjaFBL+xDdDP5g5OE3CStV7Iv06fnjbxb38w5AT07kV3FZJK+/zVprJXatmkNmm6Q=='
const RSA_FP = 'SHA256:FiFg5CEMGder8C0Y1VAx1qTmKcsUidqwl9U7y3ykl8s'
const ECDSA521 =
  'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBADFxH6n7nscRWREkZHngizkWDVxgH/6DPaiHUU9Im0jY/kw3mMZg9+a6FKlmEskhkbegBnmWTunlmhyT2mL1EEfygEcepzc4SDOlmI1DcJ5m/W5EelM8DfVi1mLQuRcjZXwx9JlrljBF6EscC0LMZ96IBuEiFyPLrodZ8idHjtIjL+3XQ=='
const ECDSA521_FP = 'SHA256:I9R5eCu6Bqr/ZfCUKJBAPfGTSxkgacGCUVOqrjwv9Cw'

function blobOf(keyLine: string): Buffer {
  return Buffer.from(keyLine.split(' ')[1] as string, 'base64')
}

const hop: HopIdentity = { label: 'kvm-host', host: '10.0.0.5', port: 2222, role: 'target' }

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'virtbench-hostkey-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('sha256Fingerprint', () => {
  it('equals the recorded ssh-keygen -lf output', () => {
    expect(sha256Fingerprint(blobOf(ED25519))).toBe(ED25519_FP)
    expect(sha256Fingerprint(blobOf(RSA))).toBe(RSA_FP)
    expect(sha256Fingerprint(blobOf(ECDSA521))).toBe(ECDSA521_FP)
  })

  it('equals ssh-keygen -lf on freshly generated keys of every type', async () => {
    for (const args of [['-t', 'ed25519'], ['-t', 'ecdsa', '-b', '256'], ['-t', 'ecdsa', '-b', '384'], ['-t', 'rsa', '-b', '2048']]) {
      const file = path.join(dir, `fp_${args.join('')}`)
      await run('ssh-keygen', ['-q', ...args, '-N', '', '-f', file])
      const pub = await readFile(`${file}.pub`, 'utf8')
      const { stdout } = await run('ssh-keygen', ['-lf', `${file}.pub`])
      expect(sha256Fingerprint(blobOf(pub))).toBe(stdout.split(/\s+/)[1])
    }
  })
})

describe('hostKeyAlgorithmsFor', () => {
  it('offers the default order when nothing is remembered', () => {
    expect(hostKeyAlgorithmsFor([])).toEqual([
      'ssh-ed25519',
      'ecdsa-sha2-nistp256',
      'ecdsa-sha2-nistp384',
      'ecdsa-sha2-nistp521',
      'rsa-sha2-512',
      'rsa-sha2-256',
      'ssh-rsa'
    ])
  })

  it('puts remembered types first (RSA as its SHA-2 signature algorithms), without duplicates', () => {
    expect(hostKeyAlgorithmsFor(['ssh-rsa', 'ecdsa-sha2-nistp384'])).toEqual([
      'rsa-sha2-512',
      'rsa-sha2-256',
      'ssh-rsa',
      'ecdsa-sha2-nistp384',
      'ssh-ed25519',
      'ecdsa-sha2-nistp256',
      'ecdsa-sha2-nistp521'
    ])
  })

  it('ignores types it cannot negotiate', () => {
    expect(hostKeyAlgorithmsFor(['ssh-dss'])[0]).toBe('ssh-ed25519')
  })
})

describe('verifyHostKey', () => {
  function decider(answer: HostKeyDecision | Error) {
    const asked: HostKeyQuestion[] = []
    return {
      asked,
      decide: (q: HostKeyQuestion): Promise<HostKeyDecision> => {
        asked.push(q)
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)
      }
    }
  }
  const base = { host: '10.0.0.5', port: 2222, label: 'kvm-host', role: 'target' as const }

  it('asks about an unknown key with host, port, type, fingerprint and label, and maps each answer', async () => {
    for (const [answer, expected] of [
      ['accept-once', { kind: 'accepted', remember: false }],
      ['accept-and-remember', { kind: 'accepted', remember: true }],
      ['reject', { kind: 'rejected', reason: 'decided' }]
    ] as const) {
      const d = decider(answer)
      const verdict = await verifyHostKey({ ...base, keyBlob: blobOf(ED25519), entries: [], decideHostKey: d.decide })
      expect(verdict).toEqual({ ...expected, keyType: 'ssh-ed25519', fingerprint: ED25519_FP })
      expect(d.asked).toEqual([{ ...base, keyType: 'ssh-ed25519', fingerprint: ED25519_FP }])
    }
  })

  it('a decider that fails is a rejection, never an acceptance', async () => {
    const verdict = await verifyHostKey({ ...base, keyBlob: blobOf(ED25519), entries: [], decideHostKey: decider(new Error('window closed')).decide })
    expect(verdict).toMatchObject({ kind: 'rejected', reason: 'decider-failed' })
  })

  it('does not ask about known, changed or revoked keys', async () => {
    const d = decider('accept-once')
    const entries = parseKnownHosts(`[10.0.0.5]:2222 ${ED25519}\n[10.0.0.6]:2222 ${RSA}\n@revoked [10.0.0.7]:* ${ED25519}`, '/u/kh').entries
    const known = await verifyHostKey({ ...base, keyBlob: blobOf(ED25519), entries, decideHostKey: d.decide })
    expect(known).toMatchObject({ kind: 'known', fingerprint: ED25519_FP })
    const changed = await verifyHostKey({ ...base, host: '10.0.0.6', keyBlob: blobOf(ED25519), entries, decideHostKey: d.decide })
    expect(changed).toEqual({
      kind: 'changed',
      keyType: 'ssh-ed25519',
      fingerprint: ED25519_FP,
      remembered: [{ keyType: 'ssh-rsa', fingerprint: RSA_FP, file: '/u/kh', line: 2 }]
    })
    const revoked = await verifyHostKey({ ...base, host: '10.0.0.7', keyBlob: blobOf(ED25519), entries, decideHostKey: d.decide })
    expect(revoked).toMatchObject({ kind: 'revoked', fingerprint: ED25519_FP })
    expect(d.asked).toEqual([])
  })

  it('an unreadable key blob is malformed, and nobody is asked', async () => {
    const d = decider('accept-once')
    expect(await verifyHostKey({ ...base, keyBlob: Buffer.from([1, 2, 3]), entries: [], decideHostKey: d.decide })).toEqual({ kind: 'malformed' })
    expect(d.asked).toEqual([])
  })
})

describe('hostKeyError', () => {
  it('a changed key: OpenSSH-style warning with both fingerprints, where the old one is, and how to remove it', () => {
    const error = hostKeyError(
      {
        kind: 'changed',
        keyType: 'ssh-ed25519',
        fingerprint: ED25519_FP,
        remembered: [{ keyType: 'ssh-ed25519', fingerprint: 'SHA256:old', file: '/home/u/.ssh/known_hosts', line: 7 }]
      },
      hop
    )
    expect(error.code).toBe('host-key-changed')
    expect(error.stage).toBe('host-key')
    expect(error.message).toBe(
      "WARNING: THE HOST KEY OF 10.0.0.5:2222 HAS CHANGED (target 'kvm-host') " +
        '(OpenSSH calls this "REMOTE HOST IDENTIFICATION HAS CHANGED"). Someone could be intercepting this connection ' +
        '(a man-in-the-middle attack), or the host was reinstalled or its key replaced. ' +
        'Remembered: ssh-ed25519 SHA256:old (/home/u/.ssh/known_hosts line 7). ' +
        `Presented now: ssh-ed25519 ${ED25519_FP}. VirtBench did not connect. If the change is expected, confirm the new ` +
        "fingerprint with the host's administrator, remove the old entry " +
        "(ssh-keygen -R '[10.0.0.5]:2222' -f '/home/u/.ssh/known_hosts') and connect again."
    )
    expect(error.rememberedFingerprint).toBe('SHA256:old')
    expect(error.presentedFingerprint).toBe(ED25519_FP)
  })

  it('a revoked key names the file and line', () => {
    const [entry] = parseKnownHosts(`\n@revoked * ${ED25519}`, '/u/kh').entries
    if (entry === undefined) throw new Error('fixture did not parse')
    const error = hostKeyError({ kind: 'revoked', keyType: 'ssh-ed25519', fingerprint: ED25519_FP, entry }, hop)
    expect(error.code).toBe('host-key-revoked')
    expect(error.message).toContain(`(ssh-ed25519 ${ED25519_FP}) is marked @revoked in /u/kh line 2`)
  })

  it('a rejected unknown key says nothing was connected and how to check the fingerprint', () => {
    const error = hostKeyError({ kind: 'rejected', keyType: 'ssh-ed25519', fingerprint: ED25519_FP, reason: 'decided' }, { ...hop, port: 22 })
    expect(error.code).toBe('host-key-unknown-rejected')
    expect(error.message).toMatch(/^The host key of 10\.0\.0\.5:22 \(target 'kvm-host'\) \(ssh-ed25519 SHA256:\S+\) was not accepted, so VirtBench did not connect\./)
  })

  it('a jump host is named as such', () => {
    const error = hostKeyError(
      { kind: 'rejected', keyType: 'ssh-rsa', fingerprint: RSA_FP, reason: 'decider-failed' },
      { label: 'bastion', host: 'b.example', port: 22, role: 'jump', targetLabel: 'kvm-host' }
    )
    expect(error.message).toContain("b.example:22 (jump host 'bastion' on the way to 'kvm-host')")
  })
})

describe('loading and remembering', () => {
  it('reads both files, tolerates missing ones, and remembers keys in the app file', async () => {
    const userFile = path.join(dir, 'user_kh')
    const appFile = path.join(dir, 'app', 'known_hosts')
    await writeFile(userFile, `kvm-host ${ED25519}\nbroken line\n`)
    const before = await loadKnownHosts({ userFile, appFile })
    expect(before.entries.map((e) => [e.file, e.line])).toEqual([[userFile, 1]])
    expect(before.problems).toEqual([{ file: userFile, line: 2, reason: 'no key after the key type "line"' }])
    await rememberHostKey(appFile, '10.0.0.5', 2222, blobOf(RSA))
    expect(await readFile(appFile, 'utf8')).toBe(`[10.0.0.5]:2222 ${RSA}\n`)
    const after = await loadKnownHosts({ userFile, appFile })
    expect(after.entries.map((e) => [e.file, e.line])).toEqual([
      [userFile, 1],
      [appFile, 1]
    ])
    expect((await loadKnownHosts({ appFile: path.join(dir, 'missing') })).entries).toEqual([])
  })

  it('a file that cannot be read is an error naming it', async () => {
    const notAFile = path.join(dir, 'a-directory')
    await mkdir(notAFile)
    await expect(loadKnownHosts({ appFile: notAFile })).rejects.toThrow(`cannot read the known hosts file ${notAFile}`)
  })
})
