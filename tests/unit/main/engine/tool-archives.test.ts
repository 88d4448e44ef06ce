import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch, type Handlers } from '../../../../src/main/api/dispatch'
import { checkedToolArchives, createToolArchiveHandlers } from '../../../../src/main/api/tool-archive-handlers'
import { checkToolArchives, toolArchivesOfOptions, ToolArchiveError, toolSourcesOf } from '../../../../src/main/engine/tool-archives'
import { SOURCE_BUILDS } from '../../../../src/main/tools/provision'
import { ARCHIVE_TOOLS } from '../../../../src/shared/tool-archive-contract'
import { ApiError } from '../../../../src/main/api/api-error'
import type { Target } from '../../../../src/shared/model/target'

/** The one check of the files a run brings (docs/tools-offline.md), for the CLI and the app alike, on real files. */
describe('tools brought from this computer: one check for the CLI and the app', () => {
  let dir: string
  let file: string

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-tool-archives-'))
    file = path.join(dir, 'byte-unixbench.tar.gz')
    writeFileSync(file, 'source')
    mkdirSync(path.join(dir, 'folder'))
  })

  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const failure = async (run: () => Promise<unknown>): Promise<ToolArchiveError> => {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(ToolArchiveError)
    return error as ToolArchiveError
  }

  it('offers exactly the tools the engine knows how to build', () => {
    expect([...ARCHIVE_TOOLS].sort()).toEqual(Object.keys(SOURCE_BUILDS).sort())
  })

  it('pairs --tool-archive and --tool-sha256 by tool, with the options named in each refusal', () => {
    const sum = 'AB'.repeat(32)
    expect(toolArchivesOfOptions(['unixbench=./ub.tar.gz', 'iozone=/x/io.tgz'], [`unixbench=${sum}`])).toEqual([
      { tool: 'unixbench', path: './ub.tar.gz', sha256: sum.toLowerCase() },
      { tool: 'iozone', path: '/x/io.tgz' }
    ])
    expect(() => toolArchivesOfOptions(['fio=./fio.tgz'], [])).toThrow('--tool-archive: "fio" cannot come from an archive: only iozone, unixbench can')
    expect(() => toolArchivesOfOptions([], ['iozone=12'])).toThrow('--tool-sha256: the SHA-256 of iozone must be 64 hexadecimal digits')
    expect(() => toolArchivesOfOptions([], [`iozone=${sum}`])).toThrow('--tool-sha256 iozone=... goes with --tool-archive iozone=FILE')
  })

  it('takes a readable file (a relative path from the working folder), and refuses what is not one, naming it', async () => {
    expect(await checkToolArchives([{ tool: 'unixbench', path: 'byte-unixbench.tar.gz' }], dir)).toEqual([{ tool: 'unixbench', path: file }])
    const missing = await failure(() => checkToolArchives([{ tool: 'iozone', path: path.join(dir, 'nope.tgz') }]))
    expect([missing.field, missing.message]).toEqual(['path', `The IOzone file ${path.join(dir, 'nope.tgz')} does not exist on this computer; give the path of the source archive (or program) you downloaded`])
    expect((await failure(() => checkToolArchives([{ tool: 'iozone', path: path.join(dir, 'folder') }]))).message).toContain('is a folder; give the source archive itself')
    const twice = await failure(() => checkToolArchives([{ tool: 'iozone', path: file }, { tool: 'iozone', path: file }]))
    expect([twice.field, twice.message]).toEqual(['tool', 'IOzone is given twice; give one file per tool'])
  })

  it('answers the API with the entry and field at fault', async () => {
    const error = await checkedToolArchives([{ tool: 'unixbench', path: file }, { tool: 'iozone', path: path.join(dir, 'nope.tgz') }]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).issues?.map((i) => i.path)).toEqual(['toolArchives.1.path'])

    const handlers = createToolArchiveHandlers({}) as unknown as Handlers
    expect(await dispatch(handlers, 'tools:checkArchive', { tool: 'iozone', path: 'relative.tgz' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request', issues: [{ path: 'path', message: 'give an absolute path (starting with /), as "Choose…" or `realpath FILE` gives it' }] }
    })
    expect(await dispatch(handlers, 'tools:checkArchive', { tool: 'unixbench', path: file, sha256: '0'.repeat(64) })).toMatchObject({ ok: false, error: { issues: [{ path: 'sha256' }] } })
    expect(await dispatch(handlers, 'tools:checkArchive', { tool: 'unixbench', path: file })).toMatchObject({ ok: true, value: { tool: 'unixbench', path: file, bytes: 6, program: false, trust: 'recorded' } })
    expect(await dispatch(handlers, 'tools:chooseArchive', { tool: 'iozone' })).toMatchObject({ ok: false, error: { code: 'unavailable' } })
  })

  it('gives the engine the files and the targets\' own tool paths, as the CLI does', () => {
    const target = { name: 'db-01', toolPaths: { iozone: '/opt/iozone/bin/iozone' } } as unknown as Target
    expect(toolSourcesOf([{ tool: 'iozone', path: file }], [target, { name: 'vm1' } as Target])).toEqual({
      archives: [{ tool: 'iozone', path: file }],
      targetPaths: { 'db-01': { iozone: '/opt/iozone/bin/iozone' } }
    })
  })
})
