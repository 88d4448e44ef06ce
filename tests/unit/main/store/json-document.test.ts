import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { writeFileAtomic } from '../../../../src/main/fs/atomic-file'
import { JsonDocument } from '../../../../src/main/store/json-document'

const Prefs = z.object({ name: z.string().min(1), count: z.number().int() })
type Prefs = z.infer<typeof Prefs>

let dir: string

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-json-document-'))
})

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

function prefsDocument(file = path.join(dir, 'prefs.json')): JsonDocument<Prefs> {
  return new JsonDocument({
    file,
    kind: 'test.prefs',
    version: 2,
    schema: Prefs,
    defaults: () => ({ name: 'default', count: 0 })
  })
}

/** Writes `content` as the document's file, loads it, and checks it was moved aside untouched. */
async function loadUnreadable(content: string): Promise<{ problem: string; aside: string; data: Prefs }> {
  const doc = prefsDocument()
  await fs.writeFile(doc.file, content)
  const result = await doc.load()
  const entries = await fs.readdir(dir)
  expect(entries).not.toContain('prefs.json')
  const asides = entries.filter((name) => /^prefs\.json\.unreadable-[0-9T-]+Z$/.test(name))
  expect(asides).toHaveLength(1)
  const aside = path.join(dir, asides[0] ?? '')
  expect(await fs.readFile(aside, 'utf8')).toBe(content)
  expect(result.problem).toBeDefined()
  return { problem: result.problem ?? '', aside, data: result.data }
}

describe('JsonDocument.load', () => {
  it('returns the defaults without a problem when the file does not exist', async () => {
    const doc = prefsDocument()
    expect(await doc.load()).toEqual({ data: { name: 'default', count: 0 } })
    expect(await fs.readdir(dir)).toEqual([])
  })

  it('returns a fresh defaults object on every load', async () => {
    const doc = prefsDocument()
    const first = await doc.load()
    first.data.count = 99
    expect((await doc.load()).data).toEqual({ name: 'default', count: 0 })
  })

  it('reads back what save wrote', async () => {
    const doc = prefsDocument()
    await doc.save({ name: 'bench', count: 7 })
    expect(await doc.load()).toEqual({ data: { name: 'bench', count: 7 } })
    expect(await prefsDocument().load()).toEqual({ data: { name: 'bench', count: 7 } })
  })

  it.each([
    ['bad JSON', '{ "kind": "test.prefs", ', 'not valid JSON'],
    ['a JSON value that is not an object', '42\n', 'not a JSON object'],
    [
      'the wrong kind',
      JSON.stringify({ kind: 'other.kind', version: 2, data: { name: 'x', count: 1 } }),
      'expected kind "test.prefs", found "other.kind"'
    ],
    [
      'the wrong version',
      JSON.stringify({ kind: 'test.prefs', version: 3, data: { name: 'x', count: 1 } }),
      'version 3 is not the supported version 2'
    ],
    [
      'data the schema rejects',
      JSON.stringify({ kind: 'test.prefs', version: 2, data: { name: 'x', count: 1.5 } }),
      'invalid data at count'
    ]
  ])('moves a file with %s aside and returns the defaults', async (_label, content, reason) => {
    const { problem, aside, data } = await loadUnreadable(content)
    expect(data).toEqual({ name: 'default', count: 0 })
    expect(problem).toContain(path.join(dir, 'prefs.json'))
    expect(problem).toContain(reason)
    expect(problem).toContain(aside)
  })

  it('starts clean after moving an unreadable file aside', async () => {
    const doc = prefsDocument()
    await loadUnreadable('not json at all')
    expect(await doc.load()).toEqual({ data: { name: 'default', count: 0 } })
  })

  it('rethrows read errors other than a missing file', async () => {
    const doc = prefsDocument()
    await fs.mkdir(doc.file)
    await expect(doc.load()).rejects.toMatchObject({ code: 'EISDIR' })
    expect((await fs.stat(doc.file)).isDirectory()).toBe(true)
  })
})

describe('JsonDocument.save', () => {
  it('writes { kind, version, data } as pretty JSON with a final newline', async () => {
    const doc = prefsDocument()
    await doc.save({ name: 'bench', count: 7 })
    const text = await fs.readFile(doc.file, 'utf8')
    expect(text).toBe(
      '{\n  "kind": "test.prefs",\n  "version": 2,\n  "data": {\n    "name": "bench",\n    "count": 7\n  }\n}\n'
    )
  })

  it('writes what the schema outputs, dropping keys the schema does not know', async () => {
    const doc = prefsDocument()
    await doc.save({ name: 'bench', count: 1, extra: true } as Prefs)
    const onDisk = JSON.parse(await fs.readFile(doc.file, 'utf8')) as { data: unknown }
    expect(onDisk.data).toEqual({ name: 'bench', count: 1 })
  })

  it('rejects data the schema refuses and leaves the existing file untouched', async () => {
    const doc = prefsDocument()
    await doc.save({ name: 'good', count: 1 })
    const before = await fs.readFile(doc.file, 'utf8')
    await expect(doc.save({ name: '', count: 2 })).rejects.toBeInstanceOf(z.ZodError)
    await expect(doc.save({ name: 'x', count: 'many' } as unknown as Prefs)).rejects.toBeInstanceOf(z.ZodError)
    expect(await fs.readFile(doc.file, 'utf8')).toBe(before)
    expect(await fs.readdir(dir)).toEqual(['prefs.json'])
  })

  it('creates the file on first save when its directory does not exist yet', async () => {
    const doc = prefsDocument(path.join(dir, 'a', 'b', 'prefs.json'))
    await doc.save({ name: 'deep', count: 3 })
    expect(await doc.load()).toEqual({ data: { name: 'deep', count: 3 } })
  })
})

describe('writeFileAtomic', () => {
  it('writes the content and leaves no temp file behind', async () => {
    const file = path.join(dir, 'out.txt')
    await writeFileAtomic(file, 'first')
    await writeFileAtomic(file, 'second')
    expect(await fs.readFile(file, 'utf8')).toBe('second')
    expect(await fs.readdir(dir)).toEqual(['out.txt'])
  })

  it('removes its temp file when the write cannot complete, and leaves what was there', async () => {
    const file = path.join(dir, 'taken')
    await fs.mkdir(file)
    await fs.writeFile(path.join(file, 'inside.txt'), 'kept')
    await expect(writeFileAtomic(file, 'new')).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST|EPERM/)
    expect(await fs.readdir(dir)).toEqual(['taken'])
    expect(await fs.readFile(path.join(file, 'inside.txt'), 'utf8')).toBe('kept')
  })

  it('creates missing parent directories', async () => {
    const file = path.join(dir, 'x', 'y', 'z', 'out.txt')
    await writeFileAtomic(file, 'nested')
    expect(await fs.readFile(file, 'utf8')).toBe('nested')
    expect(await fs.readdir(path.dirname(file))).toEqual(['out.txt'])
  })

  it('gives the file mode 0600, also when it replaces a wider one', async () => {
    const file = path.join(dir, 'secret.txt')
    await fs.writeFile(file, 'old')
    await fs.chmod(file, 0o644)
    await writeFileAtomic(file, 'new')
    // Windows keeps only a read-only bit, so a writable file always reports 0666 there.
    const expected = process.platform === 'win32' ? 0o666 : 0o600
    expect((await fs.stat(file)).mode & 0o777).toBe(expected)
  })

  it('ends with exactly one complete content when many writes race on one file', async () => {
    const file = path.join(dir, 'race.json')
    const contents = Array.from({ length: 25 }, (_, i) =>
      `${JSON.stringify({ writer: i, payload: String(i).repeat(20_000) }, null, 2)}\n`
    )
    await Promise.all(contents.map((content) => writeFileAtomic(file, content)))
    const final = await fs.readFile(file, 'utf8')
    expect(contents).toContain(final)
    const parsed = JSON.parse(final) as { writer: number; payload: string }
    expect(parsed.payload).toBe(String(parsed.writer).repeat(20_000))
    expect(await fs.readdir(dir)).toEqual(['race.json'])
  })
})
