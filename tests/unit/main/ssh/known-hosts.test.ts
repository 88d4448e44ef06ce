import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  appendKnownHostsLine,
  checkKnownHost,
  entryMatchesName,
  formatKnownHostsLine,
  hashedHostField,
  keyTypeOfBlob,
  knownHostsName,
  matchPatternList,
  matchWildcard,
  parseKnownHosts,
  readKnownHostsFile,
  rememberedKeyTypes,
  type KnownHostsEntry
} from '../../../../src/main/ssh/known-hosts'

/*
 * Real public keys, made on 2026-05 with OpenSSH 9.2p1 (Debian 12):
 *   ssh-keygen -q -t ed25519 -N '' -C fx -f k_ed25519            (and -t ecdsa -b 256/384/521, -t rsa -b 1024)
 * HASHED_* lines: the two lines "kvm-host.example.org <ED25519>" and "[10.0.0.5]:2222 <ECDSA256>"
 * hashed by `ssh-keygen -H -f kh`.
 */
const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOyKJYgoM5LxsCqBOnIn+h7tiCUz+0rmR5Km3+0dOdsV'
const ECDSA256 =
  'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBOdLeB6C7G5E1q4ugUrdz4R8ik1SRBw22YvYthrtvPqA7Q9k5quMi30wOXoWK9FBqMgNmcxccKkkcqBFtudhAgM='
const ECDSA384 =
  'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBHBS5YEaWvMTe7bpV8YaTj1JnEI/GtRUUNwF3AbNjYLN9gKHccphyN6v1j4eW+8T/T3HGxGv1E3tUWv6VXzHy3hflH16C9LAzYOW5bgZ/oJw97Q73F6hn+0r1U9bGU3giQ=='
const ECDSA521 =
  'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBADFxH6n7nscRWREkZHngizkWDVxgH/6DPaiHUU9Im0jY/kw3mMZg9+a6FKlmEskhkbegBnmWTunlmhyT2mL1EEfygEcepzc4SDOlmI1DcJ5m/W5EelM8DfVi1mLQuRcjZXwx9JlrljBF6EscC0LMZ96IBuEiFyPLrodZ8idHjtIjL+3XQ=='
const RSA =
  'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQDep135cIsbMlBumO5F+f98asAgs9gfqS+ZXcK2siDoagzlhDO4Y0XusSiZV+KSl5DCTbu86JhtVaUk4mhwYI0iEz29r278o7IrKmx6VzBjGpjaFBL+xDdDP5g5OE3CStV7Iv06fnjbxb38w5AT07kV3FZJK+/zVprJXatmkNmm6Q=='
const HASHED_KVM_HOST = `|1|yTeeOf/kfHADS5yDhKTW52OyIZw=|3bQxaKYvnYooxLL0sULX19RwrIQ= ${ED25519}`
const HASHED_10_0_0_5_2222 = `|1|XxZOe6UFiq3TKRCp9xWvYnyEifE=|ZHOzBpJj/i4SKgc7TQSao0qr7QE= ${ECDSA256}`

function blobOf(keyLine: string): Buffer {
  return Buffer.from(keyLine.split(' ')[1] as string, 'base64')
}

function parse(text: string): KnownHostsEntry[] {
  const { entries, problems } = parseKnownHosts(text, 'kh')
  expect(problems).toEqual([])
  return entries
}

describe('parseKnownHosts', () => {
  it('reads every key type with markers, comments, blank lines, tabs, CRLF and trailing comments', () => {
    const text = [
      '# VirtBench test file',
      '',
      '   ',
      `kvm-host,10.0.0.5 ${ED25519} root@kvm-host`,
      `\t[10.0.0.5]:2222\t${ECDSA256}\r`,
      `*.lab.example ${ECDSA384}`,
      `db?.lab ${ECDSA521} a comment with spaces`,
      `@revoked * ${RSA}`,
      `@cert-authority *.lab.example ${ED25519}`
    ].join('\n')
    const entries = parse(text)
    expect(entries.map((e) => [e.line, e.marker, e.keyType, e.hosts])).toEqual([
      [4, undefined, 'ssh-ed25519', { kind: 'patterns', patterns: ['kvm-host', '10.0.0.5'] }],
      [5, undefined, 'ecdsa-sha2-nistp256', { kind: 'patterns', patterns: ['[10.0.0.5]:2222'] }],
      [6, undefined, 'ecdsa-sha2-nistp384', { kind: 'patterns', patterns: ['*.lab.example'] }],
      [7, undefined, 'ecdsa-sha2-nistp521', { kind: 'patterns', patterns: ['db?.lab'] }],
      [8, 'revoked', 'ssh-rsa', { kind: 'patterns', patterns: ['*'] }],
      [9, 'cert-authority', 'ssh-ed25519', { kind: 'patterns', patterns: ['*.lab.example'] }]
    ])
    expect(entries[0]?.keyBlob.equals(blobOf(ED25519))).toBe(true)
    expect(entries.every((e) => e.file === 'kh')).toBe(true)
  })

  it('reads hashed names written by ssh-keygen -H', () => {
    const [entry] = parse(HASHED_KVM_HOST)
    expect(entry?.hosts.kind).toBe('hashed')
    expect(entry?.keyType).toBe('ssh-ed25519')
  })

  it('reports malformed lines with their number and skips them', () => {
    const text = [
      `@bogus host ${ED25519}`,
      'lonely-host',
      'host ssh-ed25519',
      'host ssh-ed25519 #comment',
      'host ssh-ed25519 not*base64',
      `host ssh-rsa ${ED25519.split(' ')[1]}`,
      'host 2048 35 1234567',
      `|1|short|hash ${ED25519}`,
      `|2|abc|def ${ED25519}`,
      `good ${ED25519}`
    ].join('\n')
    const { entries, problems } = parseKnownHosts(text, '/home/u/.ssh/known_hosts')
    expect(entries.map((e) => e.line)).toEqual([10])
    expect(problems.map((p) => [p.line, p.reason])).toEqual([
      [1, 'unknown marker "@bogus"'],
      [2, 'no key type after the host names'],
      [3, 'no key after the key type "ssh-ed25519"'],
      [4, 'no key after the key type "ssh-ed25519"'],
      [5, 'the key is not valid base64: "not*base64"'],
      [6, 'the key says it is "ssh-ed25519" but the line says "ssh-rsa"'],
      [7, 'old SSH protocol 1 key (not supported by SSH 2)'],
      [8, 'malformed hashed host name "|1|short|hash"'],
      [9, 'malformed hashed host name "|2|abc|def"']
    ])
    expect(problems.every((p) => p.file === '/home/u/.ssh/known_hosts')).toBe(true)
  })

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const result = parseKnownHosts(text, 'kh')
        return Array.isArray(result.entries) && Array.isArray(result.problems)
      })
    )
    fc.assert(
      fc.property(fc.array(fc.constantFrom('@revoked', '|1|', '*', ',', '!', ' ', '\t', '\n', '#', 'ssh-ed25519', ED25519.split(' ')[1] as string, 'host'), { maxLength: 30 }), (parts) => {
        parseKnownHosts(parts.join(''), 'kh')
        return true
      })
    )
  })
})

describe('keyTypeOfBlob', () => {
  it('reads the type embedded in a key blob and refuses garbage', () => {
    expect(keyTypeOfBlob(blobOf(RSA))).toBe('ssh-rsa')
    expect(keyTypeOfBlob(blobOf(ECDSA521))).toBe('ecdsa-sha2-nistp521')
    expect(keyTypeOfBlob(Buffer.from([0, 0, 0]))).toBeUndefined()
    expect(keyTypeOfBlob(Buffer.from([0, 0, 0, 9, 65]))).toBeUndefined()
    expect(keyTypeOfBlob(Buffer.from([0, 0, 0, 2, 0x0a, 0x41]))).toBeUndefined()
  })
})

describe('host names and patterns', () => {
  it('uses the plain host for port 22 and [host]:port otherwise, lowercased', () => {
    expect(knownHostsName('KVM-Host', 22)).toBe('kvm-host')
    expect(knownHostsName('10.0.0.5', 2222)).toBe('[10.0.0.5]:2222')
    expect(knownHostsName('fe80::1', 22)).toBe('fe80::1')
    expect(knownHostsName('fe80::1', 2200)).toBe('[fe80::1]:2200')
  })

  it('matches * and ? wildcards case-insensitively', () => {
    expect(matchWildcard('kvm-host', 'kvm-host')).toBe(true)
    expect(matchWildcard('kvm-host', 'KVM-*')).toBe(true)
    expect(matchWildcard('db1.lab', 'db?.lab')).toBe(true)
    expect(matchWildcard('db12.lab', 'db?.lab')).toBe(false)
    expect(matchWildcard('[10.0.0.5]:2222', '[10.0.0.*]:*')).toBe(true)
    expect(matchWildcard('[10.0.0.5]:2222', '10.0.0.5')).toBe(false)
    expect(matchWildcard('anything', '*')).toBe(true)
    expect(matchWildcard('', '*')).toBe(true)
    expect(matchWildcard('', '?')).toBe(false)
    expect(matchWildcard('abc', 'a*b*c*')).toBe(true)
    expect(matchWildcard('abd', 'a*c')).toBe(false)
  })

  it('agrees with a regular-expression reference on random names and patterns', () => {
    const reference = (name: string, pattern: string): boolean =>
      new RegExp(
        `^${pattern
          .toLowerCase()
          .split('')
          .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
          .join('')}$`,
        's'
      ).test(name.toLowerCase())
    const alphabet = fc.constantFrom('a', 'B', '.', '*', '?', '[', ']', ':', '1')
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 12 }), fc.array(alphabet, { maxLength: 8 }), (n, p) => {
        const name = n.join('').replace(/[*?]/g, 'x')
        const pattern = p.join('')
        return matchWildcard(name, pattern) === reference(name, pattern)
      }),
      { numRuns: 2000 }
    )
  })

  it('a negated pattern takes a host out of a list, even if another pattern matches', () => {
    expect(matchPatternList('db1.lab', ['*.lab', '!db1.lab'])).toBe(false)
    expect(matchPatternList('db2.lab', ['*.lab', '!db1.lab'])).toBe(true)
    expect(matchPatternList('db1.lab', ['!db1.lab'])).toBe(false)
    expect(matchPatternList('web.lab', ['!db1.lab'])).toBe(false)
    expect(matchPatternList('web.lab', [])).toBe(false)
  })

  it('matches ssh-keygen -H hashed names, for the plain and the [host]:port form', () => {
    const [kvm] = parse(HASHED_KVM_HOST)
    const [ten] = parse(HASHED_10_0_0_5_2222)
    expect(entryMatchesName(kvm as KnownHostsEntry, 'kvm-host.example.org')).toBe(true)
    expect(entryMatchesName(kvm as KnownHostsEntry, 'kvm-host.example.com')).toBe(false)
    expect(entryMatchesName(ten as KnownHostsEntry, knownHostsName('10.0.0.5', 2222))).toBe(true)
    expect(entryMatchesName(ten as KnownHostsEntry, knownHostsName('10.0.0.5', 22))).toBe(false)
  })

  it('hashes names the way OpenSSH does (our hashed field matches, others do not)', () => {
    const salt = Buffer.alloc(20, 7)
    const [entry] = parse(`${hashedHostField('[10.0.0.5]:2222', salt)} ${ED25519}`)
    expect(entryMatchesName(entry as KnownHostsEntry, '[10.0.0.5]:2222')).toBe(true)
    expect(entryMatchesName(entry as KnownHostsEntry, '10.0.0.5')).toBe(false)
  })
})

describe('checkKnownHost', () => {
  const ed = blobOf(ED25519)
  const ec = blobOf(ECDSA256)
  const rsa = blobOf(RSA)

  it('known when an entry for the host carries the key', () => {
    const entries = parse(`other ${ECDSA256}\nkvm-host ${ED25519}`)
    const result = checkKnownHost(entries, 'kvm-host', 22, ed)
    expect(result.status).toBe('known')
    expect(result.status === 'known' && result.entry.line).toBe(2)
  })

  it('unknown when no entry applies; port 22 entries do not apply to other ports and vice versa', () => {
    const entries = parse(`kvm-host ${ED25519}\n[db]:2222 ${ED25519}`)
    expect(checkKnownHost(entries, 'web', 22, ed).status).toBe('unknown')
    expect(checkKnownHost(entries, 'kvm-host', 2222, ed).status).toBe('unknown')
    expect(checkKnownHost(entries, 'db', 22, ed).status).toBe('unknown')
    expect(checkKnownHost(entries, 'db', 2222, ed).status).toBe('known')
  })

  it('changed when the host has another key of the same type', () => {
    const entries = parse(`kvm-host ${ECDSA256}`)
    const other = Buffer.from(ec)
    other.writeUInt8(other.readUInt8(other.length - 1) ^ 1, other.length - 1)
    const result = checkKnownHost(entries, 'kvm-host', 22, other)
    expect(result.status).toBe('changed')
  })

  it('changed when the host has only keys of another type (OpenSSH hostfile.c rule)', () => {
    const entries = parse(`kvm-host ${RSA}\nkvm-host ${ECDSA256}`)
    const result = checkKnownHost(entries, 'kvm-host', 22, ed)
    expect(result.status).toBe('changed')
    expect(result.status === 'changed' && result.remembered.map((e) => e.keyType)).toEqual(['ssh-rsa', 'ecdsa-sha2-nistp256'])
  })

  it('known when one of several remembered keys matches', () => {
    const entries = parse(`kvm-host ${RSA}\nkvm-host ${ED25519}`)
    expect(checkKnownHost(entries, 'kvm-host', 22, ed).status).toBe('known')
    expect(checkKnownHost(entries, 'kvm-host', 22, rsa).status).toBe('known')
  })

  it('revoked wins over an entry that accepts the key, but only for hosts the @revoked line names', () => {
    const entries = parse(`kvm-host ${ED25519}\n@revoked kvm-* ${ED25519}`)
    const result = checkKnownHost(entries, 'kvm-host', 22, ed)
    expect(result.status).toBe('revoked')
    expect(result.status === 'revoked' && result.entry.line).toBe(2)
    expect(checkKnownHost(parse(`web ${ED25519}\n@revoked kvm-* ${ED25519}`), 'web', 22, ed).status).toBe('known')
  })

  it('@revoked of another key does not affect this key; @cert-authority has no effect', () => {
    expect(checkKnownHost(parse(`kvm-host ${ED25519}\n@revoked * ${RSA}`), 'kvm-host', 22, ed).status).toBe('known')
    expect(checkKnownHost(parse(`@cert-authority * ${ED25519}`), 'kvm-host', 22, ed).status).toBe('unknown')
    expect(checkKnownHost(parse(`@cert-authority * ${RSA}\nkvm-host ${ED25519}`), 'kvm-host', 22, ed).status).toBe('known')
  })

  it('lists the remembered key types for a host, ignoring markers', () => {
    const entries = parse(`kvm-host ${RSA}\n@revoked * ${ED25519}\nkvm-* ${ECDSA256}\nkvm-host ${RSA}`)
    expect(rememberedKeyTypes(entries, 'kvm-host', 22)).toEqual(['ssh-rsa', 'ecdsa-sha2-nistp256'])
    expect(rememberedKeyTypes(entries, 'web', 22)).toEqual([])
  })
})

describe('writing and reading files', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'virtbench-kh-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('formats lines the way ssh writes them', () => {
    expect(formatKnownHostsLine('10.0.0.5', 2222, blobOf(ED25519))).toBe(`[10.0.0.5]:2222 ${ED25519}`)
    expect(formatKnownHostsLine('KVM-Host', 22, blobOf(RSA))).toBe(`kvm-host ${RSA}`)
  })

  it('a missing file reads as empty', async () => {
    expect(await readKnownHostsFile(path.join(dir, 'nope'))).toEqual({ entries: [], problems: [] })
  })

  it('append creates the folder and a 0600 file, keeps what was there and adds a missing newline', async () => {
    const file = path.join(dir, 'sub', 'known_hosts')
    await appendKnownHostsLine(file, `a ${ED25519}`)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    await writeFile(file, `${await readFile(file, 'utf8')}# no newline at end`)
    await appendKnownHostsLine(file, `b ${RSA}`)
    expect(await readFile(file, 'utf8')).toBe(`a ${ED25519}\n# no newline at end\nb ${RSA}\n`)
    expect((await readKnownHostsFile(file)).entries.map((e) => e.line)).toEqual([1, 3])
  })

  it('appends issued at the same time all land, and no temp file is left', async () => {
    const file = path.join(dir, 'known_hosts')
    await Promise.all(Array.from({ length: 12 }, (_, i) => appendKnownHostsLine(file, `[h]:${1000 + i} ${ED25519}`)))
    const lines = (await readFile(file, 'utf8')).trim().split('\n')
    expect(lines.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `[h]:${1000 + i} ${ED25519}`).sort())
    expect(await readdir(dir)).toEqual(['known_hosts'])
  })

  it('refuses a line with a line break', async () => {
    await expect(appendKnownHostsLine(path.join(dir, 'kh'), `a ${ED25519}\nevil ${RSA}`)).rejects.toThrow(/line break/)
  })
})
