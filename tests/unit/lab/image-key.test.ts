import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { LAB_PACKAGES, hostKeyFingerprint, imageKey, labDir, readAptSources } from '../../../lab/driver'

describe('the image cache', () => {
  it('is keyed on the build script, the package list and the suite, not the order of the packages', () => {
    const key = imageKey('#!/bin/sh\necho v1\n', LAB_PACKAGES, 'bookworm')
    expect(key).toMatch(/^[0-9a-f]{16}$/)
    expect(imageKey('#!/bin/sh\necho v1\n', [...LAB_PACKAGES].reverse(), 'bookworm')).toBe(key)
    expect(imageKey('#!/bin/sh\necho v2\n', LAB_PACKAGES, 'bookworm')).not.toBe(key)
    expect(imageKey('#!/bin/sh\necho v1\n', [...LAB_PACKAGES, 'strace'], 'bookworm')).not.toBe(key)
    expect(imageKey('#!/bin/sh\necho v1\n', LAB_PACKAGES, 'trixie')).not.toBe(key)
  })

  it('holds the tools the packs run and what the lab needs in the guest', () => {
    for (const p of ['openssh-server', 'fio', 'iperf3', 'iputils-ping', 'sysbench', 'mbw', 'util-linux', 'systemd-sysv', 'linux-image-amd64']) expect(LAB_PACKAGES).toContain(p)
  })

  it('lives outside the repository: $VIRTBENCH_LAB_DIR, else the XDG cache', () => {
    expect(labDir({ VIRTBENCH_LAB_DIR: '/srv/lab' })).toBe('/srv/lab')
    expect(labDir({ XDG_CACHE_HOME: '/home/a/.cache' })).toBe('/home/a/.cache/virtbench-lab')
    expect(labDir({})).toBe(path.join(os.homedir(), '.cache', 'virtbench-lab'))
  })
})

describe("reading apt's configuration", () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('reads sources.list, then sources.list.d/*.list and *.sources in name order, and nothing else', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-apt-'))
    mkdirSync(path.join(dir, 'sources.list.d'))
    writeFileSync(path.join(dir, 'sources.list'), 'deb http://one/debian bookworm main\n')
    writeFileSync(path.join(dir, 'sources.list.d', 'b.sources'), 'Types: deb\nURIs: http://three/debian\nSuites: bookworm\nComponents: main\n')
    writeFileSync(path.join(dir, 'sources.list.d', 'a.list'), 'deb http://two/debian bookworm main\n')
    writeFileSync(path.join(dir, 'sources.list.d', 'c.list.disabled'), 'deb http://never/debian bookworm main\n')
    expect(readAptSources(dir).map((s) => s.uri)).toEqual(['http://one/debian', 'http://two/debian', 'http://three/debian'])
  })

  it('gives nothing for a machine without apt', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-apt-'))
    expect(readAptSources(path.join(dir, 'none'))).toEqual([])
  })
})

describe("the guests' host key", () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('is named by its fingerprint as ssh-keygen -lf prints it', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-hostkey-'))
    const key = path.join(dir, 'ssh_host_ed25519_key')
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'root@vm', '-f', key])
    // "256 SHA256:... root@vm (ED25519)"
    const listed = execFileSync('ssh-keygen', ['-lf', `${key}.pub`], { encoding: 'utf8' }).split(' ')[1]
    expect(hostKeyFingerprint({ hostKeyFile: `${key}.pub` })).toBe(`ssh-ed25519 ${listed}`)
  })

  it('an empty key file says to build the image again', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-hostkey-'))
    writeFileSync(path.join(dir, 'host_key.pub'), '\n')
    expect(() => hostKeyFingerprint({ hostKeyFile: path.join(dir!, 'host_key.pub') })).toThrow(/holds no host key: build the image again/)
  })
})
