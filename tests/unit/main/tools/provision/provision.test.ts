import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SOURCE_BUILDS, archiveTrust, cacheDir, cachedScript, isProgram, parseToolArchive, parseToolChecksum, toolPathScript } from '../../../../../src/main/tools/provision'

const IOZONE_489 = '48f56ab4ef3e2883d98faa1f1203f55d7569f6f06beaa61803e113bd9de0ad2e'
const scratch = mkdtempSync(path.join(os.tmpdir(), "vb provision 'q' "))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const sh = (script: string): string => execFileSync('sh', ['-c', script], { encoding: 'utf8' })

describe('tools from this computer: what the admin gives', () => {
  it('reads TOOL=FILE and TOOL=HEX, and says what is wrong with anything else', () => {
    expect(parseToolArchive('iozone=./iozone3_489.orig.tar.gz')).toEqual({ tool: 'iozone', path: './iozone3_489.orig.tar.gz' })
    expect(parseToolArchive('unixbench=/a=b.tar')).toEqual({ tool: 'unixbench', path: '/a=b.tar' })
    expect(parseToolArchive('fio=fio.tar')).toEqual({ error: '"fio" cannot come from an archive: only iozone, unixbench can (the others are packaged by the distributions)' })
    expect(parseToolArchive('iozone')).toEqual({ error: '"iozone" is not TOOL=FILE (for example iozone=./iozone3_489.orig.tar.gz)' })
    expect(parseToolChecksum(`iozone=${IOZONE_489.toUpperCase()}`)).toEqual({ tool: 'iozone', sha256: IOZONE_489 })
    expect(parseToolChecksum('iozone=abc')).toEqual({ error: 'the SHA-256 of iozone must be 64 hexadecimal digits (sha256sum prints it), not "abc"' })
  })

  it('trusts a pinned release, the checksum given, or records an unknown one; refuses a mismatch', () => {
    const pinned = archiveTrust('iozone', IOZONE_489, undefined)
    expect(pinned.ok && pinned.how === 'pinned' && pinned.release.file).toBe('iozone3_489.orig.tar.gz')
    expect(archiveTrust('iozone', 'a'.repeat(64), 'a'.repeat(64))).toEqual({ ok: true, how: 'given' })
    expect(archiveTrust('unixbench', 'a'.repeat(64), undefined)).toEqual({ ok: true, how: 'recorded' })
    expect(archiveTrust('iozone', IOZONE_489, 'b'.repeat(64))).toEqual({ ok: false, reason: `its SHA-256 is ${IOZONE_489}, not ${'b'.repeat(64)} as given: it is another file, or damaged` })
  })

  it('tells a program (ELF) from an archive by its first bytes', () => {
    expect(isProgram(new Uint8Array([0x7f, 0x45, 0x4c, 0x46]))).toBe(true)
    expect(isProgram(new Uint8Array([0x1f, 0x8b, 0x08, 0x00]))).toBe(false)
  })

  it("builds iozone with its makefile's name for the target's processor and CC=\"cc -fcommon\"", () => {
    expect(SOURCE_BUILDS.iozone!.makeArgs('x86_64')).toEqual(['linux-AMD64', 'CC=cc -fcommon'])
    expect(SOURCE_BUILDS.iozone!.makeArgs('aarch64')).toEqual(['linux-arm', 'CC=cc -fcommon'])
    expect(SOURCE_BUILDS.iozone!.makeArgs('riscv64')).toEqual(['linux', 'CC=cc -fcommon'])
  })
})

describe('the scripts on the target (run by a real sh, in a folder whose name needs quoting)', () => {
  it('finds a cached program only when it is there and runs', () => {
    const dir = cacheDir(scratch, 'iozone', IOZONE_489)
    const script = cachedScript(dir, SOURCE_BUILDS.iozone!)
    expect(sh(script)).toBe('absent\n')
    mkdirSync(path.join(dir, 'bin'), { recursive: true })
    writeFileSync(path.join(dir, 'bin', 'iozone'), '')
    expect(sh(script)).toBe('absent\n')
    chmodSync(path.join(dir, 'bin', 'iozone'), 0o755)
    expect(sh(script)).toBe(`cached ${dir}/bin/iozone\n`)
    expect(sh(toolPathScript(`${dir}/bin/iozone`, SOURCE_BUILDS.iozone))).toBe('present\n')
    expect(sh(toolPathScript(`${dir}/bin/none`, SOURCE_BUILDS.iozone))).toBe('absent\n')
  })

  it('finds a cached UnixBench folder', () => {
    const dir = cacheDir(scratch, 'unixbench', 'c'.repeat(64))
    expect(sh(cachedScript(dir, SOURCE_BUILDS.unixbench!))).toBe('absent\n')
    mkdirSync(path.join(dir, 'tool'), { recursive: true })
    expect(sh(cachedScript(dir, SOURCE_BUILDS.unixbench!))).toBe(`cached ${dir}/tool\n`)
  })
})
